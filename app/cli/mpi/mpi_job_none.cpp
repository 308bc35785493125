// MpiJob without MPI (mpi_job.h): a job of one rank. Started by mpirun with several ranks, it
// refuses to run, since each rank would search the whole space on its own.
#include "app/cli/mpi_job.h"

namespace tandem::cli {

bool MpiJob::available() {
    return false;
}

core::Expected<std::unique_ptr<MpiJob>> MpiJob::join() {
    if (const int ranks = launcherRankCount(); ranks > 1)
        return core::Error{
            "started by mpirun with " + std::to_string(ranks) +
            " ranks, but this tandem-cli was built without MPI, so every rank would run the "
            "whole search. Install libopenmpi-dev and rebuild (scripts/run does both), or split "
            "the search with --shard K/N and join the parts with 'tandem-cli merge'"};
    return std::unique_ptr<MpiJob>(new MpiJob);
}

MpiJob::~MpiJob() = default;

void MpiJob::abort(int) {}

core::Status MpiJob::agree(const std::string&) {
    return {};
}

core::search::SearchResults MpiJob::explore(core::search::SearchRun& run,
                                            core::search::ChunkQueue& work,
                                            std::vector<core::search::EvaluatedPoint> done,
                                            core::RunControl& control,
                                            const core::search::PointCallback& onPoint) {
    return run.explore(&control, onPoint, &work, std::move(done));
}

}  // namespace tandem::cli
