#pragma once
// Textual overrides of registry parameters, as the CLI takes them: `--set numTensorCores=16`
// (also qualified: `--set cluster.devices=512`) or a per-parameter flag derived from the key,
// `--num-tensor-cores 16`. Values are parsed strictly: the whole text must be a finite number
// ("12abc", "nan", "inf", " 8" and "+8" are refused), integer parameters take only integral
// values, choices take only their names. Byte sizes may carry a binary or decimal suffix
// (KiB MiB GiB TiB, kB MB GB TB), bandwidths the same suffix followed by "/s" and clocks
// kHz MHz GHz, so "80GB", "40MiB", "1.2TB/s" and "1.41GHz" are accepted.
// Each override is checked on its own when applied; rules that tie fields together
// (devicesPerNode ≤ devices, microbatch ≤ globalBatch) are checked by validateTargets() once all
// overrides are in, so their order does not matter.
#include <string_view>

#include "core/common/expected.h"
#include "core/hardware/accelerator_config.h"
#include "core/hardware/cluster_config.h"
#include "core/hardware/parameter_spec.h"
#include "core/hardware/training_config.h"

namespace tandem::core::hardware {

// The configs a command lets the user override; a null target makes its keys an error
// ("does not apply to this command").
struct ConfigTargets {
    AcceleratorConfig* accelerator = nullptr;
    ClusterConfig* cluster = nullptr;
    TrainingConfig* training = nullptr;
};

// Parses `text` as a value of `spec` and checks it (kind, range, power of two). Messages read
// "<section>.<key> = '<text>' is not a number: must be <range>".
Expected<double> parseParameterValue(const ParameterSpec& spec, std::string_view text,
                                     std::string_view section);

// Applies "key=value" or "section.key=value" to the target that owns the key.
Status applyOverride(const ConfigTargets& targets, std::string_view assignment);

// Applies a per-parameter flag ("--num-tensor-cores") with its value.
Status applyFlag(const ConfigTargets& targets, std::string_view flag, std::string_view value);

// True when `flag` is the CLI flag of some registry parameter (in any section).
bool isParameterFlag(std::string_view flag);

// Full validation of every non-null target, cross-field rules included.
Status validateTargets(const ConfigTargets& targets);

}  // namespace tandem::core::hardware
