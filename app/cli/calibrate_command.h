#pragma once
// `tandem-cli calibrate`: fits a hardware description's efficiency and overhead parameters to
// measured runs (core/calibration/calibration.h) and writes the fitted hardware as a hardware
// file (--out) that every command's --hardware and the app accept. Runs come from a bundled
// set (--set NAME) or a CSV file (--runs FILE); --fit chooses the parameters, --folds / --seed
// the cross-validation, --holdout a hold-out split instead, --evaluations the budget per fit.
// Prints the parameters (start, fitted, bounds, whether the runs pin them down), the training
// and validated error and the worst runs (--verbose: every run), or JSON (--json; core/io/
// calibration_json.h). Exit 2 on bad input with the message; Ctrl+C: 130 with the best point
// so far printed (--out is then not written).
#include "app/cli/command.h"

namespace tandem::cli {

Command calibrateCommand();

}  // namespace tandem::cli
