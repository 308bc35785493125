#pragma once
// One typed, documented parameter of the parameter registry (ARCHITECTURE.md §3.7). A ParameterSpec
// says everything a generic loop needs to validate a value, read or write it in JSON, expose it
// as a CLI flag or build a GUI editor: the JSON key (equal to the struct field name), a label,
// a display unit, a tooltip sentence, the kind (integer, real or named choice), the default and
// the allowed range. Values travel as double: integers stay exact because every integer range
// here ends well below 2^53, and a choice travels as the index of its name in `choices`.
// `powerOfTwo` is a hard rule (the value must be 2^k); `searchPowerOfTwo` only says that PHAZE's
// design space samples the dimension at powers of two, while a single configuration may take any
// integer in range (an A100 has 108 SMs and a 40 MiB L2).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"

namespace tandem::core::hardware {

enum class ParameterKind { Integer, Real, Choice };

// Which per-operator cost estimates read a field: core/estimate/estimate_key.h keys each estimate
// on exactly the registry fields its operator's class reads, so two chips that differ only in a
// field a class does not read share that class's estimates, and a field a class reads can never
// give a stale cache hit.
enum CostUse : std::uint8_t {
    kCostOfGemm = 1,        // tensor-core GEMMs, and the GEMM of a fused operator
    kCostOfVector = 2,      // vector-core operators, and a fused operator's epilogue
    kCostOfCollective = 4,  // collectives
};

struct ParameterSpec {
    std::string_view key;          // JSON key, camelCase, equal to the struct field name
    std::string_view label;        // short human name for editors and tables
    std::string_view unit;         // display unit: "", "B", "B/s", "Hz", "s", "cores", …
    std::string_view description;  // one tooltip sentence
    std::string_view group;        // editor group, e.g. "Tensor cores"
    ParameterKind kind = ParameterKind::Integer;
    double defaultValue = 0;
    double minValue = 0;            // inclusive unless minExclusive
    double maxValue = 0;            // inclusive
    bool minExclusive = false;      // the range is (min, max]: e.g. a bandwidth must be > 0
    bool powerOfTwo = false;        // enforced: the value must be an integer power of two
    bool searchPowerOfTwo = false;  // PHAZE's design space takes powers of two (not enforced)
    std::vector<std::string_view> choices;  // Choice: the allowed names, index = value
    bool advanced = false;                  // hidden behind "advanced" in editors and help
    // CostUse bits of the operator estimates that read this field; 0 for fields no operator's
    // cost reads (memory capacity, host overhead, cluster size: the placement's business).
    std::uint8_t costUse = 0;

    // "--num-tensor-cores" for key "numTensorCores".
    std::string cliFlag() const;

    // The allowed values in words, e.g. "an integer power of two in [1, 8] (B)" or
    // "one of off, on, auto". Used in every error message about this parameter.
    std::string describeRange() const;

    // Checks one value against kind, range and power-of-two rule. The error message reads
    // "<section>.<key> = <value> is out of range: must be <describeRange()>".
    Status check(double value, std::string_view section) const;

    // The value as it appears in messages and JSON: integers without a fraction, choices by name.
    std::string formatValue(double value) const;

    // Index of `name` in `choices`, or -1.
    int choiceIndex(std::string_view name) const;
};

// Shortest text that reads back to exactly `value` ("1200000000000" → "1.2e+12", 8 → "8").
std::string formatNumber(double value);

}  // namespace tandem::core::hardware
