#pragma once
#include "app/cli/command.h"

namespace tandem::cli {

// `tandem-cli place`: the fastest t × d × pipeline partition for a model on a cluster, with its
// memory per stage and the fixed baseline; or, with --phaze-instance, PHAZE's own DP input
// solved under the phaze-compat cost model with PHAZE's output keys.
Command placeCommand();

}  // namespace tandem::cli
