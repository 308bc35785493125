#pragma once
// The placement request the strategy tests share: a GPT of hidden 1,024 and 8 layers on one
// 8-GPU A100 node (a100-like), global batch 16, microbatch 1, Adam, no recomputation.
#include <QtGlobal>

#include "core/hardware/preset_library.h"
#include "core/validation/run_request.h"

namespace tandem::test {

// The measured run the request is made from (its iteration time a placeholder).
inline core::validation::MeasuredRun smallGptRun() {
    core::validation::MeasuredRun run;
    run.model = {1024, 16, 8, 1024, 50257, 128};
    run.gpus = 8;
    run.data = 8;
    run.globalBatch = 16;
    run.measuredSeconds = 1;
    return run;
}

inline core::placement::ModelPlacementRequest smallGptRequest() {
    auto hardware = core::hardware::PresetLibrary::preset("a100-like");
    if (!hardware.ok()) qFatal("a100-like: %s", hardware.message().c_str());
    auto r = core::validation::runRequest(smallGptRun(), 1, *hardware);
    if (!r.ok()) qFatal("request: %s", r.message().c_str());
    r->training.recompute = core::hardware::Recompute::Off;
    return *r;
}

}  // namespace tandem::test
