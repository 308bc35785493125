#pragma once
#include "app/cli/command.h"

namespace tandem::cli {

// `tandem-cli estimate`: per layer and operator, forward and backward latency on one core and on
// all cores of its class, FLOPs and HBM bytes, plus per-device totals.
Command estimateCommand();

}  // namespace tandem::cli
