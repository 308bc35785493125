// What the split-search path adds per point (docs/ARCHITECTURE.md §4.6), measured on real GPT-3
// points of the example project's space: encoding a point record (each rank, for each point it
// sends or checkpoints), decoding it (rank 0, for every point of every other rank — the work
// that bounds how many ranks one rank 0 can serve), the record's size (MPI traffic and
// checkpoint size per point) and the results-JSON bytes per point. The baseline is the cost of
// evaluating the same points in the same run, so the overhead prints as a fraction of it.
//
// Usage: bench_point_records [--points N] (default 2,000 evaluated points, each encoded and
// decoded 100 times)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/io/search_results_json.h"
#include "core/model/model_zoo.h"
#include "core/search/chunk_queue.h"
#include "core/search/point_record.h"
#include "core/search/search_run.h"

using namespace tandem::core;
using namespace tandem::core::search;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t count = 2000;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--points") && i + 1 < argc) {
            count = std::max<std::int64_t>(1, std::atoll(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: bench_point_records [--points N]\n");
            return 2;
        }
    }
    SearchRequest request;
    request.models = {*model::zooModel("gpt3-175b")};
    request.threads = 1;  // the baseline: one thread's cost per point
    auto run = SearchRun::prepare(request);
    if (!run) {
        std::fprintf(stderr, "%s\n", run.message().c_str());
        return 1;
    }
    const SearchGrid& grid = (*run)->grid();
    ChunkQueue work;
    const std::int64_t stride = std::max<std::int64_t>(1, grid.pointCount() / count);
    work.fill(grid, [&](std::int64_t i) { return i % stride == 0; });
    const auto evalStart = Clock::now();
    const SearchResults results = (*run)->explore(nullptr, {}, &work);
    const double evalSeconds = secondsSince(evalStart);
    const std::vector<EvaluatedPoint>& points = results.points();
    const double perPointEval = evalSeconds / double(points.size());

    constexpr int kRepeats = 100;
    std::vector<std::string> records(points.size());
    const auto encodeStart = Clock::now();
    for (int r = 0; r < kRepeats; ++r)
        for (std::size_t i = 0; i < points.size(); ++i) records[i] = encodePointRecord(points[i]);
    const double encode = secondsSince(encodeStart) / double(kRepeats * points.size());
    std::size_t bytes = 0, bad = 0;
    const auto decodeStart = Clock::now();
    for (int r = 0; r < kRepeats; ++r)
        for (const std::string& record : records) bad += !decodePointRecord(record, grid).ok();
    const double decode = secondsSince(decodeStart) / double(kRepeats * points.size());
    for (const std::string& record : records) bytes += record.size() + 1;
    const std::string json = io::searchReportToJson(io::makeSearchReport(
        (*run)->report(std::make_shared<const SearchResults>(results)), request.space.base));

    std::printf("GPT-3 on the PHAZE space: %zu points evaluated on 1 thread, %.3f ms per point\n",
                points.size(), perPointEval * 1e3);
    std::printf("point record: encode %.2f µs, decode %.2f µs (%zu failed), %.0f bytes\n",
                encode * 1e6, decode * 1e6, bad, double(bytes) / double(points.size()));
    std::printf("overhead per point of the MPI path: %.2f %% of an evaluation (encode + decode)\n",
                100 * (encode + decode) / perPointEval);
    std::printf("rank 0 decodes %.0f points/s: it keeps up with %.0f evaluating cores\n",
                1 / decode, (1 / decode) / (1 / perPointEval));
    std::printf("results JSON: %.0f bytes per point (whole file %zu bytes)\n",
                double(json.size()) / double(points.size()), json.size());
    return bad == 0 ? 0 : 1;
}
