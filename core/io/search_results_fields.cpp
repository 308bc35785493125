#include "core/io/search_results_fields.h"

#include <climits>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/common/json_document.h"
#include "core/hardware/parameter_registry.h"
#include "core/placement/cost_model.h"
#include "core/search/search_space.h"

namespace tandem::core::io::results_json {
namespace {

using nlohmann::json;

// Counts a double must hold exactly (microbatches, devices: far below this in any real plan).
constexpr std::int64_t kMaxExactCount = std::int64_t(1) << 53;

[[noreturn]] void fail(const std::string& where, const std::string& problem) {
    throw ReadError(where + ": " + problem);
}

std::string expected(const char* what, const json& value) {
    return std::string("expected ") + what + ", found " + jsonShown(value);
}

std::string rangeText(std::int64_t min, std::int64_t max) {
    if (max < min) return "there is nothing to refer to";  // a position in an empty list
    if (max == kMaxInteger) return "must be ≥ " + std::to_string(min);
    return "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

// A searched accelerator field of `object`, checked against the parameter registry's range. An
// optional field the point leaves out (it has the base's value) reads as NaN, for the caller to
// fill from "base_hardware".
void readChipField(const json& object, const search::SearchedField& f, const std::string& where,
                   hardware::AcceleratorConfig& accelerator) {
    const auto* parameter = &search::parameterOf(f);
    if (f.optional) {
        const bool given = object.contains(f.key);
        const double value =
            given ? number(object, f.key, where) : std::numeric_limits<double>::quiet_NaN();
        if (given)
            if (Status s = parameter->spec.check(value, where); !s.ok())
                throw ReadError(s.message());
        parameter->set(accelerator, value);
        return;
    }
    const std::int64_t value = integer(object, f.key, where);
    if (Status s = parameter->spec.check(double(value), where); !s.ok())
        throw ReadError(s.message());
    parameter->set(accelerator, double(value));
}

hardware::Recompute recomputeOf(const json& object, const std::string& where) {
    const std::string text = string(object, "recompute", where);
    hardware::Recompute out = hardware::Recompute::Off;
    if (!hardware::parseRecompute(text, out))
        fail(where + ".recompute", jsonShown(object.at("recompute")) +
                                       " is not a recompute setting: must be one of " +
                                       "off, on, auto, selective");
    return out;
}

search::PointStatus statusOf(const json& object, const std::string& where) {
    const std::string text = string(object, "status", where);
    for (auto s : {search::PointStatus::Feasible, search::PointStatus::Infeasible,
                   search::PointStatus::Error, search::PointStatus::Cancelled})
        if (search::toString(s) == text) return s;
    fail(where + ".status", jsonShown(object.at("status")) +
                                " is not a point status: must be one of feasible, infeasible, "
                                "error, cancelled");
}

placement::MemoryBreakdown memoryOf(const json& stage, const std::string& where) {
    const json& m = member(stage, "memory", where);
    const std::string w = where + ".memory";
    requireObject(m, w);
    placement::MemoryBreakdown out;
    out.weightsBytes = number(m, "weights", w);
    out.gradientsBytes = number(m, "gradients", w);
    out.optimizerBytes = number(m, "optimizer", w);
    out.activationsBytes = number(m, "activations", w);
    out.stashBytes = number(m, "stash", w);
    // Files written before it was recorded: unknown (what another schedule holds is not shown).
    out.stashBytesPerMicrobatch =
        m.contains("stash_per_microbatch") ? number(m, "stash_per_microbatch", w) : -1;
    out.totalBytes = number(m, "total", w);
    out.capacityBytes = number(m, "capacity", w);
    out.freeBytes = out.capacityBytes - out.totalBytes;
    return out;
}

placement::TimeBreakdown breakdownOf(const json& plan, const std::string& where) {
    const json& b = member(plan, "breakdown", where);
    const std::string w = where + ".breakdown";
    requireObject(b, w);
    placement::TimeBreakdown out;
    out.computeSeconds = number(b, "compute_s", w);
    out.recomputeSeconds = number(b, "recompute_s", w);
    out.tensorParallelCommSeconds = number(b, "tensor_parallel_comm_s", w);
    out.pipelineP2pSeconds = number(b, "pipeline_p2p_s", w);
    out.pipelineBubbleSeconds = number(b, "pipeline_bubble_s", w);
    out.dataParallelSyncSeconds = number(b, "data_parallel_sync_s", w);
    out.optimizerSeconds = number(b, "optimizer_s", w);
    // Newer files: what overlap hid (0 in files written before overlap was scheduled).
    if (b.contains("tensor_parallel_comm_hidden_s"))
        out.tensorParallelCommHiddenSeconds = number(b, "tensor_parallel_comm_hidden_s", w);
    if (b.contains("data_parallel_hidden_s"))
        out.dataParallelHiddenSeconds = number(b, "data_parallel_hidden_s", w);
    if (b.contains("pipeline_p2p_hidden_s"))
        out.pipelineP2pHiddenSeconds = number(b, "pipeline_p2p_hidden_s", w);
    return out;
}

placement::StagePlan stageOf(const json& stage, const std::string& where, LayerNames& layers) {
    requireObject(stage, where);
    placement::StagePlan out;
    const json& list = member(stage, "layers", where);
    requireArray(list, where + ".layers");
    out.layers.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        out.layers.push_back(layers.indexOf(list[i], where + ".layers[" + std::to_string(i) + "]"));
    out.devices = integer(stage, "devices", where, 0, kMaxExactCount);
    out.forwardSeconds = number(stage, "forward_s", where);
    out.backwardSeconds = number(stage, "backward_s", where);
    out.loadSeconds = out.forwardSeconds + out.backwardSeconds;
    out.recompute = boolean(stage, "recompute", where);
    out.selectiveRecompute = boolean(stage, "selective_recompute", where);
    out.inFlightMicrobatches = integer(stage, "in_flight_microbatches", where, 0);
    out.memory = memoryOf(stage, where);
    return out;
}

}  // namespace

const json& member(const json& object, std::string_view key, const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end()) fail(where + "." + std::string(key), "missing");
    return *it;
}

void requireObject(const json& value, const std::string& where) {
    if (!value.is_object()) fail(where, expected("an object", value));
}

void requireArray(const json& value, const std::string& where) {
    if (!value.is_array()) fail(where, expected("an array", value));
}

std::int64_t integerValue(const json& value, const std::string& where, std::int64_t min,
                          std::int64_t max) {
    std::int64_t v = 0;
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (u > std::uint64_t(kMaxInteger))
            fail(where, std::to_string(u) + " is out of range: " + rangeText(min, max));
        v = std::int64_t(u);
    } else if (value.is_number_integer()) {
        v = value.get<std::int64_t>();
    } else if (value.is_number_float()) {
        // An integral number written with a fraction or exponent (3.4359738368e10).
        const double d = value.get<double>();
        if (std::trunc(d) != d) fail(where, expected("an integer", value));
        if (!(d >= -9.2233720368547758e18 && d < 9.2233720368547758e18))
            fail(where, jsonExcerpt(value) + " is out of range: " + rangeText(min, max));
        v = std::int64_t(d);
    } else {
        fail(where, expected("an integer", value));
    }
    if (v < min || v > max)
        fail(where, std::to_string(v) + " is out of range: " + rangeText(min, max));
    return v;
}

