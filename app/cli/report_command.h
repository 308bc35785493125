#pragma once
#include "app/cli/command.h"

namespace tandem::cli {

// `tandem-cli report --project P --out R.html`: the project's set-up placed, its energy and time
// to train, the roofline of one layer, scaling with the cluster and the project's search
// results (when it names a results file) as one self-contained HTML file (training_report.h).
Command reportCommand();

}  // namespace tandem::cli
