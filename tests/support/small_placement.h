#pragma once
// The small set-up the analysis tests place again and again (sensitivity, scaling, the report):
// GPT-2 XL on 32 TPUv4-like chips, 8 per node, a global batch of 256 — milliseconds per
// placement, yet with pipeline, tensor and data parallelism to choose from.
#include <QtGlobal>

#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "tests/support/test_presets.h"

namespace tandem::test {

inline core::placement::ModelPlacementRequest gpt2XlOn32Tpuv4() {
    core::placement::ModelPlacementRequest r;
    auto model = core::model::zooModel("gpt2-xl");
    if (!model) qFatal("%s", model.message().c_str());
    r.model = *model;
    r.hardware = presetOrDie("tpuv4-like");
    r.hardware.cluster.devices = 32;
    r.hardware.cluster.devicesPerNode = 8;
    r.training.globalBatch = 256;
    return r;
}

}  // namespace tandem::test
