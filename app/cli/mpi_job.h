#pragma once
// The MPI job a `tandem-cli search` process belongs to (ARCHITECTURE.md §4.6). Under
// `mpirun -np N tandem-cli search …` (or srun) every rank parses the same command line and
// prepares the same SearchRun; then rank 0 hands out the grid's chunks (a chip's points each) on
// demand, every rank evaluates them on its own thread pool (--threads), and the finished points
// flow back to rank 0 with each request for more. Rank 0 reports progress and ETA over all ranks,
// keeps the checkpoint and writes the one results file; the other ranks print nothing. A cancel
// (Ctrl+C, SIGTERM) on any rank reaches every rank: nothing new is handed out, the points that
// finished are kept. The result is the same as one process's, bit for bit.
//
// MPI is optional: built without it (no libopenmpi-dev), every search runs as one process, and a
// process that finds itself started by mpirun with several ranks refuses to run (each rank
// would otherwise search everything) and says how to get MPI or use --shard instead.
#include <memory>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/search/search_run.h"

namespace tandem::cli {

class MpiJob {
public:
    // Joins the job when the environment says mpirun or srun started this process, else a job
    // of one rank. Errors: several ranks but no MPI in this build; MPI failing to start.
    static core::Expected<std::unique_ptr<MpiJob>> join();
    ~MpiJob();  // leaves the job (MPI_Finalize)
    MpiJob(const MpiJob&) = delete;
    MpiJob& operator=(const MpiJob&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    static bool available();  // built with MPI

    // Every rank passes its run description; the ranks agree when all equal rank 0's. An error
    // (on every rank) names the ranks that differ.
    core::Status agree(const std::string& runJson);
    // Ends every rank of the job with `code` (MPI_Abort): for a failure on rank 0 after
    // agree(), when the other ranks are waiting for work. Does nothing in a job of one rank.
    void abort(int code);
    // Rank 0: `work` (filled and closed) explored by every rank, with `done` added; the points
    // stream through `onPoint` as they reach rank 0. Other ranks: their own share, for nothing
    // more than the exit code (cancelled or not). Every rank must call it once.
    core::search::SearchResults explore(core::search::SearchRun& run,
                                        core::search::ChunkQueue& work,
                                        std::vector<core::search::EvaluatedPoint> done,
                                        core::RunControl& control,
                                        const core::search::PointCallback& onPoint);

private:
    MpiJob() = default;
    int rank_ = 0;
    int size_ = 1;
    bool initialised_ = false;
};

// Whether mpirun or srun started this process, and with how many ranks (0: not started by them).
int launcherRankCount();

}  // namespace tandem::cli
