#pragma once
#include "app/cli/command.h"

namespace tandem::cli {

// `tandem-cli validate`: the native cost model against the bundled measured training runs
// (Megatron-LM on A100s): predicted vs measured TFLOP/s per GPU and the error of each.
Command validateCommand();

}  // namespace tandem::cli
