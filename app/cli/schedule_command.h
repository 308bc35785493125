#pragma once
#include "app/cli/command.h"

namespace tandem::cli {

// `tandem-cli schedule`: the optimal operator schedule of every unique layer, forward and
// backward, with makespans, bounds and status; --json for all operators, --trace for Perfetto.
Command scheduleCommand();

}  // namespace tandem::cli
