#pragma once
// `tandem-cli search`: the architecture co-search over a design space (issue 5).
#include "app/cli/command.h"

namespace tandem::cli {

Command searchCommand();

}  // namespace tandem::cli
