#include "app/cli/cli_arguments.h"
#include "core/common/text_excerpt.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace tandem::cli {

using core::Error;
using core::Expected;

namespace {
const FlagSpec* findSpec(const std::vector<FlagSpec>& specs, const std::string& name) {
    for (const FlagSpec& spec : specs)
        if (spec.name == name) return &spec;
    return nullptr;
}

// "--a, --b, --c": every flag by name, short enough to show whole.
std::string flagNames(const std::vector<FlagSpec>& specs) {
    std::string names;
    for (const FlagSpec& spec : specs) names += (names.empty() ? "--" : ", --") + spec.name;
    return names + " (--help says what each takes)";
}
}  // namespace

Expected<CliArguments> CliArguments::parse(const std::vector<std::string>& args,
                                           const std::vector<FlagSpec>& specs, bool takesOperands) {
    CliArguments result;
    bool onlyOperands = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (takesOperands && !onlyOperands && arg == "--") {
            onlyOperands = true;
            continue;
        }
        if (takesOperands && (onlyOperands || arg.compare(0, 2, "--") != 0)) {
            result.operands_.push_back(arg);
            continue;
        }
        if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
            return Error{"unexpected argument '" + core::textExcerpt(arg) + "'" +
                         "; valid flags: " + flagNames(specs)};
        }
        std::string name = arg.substr(2);
        std::optional<std::string> inlineValue;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name.resize(eq);
        }
        const FlagSpec* spec = findSpec(specs, name);
        if (!spec) {
            return Error{"unknown flag '--" + core::textExcerpt(name) + "'" +
                         "; valid flags: " + flagNames(specs)};
        }
        if (!spec->repeatable && result.has(name)) {
            return Error{"flag '--" + name + "' given more than once"};
        }
        auto& slot = result.values_[name];
        if (spec->valueName.empty()) {
            if (inlineValue && spec->inlineValues.empty())
                return Error{"flag '--" + name + "' takes no value"};
            slot.push_back(inlineValue.value_or(""));
            continue;
        }
        if (inlineValue) {
            slot.push_back(*inlineValue);
        } else if (i + 1 < args.size()) {
            slot.push_back(args[++i]);
        } else {
            return Error{"flag '--" + name + "' needs a value (" + spec->valueName + ")"};
        }
    }
    return result;
}

std::vector<std::string> CliArguments::names() const {
    std::vector<std::string> names;
    for (const auto& [name, values] : values_) names.push_back(name);
    return names;
}

std::optional<std::string> CliArguments::value(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

const std::vector<std::string>& CliArguments::values(const std::string& name) const {
    static const std::vector<std::string> kNone;
    const auto it = values_.find(name);
    return it == values_.end() ? kNone : it->second;
}

Expected<std::int64_t> CliArguments::integer(const std::string& name, std::int64_t fallback,
                                             std::int64_t min, std::int64_t max) const {
    const auto text = value(name);
    if (!text) return fallback;
    const auto range =
        " (allowed: an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "])";
    errno = 0;
    char* end = nullptr;
    const long long parsed = std::strtoll(text->c_str(), &end, 10);
    if (text->empty() || *end != '\0' || errno == ERANGE) {
        return Error{"--" + name + " = '" + core::textExcerpt(*text) + "' is not an integer" +
                     range};
    }
    if (parsed < min || parsed > max) {
        return Error{"--" + name + " = " + core::textExcerpt(*text) + " is out of range" + range};
    }
    return std::int64_t(parsed);
}

Expected<double> CliArguments::real(const std::string& name, double fallback, double min,
                                    double max) const {
    const auto text = value(name);
    if (!text) return fallback;
    std::ostringstream range;
    range << " (allowed: a number in [" << min << ", " << max << "])";
    errno = 0;
    char* end = nullptr;
    const double parsed = std::strtod(text->c_str(), &end);
    if (text->empty() || *end != '\0' || errno == ERANGE || !std::isfinite(parsed)) {
        return Error{"--" + name + " = '" + core::textExcerpt(*text) + "' is not a finite number" +
                     range.str()};
    }
    if (parsed < min || parsed > max) {
        return Error{"--" + name + " = " + core::textExcerpt(*text) + " is out of range" +
                     range.str()};
    }
    return parsed;
}

std::string describeFlags(const std::vector<FlagSpec>& specs) {
    std::size_t width = 0;
    for (const FlagSpec& spec : specs)
        width =
            std::max(width, spec.name.size() + spec.valueName.size() +
                                (spec.inlineValues.empty() ? 0 : spec.inlineValues.size() + 3) + 3);
    std::string out;
    for (const FlagSpec& spec : specs) {
        std::string left = "--" + spec.name;
        if (!spec.valueName.empty()) left += " " + spec.valueName;
        if (!spec.inlineValues.empty()) left += "[=" + spec.inlineValues + "]";
        out += "  " + left + std::string(width + 2 - left.size(), ' ') + spec.help + "\n";
    }
    return out;
}

}  // namespace tandem::cli
