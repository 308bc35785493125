// MpiJob over MPI (mpi_job.h). Only the main thread calls MPI (MPI_THREAD_FUNNELED): the
// exploration runs on a thread of its own, and the main thread moves chunks and points between
// it and the other ranks, polling with MPI_Iprobe and sleeping a millisecond when idle, so that
// an oversubscribed rank does not spin a core that evaluators need. Messages are text:
//   a worker's request:  "R <chunks wanted>\n" + the point records it finished since its last
//   rank 0's answer:     a chunk per line ("i j k …"), "" when no work is left, "X" to stop
//   a worker's last one: "F <1 if it was interrupted, else 0>\n" + its remaining records
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "app/cli/mpi_job.h"
#include "core/search/point_record.h"

namespace tandem::cli {

namespace se = tandem::core::search;

namespace {

constexpr int kTagRequest = 1;
constexpr int kTagWork = 2;
constexpr int kTagFinal = 3;

void pause() {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void sendText(const std::string& text, int to, int tag) {
    MPI_Send(text.data(), int(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// A message that MPI_Iprobe found: its text, sender and tag.
struct Message {
    std::string text;
    int source = 0;
    int tag = 0;
};

bool poll(int source, int tag, Message& message) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &status);
    if (!flag) return false;
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    message.text.assign(std::size_t(count), '\0');
    MPI_Recv(message.text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    message.source = status.MPI_SOURCE;
    message.tag = status.MPI_TAG;
    return true;
}

// Thread-safe text buffer of point records, emptied into each message.
class Outbox {
public:
    void add(const se::EvaluatedPoint& p) {
        std::string record = se::encodePointRecord(p);
        std::lock_guard lock(mutex_);
        text_ += record;
        text_ += '\n';
    }
    std::string take() {
        std::lock_guard lock(mutex_);
        std::string out;
        out.swap(text_);
        return out;
    }

private:
    std::mutex mutex_;
    std::string text_;
};

std::string chunksText(se::ChunkQueue& work, int wanted) {
    std::string text;
    for (int k = 0; k < wanted; ++k) {
        std::optional<se::PointChunk> chunk = work.tryNext();
        if (!chunk) break;
        for (std::size_t i = 0; i < chunk->size(); ++i)
            text += (i ? " " : "") + std::to_string((*chunk)[i]);
        text += '\n';
    }
    return text;
}

}  // namespace

bool MpiJob::available() {
    return true;
}

core::Expected<std::unique_ptr<MpiJob>> MpiJob::join() {
    std::unique_ptr<MpiJob> job(new MpiJob);
    if (launcherRankCount() == 0) return job;
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return core::Error{"MPI did not start (MPI_Init_thread failed)"};
    job->initialised_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &job->rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &job->size_);
    if (provided < MPI_THREAD_FUNNELED)
        return core::Error{"this MPI library gives no thread support; Tandem's ranks run threads"};
    return job;
}

MpiJob::~MpiJob() {
    if (initialised_) MPI_Finalize();
}

void MpiJob::abort(int code) {
    if (initialised_) MPI_Abort(MPI_COMM_WORLD, code);
}

core::Status MpiJob::agree(const std::string& runJson) {
    if (size_ == 1) return {};
    unsigned long long length = runJson.size();
    MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    std::string first = rank_ == 0 ? runJson : std::string(length, '\0');
    MPI_Bcast(first.data(), int(length), MPI_CHAR, 0, MPI_COMM_WORLD);
    // 0: this rank could not prepare the search; 1: it prepared another one; 2: the same.
    const int mine = runJson.empty() ? 0 : (runJson == first ? 2 : 1);
    std::vector<int> all(std::size_t(size_), 0);
    MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::string failed, other;
    for (int r = 0; r < size_; ++r) {
        std::string& list = all[std::size_t(r)] == 0 ? failed : other;
        if (all[std::size_t(r)] != 2) list += (list.empty() ? "" : ", ") + std::to_string(r);
    }
    if (!failed.empty())
        return core::Error{"the search stops: MPI rank(s) " + failed +
                           " could not prepare it (their messages say why)"};
    if (!other.empty())
        return core::Error{"MPI rank(s) " + other +
                           " prepared another search than rank 0: every rank must see the same "
                           "model files, space and flags"};
    return {};
}

se::SearchResults MpiJob::explore(se::SearchRun& run, se::ChunkQueue& work,
                                  std::vector<se::EvaluatedPoint> done, core::RunControl& control,
                                  const se::PointCallback& onPoint) {
    if (size_ == 1) return run.explore(&control, onPoint, &work, std::move(done));
    se::SearchResults results;
    std::atomic<bool> finished{false};
    if (rank_ != 0) {
        // A worker: chunks come from rank 0; points go back with each request.
        se::ChunkQueue local;
        Outbox outbox;
        std::thread compute([&] {
            results = run.explore(
                &control, [&](const se::EvaluatedPoint& p) { outbox.add(p); }, &local);
            finished = true;
        });
        const int threads = run.threads();
        bool asked = false, noMore = false;
        Message reply;
        while (!(finished && noMore && !asked)) {
            bool idle = true;
            if (!noMore && !asked && control.cancelled()) {
                noMore = true;
                local.close();
            }
            if (!noMore && !asked && int(local.queuedChunks()) < threads) {
                const int wanted = threads - int(local.queuedChunks());
                sendText("R " + std::to_string(wanted) + "\n" + outbox.take(), 0, kTagRequest);
                asked = true;
                idle = false;
            }
            if (asked && poll(0, kTagWork, reply)) {
                asked = false;
                idle = false;
                if (reply.text == "X") control.cancel();
                if (reply.text.empty() || reply.text == "X") {
                    noMore = true;
                    local.close();
                } else {
                    std::istringstream lines(reply.text);
                    for (std::string line; std::getline(lines, line);) {
                        std::istringstream numbers(line);
                        se::PointChunk chunk;
                        for (std::int64_t i = 0; numbers >> i;) chunk.push_back(i);
                        local.push(std::move(chunk));
                    }
                }
            }
            if (idle) pause();
        }
        compute.join();
        sendText("F " + std::string(control.cancelled() ? "1" : "0") + "\n" + outbox.take(), 0,
                 kTagFinal);
        return results;
    }

    // Rank 0: its own pool and the other ranks draw from the same queue.
    se::ProgressMeter meter(&control, work.queuedPoints());
    std::mutex callbackMutex;
    auto deliver = [&](const se::EvaluatedPoint& p) {
        std::lock_guard lock(callbackMutex);
        if (onPoint) onPoint(p);
    };
    std::thread compute([&] {
        results = run.explore(&control, deliver, &work, std::move(done), &meter);
        finished = true;
    });
    std::vector<se::EvaluatedPoint> remote;
    bool remoteCancelled = false;
    int finals = 0;
    std::vector<char> reported(std::size_t(size_), 0);  // final message received, by rank
    // Once interrupted, a rank that is alive sends its final message within milliseconds of its
    // evaluations stopping; one that mpirun or the system killed never will. Rank 0 waits for
    // them only this long after its own exploration ended, then writes what it has: mpirun
    // sends SIGKILL one second after SIGTERM unless odls_base_sigkill_timeout says otherwise.
    constexpr auto kFinalGrace = std::chrono::milliseconds(300);
    std::optional<std::chrono::steady_clock::time_point> stoppedAt;
    Message message;
    while (finals < size_ - 1 || !finished) {
        if (!poll(MPI_ANY_SOURCE, MPI_ANY_TAG, message)) {
            if (finished && control.cancelled()) {
                const auto now = std::chrono::steady_clock::now();
                if (!stoppedAt) stoppedAt = now;
                if (now - *stoppedAt > kFinalGrace) break;
            }
            pause();
            continue;
        }
        std::istringstream lines(message.text);
        std::string head;
        std::getline(lines, head);
        std::int64_t received = 0;
        for (std::string line; std::getline(lines, line);) {
            auto point = se::decodePointRecord(line, run.grid());
            if (!point) {  // agree() checked that every rank runs the same version and search
                std::fprintf(stderr, "tandem-cli search: rank %d sent a damaged point: %s\n",
                             message.source, point.message().c_str());
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            deliver(*point);
            remote.push_back(std::move(*point));
            ++received;
        }
        meter.add(received);
        if (message.tag == kTagRequest) {
            const int wanted = head.size() > 2 ? std::max(1, std::atoi(head.c_str() + 2)) : 1;
            sendText(control.cancelled() ? "X" : chunksText(work, wanted), message.source,
                     kTagWork);
        } else if (message.tag == kTagFinal) {
            ++finals;
            reported[std::size_t(message.source)] = 1;
            if (head == "F 1") {
                remoteCancelled = true;
                control.cancel();
            }
        }
    }
    compute.join();
    std::string silent;
    for (int r = 1; r < size_; ++r)
        if (!reported[std::size_t(r)]) silent += (silent.empty() ? "" : ", ") + std::to_string(r);
    if (!silent.empty())
        std::fprintf(stderr,
                     "tandem-cli search: MPI rank(s) %s did not report after the interrupt (ended "
                     "or killed): the points they had not yet sent are missing from the results; "
                     "with --checkpoint, the same command again resumes the search\n",
                     silent.c_str());
    se::SearchStatistics statistics = results.statistics();
    statistics.cancelled = statistics.cancelled || remoteCancelled || !silent.empty();
    std::vector<se::EvaluatedPoint> points = std::move(results).takePoints();
    points.insert(points.end(), std::make_move_iterator(remote.begin()),
                  std::make_move_iterator(remote.end()));
    if (!statistics.cancelled && meter.snapshot().done < meter.snapshot().total) meter.finish();
    return se::SearchResults(std::move(points), std::move(statistics));
}

}  // namespace tandem::cli
