#include "core/io/estimate_json.h"

#include <nlohmann/json.hpp>
#include "core/common/json_document.h"

namespace tandem::core::io {

namespace {
nlohmann::json latencies(const estimate::OperatorCost& cost) {
    return {{"one_core_s", cost.oneCoreSeconds}, {"all_cores_s", cost.allCoresSeconds}};
}
}  // namespace

std::string estimateToJson(const model::ModelGraph& graph, const hardware::HardwarePoint& hardware,
                           const estimate::ModelEstimate& estimate, int indent) {
    nlohmann::ordered_json layers = nlohmann::ordered_json::array();
    for (const estimate::LayerEstimate& layer : estimate.layers) {
        nlohmann::ordered_json ops = nlohmann::ordered_json::array();
        for (const estimate::OperatorEstimate& entry : layer.operators) {
            ops.push_back({{"name", entry.op->name},
                           {"class", std::string(model::toString(entry.op->opClass))},
                           {"kind", entry.op->kind},
                           {"flops", entry.forward.flops},
                           {"bytes", entry.forward.bytes},
                           {"forward", latencies(entry.forward)},
                           {"backward", latencies(entry.backward)}});
        }
        layers.push_back({{"name", layer.name}, {"operators", std::move(ops)}});
    }
    const auto& o = graph.options();
    const auto& t = estimate.totals;
    nlohmann::ordered_json root = {
        {"model", graph.name()},
        {"hardware", hardware.name},
        {"build",
         {{"microbatch", o.microbatch},
          {"sequence_length", o.sequenceLength},
          {"tensor_parallel", o.tensorParallel},
          {"bytes_per_element", o.bytesPerElement}}},
        {"layers", std::move(layers)},
        {"totals",
         {{"forward_flops", t.forwardFlops},
          {"backward_flops", t.backwardFlops},
          {"gemm_forward_flops", t.gemmForwardFlops},
          {"gemm_backward_flops", t.gemmBackwardFlops},
          {"parameters", t.parametersPerDevice},
          {"model_parameters", t.parameters}}},
    };
    return jsonText(root, indent);
}

}  // namespace tandem::core::io
