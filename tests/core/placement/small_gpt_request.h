#pragma once
// The placement request the strategy tests share: a GPT of hidden 1,024 and 8 layers on one
// 8-GPU A100 node (a100-like), global batch 16, microbatch 1, Adam, no recomputation.
#include <QtGlobal>

#include "core/hardware/preset_library.h"
#include "core/validation/run_request.h"

namespace tandem::test {

inline core::placement::ModelPlacementRequest smallGptRequest() {
    auto hardware = core::hardware::PresetLibrary::preset("a100-like");
    if (!hardware.ok()) qFatal("a100-like: %s", hardware.message().c_str());
    core::validation::MeasuredRun run;
    run.model = {1024, 16, 8, 1024, 50257, 128};
    run.gpus = 8;
    run.data = 8;
    run.globalBatch = 16;
    run.measuredSeconds = 1;
    auto r = core::validation::runRequest(run, 1, *hardware);
    if (!r.ok()) qFatal("request: %s", r.message().c_str());
    r->training.recompute = core::hardware::Recompute::Off;
    return *r;
}

}  // namespace tandem::test
