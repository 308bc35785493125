#pragma once
// Strict command-line parsing for tandem-cli: `tandem-cli COMMAND [--flag value | --switch]...`.
// Each command declares the flags it accepts; anything else is a usage error (exit 2) that lists
// what is valid. No abbreviations; positional arguments (operands, such as merge's FILES…) only
// for a command that takes them.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"

namespace tandem::cli {

struct FlagSpec {
    std::string name;       // without the leading dashes: "model"
    std::string valueName;  // "M"; empty for a switch such as --json
    std::string help;
    bool repeatable = false;
    // A switch that also takes an inline value (--name=VALUE): the values, for messages
    // ("auto"); empty: a plain switch refuses one.
    std::string inlineValues = {};
};

class CliArguments {
public:
    // Parses argv[first..argc) against the specs.
    // `takesOperands`: arguments that are not flags are kept as operands (in order) instead of
    // being refused; after "--" every argument is an operand.
    static core::Expected<CliArguments> parse(const std::vector<std::string>& args,
                                              const std::vector<FlagSpec>& specs,
                                              bool takesOperands = false);

    bool has(const std::string& name) const { return values_.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const;
    const std::vector<std::string>& values(const std::string& name) const;
    const std::vector<std::string>& operands() const { return operands_; }
    // The flags given, in alphabetical order, without dashes.
    std::vector<std::string> names() const;

    // Integer flag with range check; absent → fallback. Errors name the flag and the range.
    core::Expected<std::int64_t> integer(const std::string& name, std::int64_t fallback,
                                         std::int64_t min, std::int64_t max) const;
    core::Expected<double> real(const std::string& name, double fallback, double min,
                                double max) const;

private:
    std::map<std::string, std::vector<std::string>> values_;
    std::vector<std::string> operands_;
};

// "  --model M     zoo name or model file\n" lines for usage messages.
std::string describeFlags(const std::vector<FlagSpec>& specs);

}  // namespace tandem::cli
