#include "core/hardware/parameter_overrides.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/common/text_excerpt.h"
#include "core/hardware/parameter_registry.h"

namespace tandem::core::hardware {

namespace {

struct Suffix {
    std::string_view text;
    double factor;
};

// Longest suffixes first so that "GiB" is not read as "B" after a number "…Gi".
constexpr Suffix kByteSuffixes[] = {
    {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
    {"kB", 1e3},     {"MB", 1e6},        {"GB", 1e9},           {"TB", 1e12},
    {"B", 1.0},
};
constexpr Suffix kHertzSuffixes[] = {{"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}, {"Hz", 1.0}};

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Splits a unit suffix off `text` for the parameter's unit; returns the multiplier.
double takeSuffix(std::string_view unit, std::string_view& text) {
    if (unit == "B" || unit == "B/s") {
        std::string_view body = text;
        if (unit == "B/s") {
            if (!endsWith(body, "/s")) return 1.0;
            body.remove_suffix(2);
        }
        for (const Suffix& s : kByteSuffixes) {
            if (endsWith(body, s.text)) {
                text = body.substr(0, body.size() - s.text.size());
                return s.factor;
            }
        }
        return 1.0;
    }
    if (unit == "Hz") {
        for (const Suffix& s : kHertzSuffixes) {
            if (endsWith(text, s.text)) {
                text.remove_suffix(s.text.size());
                return s.factor;
            }
        }
    }
    return 1.0;
}

Error notANumber(const ParameterSpec& spec, std::string_view text, std::string_view section,
                 std::string_view problem) {
    return Error{std::string(section) + "." + std::string(spec.key) + " = '" + textExcerpt(text) +
                 "' " + std::string(problem) + ": must be " + spec.describeRange()};
}

// One registry and the config it may write, so the three sections share one loop.
template <class Config>
struct Section {
    const ParameterRegistry<Config>& registry;
    Config* target;
};

// Visits the three sections in order; `visit` returns true to stop.
template <class Visit>
void forEachSection(const ConfigTargets& targets, Visit&& visit) {
    if (visit(Section<AcceleratorConfig>{acceleratorParameters(), targets.accelerator})) return;
    if (visit(Section<ClusterConfig>{clusterParameters(), targets.cluster})) return;
    visit(Section<TrainingConfig>{trainingParameters(), targets.training});
}

std::string validKeys(const ConfigTargets& targets) {
    std::string list;
    forEachSection(targets, [&](const auto& section) {
        if (section.target != nullptr) {
            if (!list.empty()) list += "; ";
            list += std::string(section.registry.section()) + ": " + section.registry.keyList();
        }
        return false;
    });
    return list.empty() ? "none" : list;
}

// Finds the parameter by key (optionally restricted to one section) or by flag and applies it.
// `origin` names the override in messages, e.g. "--set numTensorCores=16".
Status applyMatching(const ConfigTargets& targets, std::string_view sectionName,
                     std::string_view key, std::string_view flag, std::string_view valueText,
                     std::string_view origin) {
    std::optional<Status> outcome;
    forEachSection(targets, [&](const auto& section) {
        if (!sectionName.empty() && section.registry.section() != sectionName) return false;
        const auto* parameter =
            flag.empty() ? section.registry.find(key) : section.registry.findFlag(flag);
        if (parameter == nullptr) return false;
        if (section.target == nullptr) {
            outcome = Status(Error{
                std::string(origin) + ": parameter " + std::string(section.registry.section()) +
                "." + std::string(parameter->spec.key) + " does not apply to this command"});
            return true;
        }
        const Expected<double> value =
            parseParameterValue(parameter->spec, valueText, section.registry.section());
        if (!value.ok()) {
            outcome = Status(Error{std::string(origin) + ": " + value.message()});
            return true;
        }
        parameter->set(*section.target, *value);
        outcome = Status::success();
        return true;
    });
    if (outcome) return *outcome;
    return Error{std::string(origin) + ": unknown parameter '" +
                 textExcerpt(flag.empty() ? key : flag) + "'; valid keys are " +
                 validKeys(targets)};
}

}  // namespace

Expected<double> parseParameterValue(const ParameterSpec& spec, std::string_view text,
                                     std::string_view section) {
    if (spec.kind == ParameterKind::Choice) {
        const int index = spec.choiceIndex(text);
        if (index < 0) return notANumber(spec, text, section, "is not a valid choice");
        return double(index);
    }
    std::string_view number = text;
    const double factor = takeSuffix(spec.unit, number);
    double value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || ec == std::errc::invalid_argument || end != number.data() + number.size())
        return notANumber(spec, text, section, "is not a number");
    if (ec == std::errc::result_out_of_range)
        return notANumber(spec, text, section, "is out of range");
    if (!std::isfinite(value)) return notANumber(spec, text, section, "is not a finite number");
    value *= factor;
    Status status = spec.check(value, section);
    if (!status.ok()) return Error{status.message()};
    return value;
}

Status applyOverride(const ConfigTargets& targets, std::string_view assignment) {
    const std::string origin = "--set " + textExcerpt(assignment);
    const std::size_t equals = assignment.find('=');
    if (equals == std::string_view::npos)
        return Error{origin + ": expected key=value, e.g. numTensorCores=16"};
    std::string_view key = assignment.substr(0, equals);
    const std::string_view valueText = assignment.substr(equals + 1);
    std::string_view sectionName;
    if (const std::size_t dot = key.find('.'); dot != std::string_view::npos) {
        sectionName = key.substr(0, dot);
        key = key.substr(dot + 1);
        if (sectionName != "accelerator" && sectionName != "cluster" && sectionName != "training")
            return Error{origin + ": unknown section '" + textExcerpt(sectionName) +
                         "'; valid sections are accelerator, cluster, training"};
    }
    if (key.empty()) return Error{origin + ": expected key=value, e.g. numTensorCores=16"};
    return applyMatching(targets, sectionName, key, {}, valueText, origin);
}

Status applyFlag(const ConfigTargets& targets, std::string_view flag, std::string_view value) {
    const std::string origin = textExcerpt(flag) + " " + textExcerpt(value);
    if (flag.size() < 3 || flag.substr(0, 2) != "--")
        return Error{origin + ": expected a flag of the form --parameter-name"};
    return applyMatching(targets, {}, {}, flag, value, origin);
}

bool isParameterFlag(std::string_view flag) {
    bool found = false;
    forEachSection(ConfigTargets{}, [&](const auto& section) {
        found = section.registry.findFlag(flag) != nullptr;
        return found;
    });
    return found;
}

Status validateTargets(const ConfigTargets& targets) {
    Status result = Status::success();
    forEachSection(targets, [&](const auto& section) {
        if (section.target == nullptr) return false;
        result = section.registry.validate(*section.target);
        return !result.ok();
    });
    return result;
}

}  // namespace tandem::core::hardware
