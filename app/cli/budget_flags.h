#pragma once
// The flags that price a plan's training on a token budget, shared by `place` and `search`:
// --tokens N (days to train, device-hours, MWh) and --price-per-device-hour X (cost).
#include <optional>
#include <vector>

#include "app/cli/cli_arguments.h"
#include "core/common/expected.h"
#include "core/io/placement_json.h"

namespace tandem::cli {

std::vector<FlagSpec> budgetFlags();

// nullopt when --tokens is not given; an error for a bad value or a price without --tokens.
// `tokensPerSample`: the sequence length the plans train at.
core::Expected<std::optional<core::io::BudgetContext>> budgetFrom(const CliArguments& args,
                                                                  double tokensPerSample);

}  // namespace tandem::cli
