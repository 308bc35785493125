#pragma once
// The text summary `tandem-cli search` and `tandem-cli merge` print after a search: the space,
// how many points were evaluated and how fast, the best point, the Pareto fronts' sizes, each
// model's baselines and attribution chain as a table, and the time per phase.
#include <ostream>

#include "app/cli/cli_arguments.h"
#include "core/io/search_results_json.h"
#include "core/search/search_run.h"

namespace tandem::cli {

// With a budget (--tokens), the best point's line says what training on it takes.
void printSearchSummary(std::ostream& out, const core::search::SearchRequest& request,
                        const core::search::SearchOutcome& outcome,
                        const core::io::BudgetContext* budget = nullptr);

// Where the summary goes: standard error when --json or --csv writes to standard output (so the
// file stays clean), else standard output.
std::ostream& summaryStream(const CliArguments& args, std::ostream& out, std::ostream& err);
// Writes --json (the report) and --csv (one row per point) when given, then the summary.
core::Status writeSearchOutputs(const CliArguments& args,
                                const core::search::SearchRequest& request,
                                const core::search::SearchOutcome& outcome,
                                const core::io::SearchReport& report, std::ostream& out,
                                std::ostream& err);

}  // namespace tandem::cli
