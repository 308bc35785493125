#include "core/io/validation_json.h"

#include <nlohmann/json.hpp>
#include <optional>
#include "core/common/json_document.h"

namespace tandem::core::io {

namespace {

using Json = nlohmann::ordered_json;

template <class T>
Json orNull(const std::optional<T>& value) {
    return value ? Json(*value) : Json(nullptr);
}

Json summaryJson(const validation::ValidationSummary& s) {
    Json groups = Json::array();
    for (const validation::ValidationGroup& g : s.groups)
        groups.push_back({{"hidden", g.hidden},
                          {"heads", g.heads},
                          {"layers", g.layers},
                          {"sequence", g.sequence},
                          {"gpus", g.gpus},
                          {"runs", g.runs.size()},
                          {"spearman", orNull(g.spearman)},
                          {"regret", g.regret},
                          {"pick", g.pick},
                          {"best", g.best}});
    const auto& e = s.errors;
    return {{"runs", s.runs},
            {"fitting", s.fitting},
            {"mean_abs_error", e ? Json(e->meanAbsError) : Json(nullptr)},
            {"median_abs_error", e ? Json(e->medianAbsError) : Json(nullptr)},
            {"worst_abs_error", e ? Json(e->worstAbsError) : Json(nullptr)},
            {"worst_run", e ? Json(e->worstRun) : Json(nullptr)},
            {"mean_error", e ? Json(e->meanError) : Json(nullptr)},
            {"groups", std::move(groups)},
            {"mean_spearman", orNull(s.meanSpearman)},
            {"mean_regret", orNull(s.meanRegret)},
            {"worst_regret", orNull(s.worstRegret)}};
}

Json runJson(const validation::MeasuredRun& r, const validation::RunPrediction& p, bool tflops) {
    Json j = {{"name", r.name},
              {"hidden", r.model.hidden},
              {"heads", r.model.heads},
              {"layers", r.model.layers},
              {"sequence", r.model.sequence},
              {"vocab", r.model.vocab},
              {"padded_vocab", validation::paddedVocab(r.model, r.tensor)},
              {"gpus", r.gpus},
              {"tensor", r.tensor},
              {"pipeline", r.pipeline},
              {"data", r.data},
              {"global_batch", r.globalBatch},
              {"microbatch_given", r.microbatch > 0},
              {"recompute", std::string(hardware::toString(r.recompute))},
              {"sequence_parallel", r.sequenceParallel},
              {"interleave", r.interleave},
              {"zero", r.zero},
              {"flash_attention", r.flashAttention},
              {"optimizer", std::string(hardware::toString(r.optimizer))},
              {"bytes_per_element", r.bytesPerElement},
              {"fits", p.fits}};
    if (p.fits) {
        j["microbatch"] = p.microbatch;
        j["predicted_s"] = p.predictedSeconds;
        j["measured_s"] = r.measuredSeconds;
        j["error"] = p.error;
    } else {
        if (r.microbatch > 0) j["microbatch"] = r.microbatch;
        j["measured_s"] = r.measuredSeconds;
        j["reason"] = p.reason;
    }
    if (tflops) {
        if (p.fits) j["predicted_tflops_per_gpu"] = p.predictedTflopsPerGpu;
        j["measured_tflops_per_gpu"] = r.measuredTflopsPerGpu;
    }
    return j;
}

}  // namespace

std::string validationToJson(std::span<const validation::ValidationReport> reports, int indent) {
    Json sets = Json::array();
    for (const validation::ValidationReport& report : reports) {
        const validation::MeasuredRunSet& set = report.set;
        Json runs = Json::array();
        for (std::size_t i = 0; i < set.runs.size() && i < report.predictions.size(); ++i)
            runs.push_back(runJson(set.runs[i], report.predictions[i], set.tflopsPublished));
        sets.push_back({{"name", set.name},
                        {"source", set.source},
                        {"licence", set.licence},
                        {"hardware", report.hardware},
                        {"tflops_published", set.tflopsPublished},
                        {"summary", summaryJson(report.summary)},
                        {"runs", std::move(runs)}});
    }
    // Names come from user files: invalid UTF-8 is replaced, never thrown.
    return jsonText(Json{{"sets", std::move(sets)}}, indent);
}

}  // namespace tandem::core::io
