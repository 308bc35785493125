#pragma once
// The JSON of `tandem-cli validate --json` (keys documented in the README, "Command line"):
// {sets: [{name, source, licence, hardware, tflops_published,
//          summary: {runs, fitting, mean_abs_error, median_abs_error, worst_abs_error,
//                    worst_run, mean_error, groups: [{hidden, heads, layers, sequence, gpus,
//                    runs, spearman, regret, pick, best}], mean_spearman, mean_regret,
//                    worst_regret},
//          runs: [{name, hidden, heads, layers, sequence, vocab, padded_vocab, gpus, tensor,
//                  pipeline, data, global_batch, microbatch_given, recompute,
//                  sequence_parallel, interleave, optimizer, bytes_per_element, fits,
//                  microbatch, predicted_s, measured_s, error, reason,
//                  predicted_tflops_per_gpu, measured_tflops_per_gpu}]}]}
// Errors are relative (0.05 = 5 %) of the iteration time; worst_run, pick and best index the
// set's runs (from 0). A figure that is undefined (no run fits, no group, ρ of a constant) is
// null; "reason" only for a run that does not fit, "microbatch" and the predictions only for
// one that does, the TFLOP/s only for sets whose runs were published as TFLOP/s per GPU.
// Times in seconds; numbers are written so they read back exactly.
#include <span>
#include <string>

#include "core/validation/validation_report.h"

namespace tandem::core::io {

std::string validationToJson(std::span<const validation::ValidationReport> reports, int indent = 2);

}  // namespace tandem::core::io
