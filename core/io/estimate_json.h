#pragma once
// The JSON form of an estimate, as `tandem-cli estimate --json` prints it (keys also in README):
// {model, hardware, build, layers: [{name, operators: [{name, class, kind, flops, bytes,
//  forward: {one_core_s, all_cores_s}, backward: {one_core_s, all_cores_s}}]}], totals}.
// Everything is per device (one tensor-parallel shard) for one microbatch.
#include <string>

#include "core/estimate/model_estimate.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_graph.h"

namespace tandem::core::io {

std::string estimateToJson(const model::ModelGraph& graph, const hardware::HardwarePoint& hardware,
                           const estimate::ModelEstimate& estimate, int indent = 2);

}  // namespace tandem::core::io
