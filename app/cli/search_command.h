#pragma once
// `tandem-cli search`: the architecture co-search over a design space, through
// core::search::runSearch (the same run as the app's Search ▸ Start search).
#include "app/cli/command.h"

namespace tandem::cli {

Command searchCommand();

}  // namespace tandem::cli
