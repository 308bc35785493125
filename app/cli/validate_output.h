#pragma once
// The human output of `tandem-cli validate` for one set: its name, hardware, runs and source
// (and licence), the error of the iteration time over the runs (mean and median |error|, the
// worst and its run, the signed mean: + means predicted slower than measured), the groups'
// Spearman ρ and regret with their means; then a table of every run for sets of at most
// kRunTableLimit runs (or with `verbose`; TFLOP/s beside the times for sets published in
// TFLOP/s) and of the groups otherwise.
#include <cstddef>
#include <ostream>

#include "core/validation/validation_report.h"

namespace tandem::cli {

inline constexpr std::size_t kRunTableLimit = 20;

void printValidationReport(std::ostream& out, const core::validation::ValidationReport& report,
                           bool verbose);

}  // namespace tandem::cli
