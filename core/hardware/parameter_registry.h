#pragma once
// The parameter registry: for each configuration struct (AcceleratorConfig, ClusterConfig,
// TrainingConfig) an ordered list of ParameterSpec records, each with a getter and a setter that
// move the field to and from double (a choice as its index). Validation, JSON I/O, CLI flags and
// the GUI editors are generic loops over these records, so a new field is added in one place.
// Each registry also owns the rules that tie two fields together (devicesPerNode ≤ devices,
// microbatch ≤ globalBatch), checked by validate() after the per-field checks.
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/common/expected.h"
#include "core/hardware/accelerator_config.h"
#include "core/hardware/cluster_config.h"
#include "core/hardware/parameter_spec.h"
#include "core/hardware/training_config.h"

namespace tandem::core::hardware {

template <class Config>
struct Parameter {
    ParameterSpec spec;
    double (*get)(const Config&) = nullptr;
    // Stores a value that passed spec.check(); use ParameterRegistry::assign for unchecked input.
    void (*set)(Config&, double) = nullptr;
};

namespace detail {
template <class M>
struct MemberOf;
template <class C, class T>
struct MemberOf<T C::*> {
    using Class = C;
    using Type = T;
};
}  // namespace detail

// A Parameter bound to a data member: field<&AcceleratorConfig::clockHz>(spec).
template <auto Member>
Parameter<typename detail::MemberOf<decltype(Member)>::Class> field(ParameterSpec spec) {
    using C = typename detail::MemberOf<decltype(Member)>::Class;
    using T = typename detail::MemberOf<decltype(Member)>::Type;
    Parameter<C> parameter;
    parameter.spec = std::move(spec);
    parameter.get = [](const C& config) {
        if constexpr (std::is_enum_v<T>)
            return double(static_cast<int>(config.*Member));
        else
            return double(config.*Member);
    };
    parameter.set = [](C& config, double value) {
        if constexpr (std::is_enum_v<T>)
            config.*Member = static_cast<T>(static_cast<int>(value));
        else
            config.*Member = static_cast<T>(value);
    };
    return parameter;
}

template <class Config>
class ParameterRegistry {
public:
    // Rules between fields; called only when every field is valid on its own.
    using CrossCheck = Status (*)(const Config&, std::string_view section);

    ParameterRegistry(std::string_view section, std::vector<Parameter<Config>> parameters,
                      CrossCheck crossCheck)
        : section_(section), parameters_(std::move(parameters)), crossCheck_(crossCheck) {}

    // "accelerator", "cluster" or "training": the JSON object name and the message prefix.
    std::string_view section() const { return section_; }
    std::span<const Parameter<Config>> parameters() const { return parameters_; }

    const Parameter<Config>* find(std::string_view key) const {
        for (const auto& p : parameters_)
            if (p.spec.key == key) return &p;
        return nullptr;
    }
    const Parameter<Config>* findFlag(std::string_view flag) const {
        for (const auto& p : parameters_)
            if (p.spec.cliFlag() == flag) return &p;
        return nullptr;
    }

    // "numTensorCores, tensorCoreRows, …" for "unknown key" messages.
    std::string keyList() const {
        std::string list;
        for (const auto& p : parameters_) {
            if (!list.empty()) list += ", ";
            list += p.spec.key;
        }
        return list;
    }

    // A config holding every parameter's registry default.
    Config defaults() const {
        Config config{};
        for (const auto& p : parameters_) p.set(config, p.spec.defaultValue);
        return config;
    }

    // Checks `value` for `parameter` and stores it only when valid.
    Status assign(Config& config, const Parameter<Config>& parameter, double value) const {
        Status status = parameter.spec.check(value, section_);
        if (status.ok()) parameter.set(config, value);
        return status;
    }

    // Every field against its spec (the first failure is reported), then the cross-field rules.
    Status validate(const Config& config) const {
        for (const auto& p : parameters_) {
            Status status = p.spec.check(p.get(config), section_);
            if (!status.ok()) return status;
        }
        return crossCheck_ ? crossCheck_(config, section_) : Status::success();
    }

private:
    std::string_view section_;
    std::vector<Parameter<Config>> parameters_;
    CrossCheck crossCheck_ = nullptr;
};

const ParameterRegistry<AcceleratorConfig>& acceleratorParameters();
const ParameterRegistry<ClusterConfig>& clusterParameters();
const ParameterRegistry<TrainingConfig>& trainingParameters();

}  // namespace tandem::core::hardware
