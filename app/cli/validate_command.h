#pragma once
// `tandem-cli validate`: the native cost model against measured training runs — every bundled
// set (resources/validation/: Narayanan et al. 2021's Megatron-LM runs, Bang et al. 2024's
// 1,440 single-node A100 runs), one of them (--set NAME) or the user's CSV file (--runs FILE),
// on the set's hardware preset or --hardware H with --set key=value overrides. Prints per set
// its source, hardware, the error statistics and the groups' rank figures (validate_output.h),
// or one JSON object (io/validation_json.h). Exit 2 for bad input, 130/143 when interrupted.
#include "app/cli/command.h"

namespace tandem::cli {

Command validateCommand();

}  // namespace tandem::cli