double numberValue(const json& value, const std::string& where, double min) {
    if (!value.is_number()) fail(where, expected("a number", value));
    const double v = value.get<double>();
    if (!std::isfinite(v)) fail(where, expected("a finite number", value));
    if (v < min)
        fail(where, hardware::formatNumber(v) + " is out of range: must be ≥ " +
                        hardware::formatNumber(min));
    return v;
}

bool booleanValue(const json& value, const std::string& where) {
    if (!value.is_boolean()) fail(where, expected("true or false", value));
    return value.get<bool>();
}

std::string stringValue(const json& value, const std::string& where) {
    if (!value.is_string()) fail(where, expected("a string", value));
    return value.get<std::string>();
}

// The member readers take the common case — a value of the right type in range — without
// building the place's text, which only an error needs (a file has ~20 values per point).
std::int64_t integer(const json& object, std::string_view key, const std::string& where,
                     std::int64_t min, std::int64_t max) {
    const json& value = member(object, key, where);
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (u <= std::uint64_t(kMaxInteger) && std::int64_t(u) >= min && std::int64_t(u) <= max)
            return std::int64_t(u);
    } else if (value.is_number_integer()) {
        const auto v = value.get<std::int64_t>();
        if (v >= min && v <= max) return v;
    }
    return integerValue(value, where + "." + std::string(key), min, max);
}

double number(const json& object, std::string_view key, const std::string& where, double min) {
    const json& value = member(object, key, where);
    if (value.is_number()) {
        const double v = value.get<double>();
        if (std::isfinite(v) && v >= min) return v;
    }
    return numberValue(value, where + "." + std::string(key), min);
}

bool boolean(const json& object, std::string_view key, const std::string& where) {
    const json& value = member(object, key, where);
    if (value.is_boolean()) return value.get<bool>();
    return booleanValue(value, where + "." + std::string(key));
}

std::string string(const json& object, std::string_view key, const std::string& where) {
    const json& value = member(object, key, where);
    if (value.is_string()) return value.get<std::string>();
    return stringValue(value, where + "." + std::string(key));
}

