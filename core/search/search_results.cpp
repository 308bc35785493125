#include "core/search/search_results.h"

#include <algorithm>
#include <utility>

#include "core/common/text_file.h"
#include "core/hardware/parameter_spec.h"
#include "core/search/pareto.h"

namespace tandem::core::search {

namespace {

constexpr const char* kColumns[] = {"point_index",
                                    "chip_index",
                                    "num_tensor_cores",
                                    "tensor_core_rows",
                                    "tensor_core_cols",
                                    "num_vector_cores",
                                    "vector_core_lanes",
                                    "global_buffer_bytes",
                                    "hbm_bytes",
                                    "hbm_bandwidth_bytes_per_s",
                                    "clock_hz",
                                    "bytes_per_element",
                                    "peak_flops_per_s",
                                    "area_mm2",
                                    "microbatch_size",
                                    "recompute",
                                    "status",
                                    "throughput_samples_per_s",
                                    "objective",
                                    "tensor_parallel",
                                    "data_parallel",
                                    "pipeline_stages",
                                    "interleave",
                                    "zero",
                                    "sequence_parallel",
                                    "time_per_batch_s",
                                    "devices_used",
                                    "energy_j_per_iteration",
                                    "average_power_w",
                                    "baseline_throughput_samples_per_s",
                                    "pareto_area",
                                    "pareto_hbm",
                                    "best",
                                    "schedules",
                                    "schedules_optimal",
                                    "schedules_feasible",
                                    "schedules_timed_out",
                                    "schedules_cancelled",
                                    "schedule_max_gap",
                                    "estimate_s",
                                    "schedule_s",
                                    "placement_s",
                                    "evaluation_s",
                                    "message"};

// RFC 4180: quote when needed, double the quotes inside.
std::string csvText(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

// Shortest text that reads back to the same double.
std::string number(double value) {
    return hardware::formatNumber(value);
}

}  // namespace

SearchResults::SearchResults(std::vector<EvaluatedPoint> points, SearchStatistics statistics)
    : points_(std::move(points)), statistics_(std::move(statistics)) {
    std::sort(points_.begin(), points_.end(), [](const EvaluatedPoint& a, const EvaluatedPoint& b) {
        return a.point.index < b.point.index;
    });
    statistics_.evaluated = std::int64_t(points_.size());

    std::vector<std::size_t> feasible;
    std::vector<ParetoCandidate> byArea, byHbm;
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const EvaluatedPoint& p = points_[i];
        if (!p.feasible()) continue;
        feasible.push_back(i);
        byArea.push_back({p.point.areaSquareMillimetres, p.objective});
        byHbm.push_back({double(p.point.hbmCapacityBytes()), p.objective});
        // Strictly greater: the first (lowest index) of equal objectives stays best.
        if (!best_ || p.objective > points_[*best_].objective) best_ = i;
    }
    for (std::size_t k : paretoFront(byArea)) paretoByArea_.push_back(feasible[k]);
    for (std::size_t k : paretoFront(byHbm)) paretoByHbm_.push_back(feasible[k]);
}

std::string SearchResults::toCsv() const {
    std::vector<char> onArea(points_.size(), 0), onHbm(points_.size(), 0);
    for (std::size_t i : paretoByArea_) onArea[i] = 1;
    for (std::size_t i : paretoByHbm_) onHbm[i] = 1;
    std::string csv;
    for (const char* column : kColumns) {
        if (!csv.empty()) csv += ',';
        csv += column;
    }
    csv += '\n';
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const EvaluatedPoint& e = points_[i];
        const SearchPoint& p = e.point;
        const hardware::AcceleratorConfig& a = p.accelerator;
        const PlanShape& shape = e.planShape;
        const bool planned = shape.tensorParallel > 0;
        const auto planField = [&](auto value) { return planned ? std::to_string(value) : ""; };
        const std::string fields[] = {
            std::to_string(p.index),
            std::to_string(p.chipIndex),
            std::to_string(a.numTensorCores),
            std::to_string(a.tensorCoreRows),
            std::to_string(a.tensorCoreCols),
            std::to_string(a.numVectorCores),
            std::to_string(a.vectorCoreLanes),
            std::to_string(a.globalBufferBytes),
            std::to_string(a.hbmCapacityBytes),
            number(a.hbmBandwidthBytesPerSecond),
            number(a.clockHz),
            std::to_string(a.bytesPerElement),
            number(a.peakFlopsPerSecond()),
            number(p.areaSquareMillimetres),
            std::to_string(p.microbatchSize),
            std::string(hardware::toString(p.recompute)),
            std::string(toString(e.status)),
            number(e.throughputSamplesPerSecond),
            number(e.objective),
            planField(shape.tensorParallel),
            planField(shape.dataParallel),
            planField(shape.stages),
            planField(shape.interleave),
            planField(shape.zero),
            planField(int(shape.sequenceParallel)),
            planned ? number(shape.timePerBatchSeconds) : "",
            shape.devicesUsed > 0 ? planField(shape.devicesUsed) : "",
            shape.joulesPerIteration > 0 ? number(shape.joulesPerIteration) : "",
            shape.joulesPerIteration > 0 ? number(shape.averagePowerWatts) : "",
            e.baselineThroughputSamplesPerSecond > 0 ? number(e.baselineThroughputSamplesPerSecond)
                                                     : "",
            onArea[i] ? "1" : "0",
            onHbm[i] ? "1" : "0",
            best_ && *best_ == i ? "1" : "0",
            std::to_string(e.schedules.schedules),
            std::to_string(e.schedules.optimal),
            std::to_string(e.schedules.feasible),
            std::to_string(e.schedules.timedOut),
            std::to_string(e.schedules.cancelled),
            number(e.schedules.maxGap),
            number(e.seconds.estimate),
            number(e.seconds.schedule),
            number(e.seconds.placement),
            number(e.seconds.total),
            csvText(e.message)};
        static_assert(sizeof fields / sizeof fields[0] == std::size(kColumns));
        for (std::size_t f = 0; f < std::size(kColumns); ++f) {
            if (f > 0) csv += ',';
            csv += fields[f];
        }
        csv += '\n';
    }
    return csv;
}

Status SearchResults::saveCsv(const std::filesystem::path& path) const {
    return writeFileAtomically(path, toCsv());
}

}  // namespace tandem::core::search