int LayerNames::indexOf(const json& entry, const std::string& where) {
    if (entry.is_string()) {
        const std::string& name = entry.get_ref<const std::string&>();
        if (const auto it = index_.find(name); it != index_.end()) return it->second;
        if (names_.size() >= std::size_t(INT_MAX)) fail(where, "too many layer names");
        const int index = int(names_.size());
        names_.push_back(name);
        index_.emplace(name, index);
        return index;
    }
    if (!entry.is_number()) fail(where, expected("a layer name or index", entry));
    return int(integerValue(entry, where, 0, INT_MAX));
}

search::SearchPoint searchPointFromJson(const json& object, const std::string& where) {
    requireObject(object, where);
    search::SearchPoint p;
    const json& chip = member(object, "hardware", where);
    const std::string chipWhere = where + ".hardware";
    requireObject(chip, chipWhere);
    for (const search::SearchedField& f : search::kSearchedFields)
        readChipField(chip, f, chipWhere, p.accelerator);
    p.areaSquareMillimetres = number(object, "area_mm2", where, 0);
    p.microbatchSize = integer(object, "microbatch", where, 1);
    p.recompute = recomputeOf(object, where);
    const auto* hbm = hardware::acceleratorParameters().find("hbmCapacityBytes");
    const std::int64_t bytes = integer(object, "hbm_bytes", where);
    if (Status s = hbm->spec.check(double(bytes), {}); !s.ok())
        fail(where + ".hbm_bytes", s.message());
    p.accelerator.hbmCapacityBytes = bytes;
    p.index = object.contains("index") ? integer(object, "index", where, 0) : -1;
    p.chipIndex = object.contains("chip_index") ? integer(object, "chip_index", where, 0) : -1;
    return p;
}

search::EvaluatedPoint evaluatedPointFromJson(const json& object, const std::string& where) {
    search::EvaluatedPoint e;
    e.point = searchPointFromJson(object, where);
    e.status = statusOf(object, where);
    e.objective = object.contains("objective") ? number(object, "objective", where, 0)
                                               : std::numeric_limits<double>::quiet_NaN();
    if (const auto it = object.find("model_throughputs_samples_per_s"); it != object.end()) {
        const std::string w = where + ".model_throughputs_samples_per_s";
        requireArray(*it, w);
        e.modelThroughputsSamplesPerSecond.reserve(it->size());
        for (std::size_t i = 0; i < it->size(); ++i)
            e.modelThroughputsSamplesPerSecond.push_back(
                numberValue((*it)[i], w + "[" + std::to_string(i) + "]", 0));
    }
    e.throughputSamplesPerSecond = number(object, "throughput_samples_per_s", where, 0);
    e.baselineThroughputSamplesPerSecond =
        number(object, "fixed_throughput_samples_per_s", where, 0);
    const json& shape = member(object, "plan", where);
    if (!shape.is_null()) {
        const std::string w = where + ".plan";
        if (!shape.is_object()) fail(w, expected("an object or null", shape));
        e.planShape.tensorParallel = integer(shape, "tensor_parallel", w, 1);
        e.planShape.dataParallel = integer(shape, "data_parallel", w, 1);
        e.planShape.stages = int(integer(shape, "stages", w, 1, INT_MAX));
        e.planShape.timePerBatchSeconds = number(shape, "time_per_batch_s", w, 0);
        // Results written before the search chose V and ZeRO carry neither: a plain plan.
        if (shape.contains("interleave"))
            e.planShape.interleave = integer(shape, "interleave", w, 1, INT_MAX);
        if (shape.contains("zero")) e.planShape.zero = integer(shape, "zero", w, 0, 3);
        if (shape.contains("sequence_parallel"))
            e.planShape.sequenceParallel = boolean(shape, "sequence_parallel", w);
        // Results written before energy was modelled carry none of these: zeros.
        if (shape.contains("devices_used"))
            e.planShape.devicesUsed = integer(shape, "devices_used", w, 1);
        if (object.contains("energy_j_per_iteration"))
            e.planShape.joulesPerIteration = number(object, "energy_j_per_iteration", where, 0);
        if (object.contains("average_power_w"))
            e.planShape.averagePowerWatts = number(object, "average_power_w", where, 0);
    }
    return e;
}

std::shared_ptr<const placement::Plan> planFromJson(const json& value, const std::string& where,
                                                    LayerNames& layers) {
    if (value.is_null()) return nullptr;
    requireObject(value, where);
    if (value.contains("fits") && !boolean(value, "fits", where))
        fail(where + ".fits", "a plan in search results always fits");
    placement::Plan plan;
    if (value.contains("cost_model")) {  // newer files; older ones: native, the default
        const std::string kind = string(value, "cost_model", where);
        if (!placement::parseCostModel(kind, plan.costModel))
            fail(where + ".cost_model",
                 "'" + kind + "' is not a cost model (native, phaze-compat)");
    }
    plan.throughputSamplesPerSecond = number(value, "throughput_samples_per_s", where, 0);
    plan.timePerBatchSeconds = number(value, "time_per_batch_s", where, 0);
    plan.tensorParallel = integer(value, "tensor_parallel", where, 1, kMaxExactCount);
    plan.dataParallel = integer(value, "data_parallel", where, 1, kMaxExactCount);
    plan.microbatchSize = integer(value, "microbatch", where, 1);
    if (value.contains("global_batch"))  // newer files
        plan.globalBatch = integer(value, "global_batch", where, 0, kMaxExactCount);
    plan.microbatchesPerPipeline =
        integer(value, "microbatches_per_pipeline", where, 0, kMaxExactCount);
    plan.recompute = recomputeOf(value, where);
    plan.sequenceParallel = boolean(value, "sequence_parallel", where);
    plan.interleave = integer(value, "interleave", where, 1, kMaxExactCount);
    plan.zero = value.contains("zero") ? integer(value, "zero", where, 0, 3) : 0;  // newer files
    plan.bubbleFraction = number(value, "bubble_fraction", where);
    plan.maxStageLoadSeconds = number(value, "max_stage_load_s", where);
    plan.syncSeconds = number(value, "sync_s", where);
    plan.optimizerSeconds = number(value, "optimizer_step_s", where);
    plan.devicesUsed = integer(value, "devices_used", where, 0);
    plan.breakdown = breakdownOf(value, where);
    plan.modelFlopsPerIteration = number(value, "model_flops_per_iteration", where);
    plan.mfu = number(value, "mfu", where);
    if (value.contains("gemm_rate_over_peak"))  // newer files; older ones: 1
        plan.gemmRateOverPeak = number(value, "gemm_rate_over_peak", where, 0);

    const json& stages = member(value, "stages", where);
    requireArray(stages, where + ".stages");
    const std::int64_t count = integer(value, "pipeline_stages", where, 0, INT_MAX);
    if (std::size_t(count) != stages.size())
        fail(where + ".pipeline_stages", std::to_string(count) + " does not match the " +
                                             std::to_string(stages.size()) + " stages listed");
    for (std::size_t k = 0; k < stages.size(); ++k) {
        placement::StagePlan stage =
            stageOf(stages[k], where + ".stages[" + std::to_string(k) + "]", layers);
        stage.position = int(count - std::int64_t(k));
        if (stage.devices > kMaxExactCount - plan.devicesPerPipeline)
            fail(where + ".stages", "the stages' devices add up to more than 2^53");
        plan.devicesPerPipeline += stage.devices;
        plan.stages.push_back(std::move(stage));
    }
    plan.pipelineSeconds = placement::CostModel::pipelineSeconds(
        plan.costModel, plan.maxStageLoadSeconds, placement::stageLoadSum(plan.stages),
        plan.microbatchesPerPipeline, count, plan.interleave);
    return std::make_shared<const placement::Plan>(std::move(plan));
}

std::array<search::BaselineOutcome*, search::kBaselineCount> outcomesOf(
    search::SearchBaselines& b) {
    return {&b.referenceFixed, &b.referencePlaced, &b.searchedFixed,    &b.joint,
            &b.placementOnly,  &b.chipOnly,        &b.chipAndPlacement, &b.sameHbm};
}

search::SearchBaselines baselinesFromJson(const json& object, const std::string& where,
                                          LayerNames& layers) {
    requireObject(object, where);
    search::SearchBaselines b;
    const auto outcomes = outcomesOf(b);
    for (int i = 0; i < search::kBaselineCount; ++i) {
        const std::string key(search::baselineKey(i));
        const std::string w = where + "." + key;
        const json& entry = member(object, key, where);
        requireObject(entry, w);
        search::BaselineOutcome& o = *outcomes[std::size_t(i)];
        o.available = boolean(entry, "available", w);
        o.throughputSamplesPerSecond = number(entry, "throughput_samples_per_s", w, 0);
        if (entry.contains("joint_factor")) number(entry, "joint_factor", w, 0);  // derived
        if (entry.contains("message") || !o.available) o.message = string(entry, "message", w);
        if (!o.available) continue;
        o.point = searchPointFromJson(member(entry, "point", w), w + ".point");
        if (const auto it = entry.find("plan"); it != entry.end())
            o.plan = planFromJson(*it, w + ".plan", layers);
    }
    return b;
}

}  // namespace tandem::core::io::results_json
