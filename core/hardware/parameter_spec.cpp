#include "core/hardware/parameter_spec.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace tandem::core::hardware {

namespace {

bool isIntegral(double value) {
    return std::isfinite(value) && std::trunc(value) == value;
}

bool isPowerOfTwo(double value) {
    if (!isIntegral(value) || value < 1) return false;
    int exponent = 0;
    // frexp returns a mantissa of exactly 0.5 for powers of two.
    return std::frexp(value, &exponent) == 0.5;
}

// Integers below 1e16 print in full ("1048576", not "1.048576e+06"): sizes read better that way.
std::string formatInteger(double value) {
    if (!isIntegral(value) || std::fabs(value) >= 1e16) return formatNumber(value);
    char buffer[32];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 0);
    return std::string(buffer, result.ptr);
}

}  // namespace

std::string formatNumber(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    if (result.ec != std::errc()) return "?";
    return std::string(buffer, result.ptr);
}

std::string ParameterSpec::cliFlag() const {
    std::string flag = "--";
    for (char c : key) {
        if (c >= 'A' && c <= 'Z') {
            flag += '-';
            flag += char(c - 'A' + 'a');
        } else {
            flag += c;
        }
    }
    return flag;
}

std::string ParameterSpec::describeRange() const {
    if (kind == ParameterKind::Choice) {
        std::string text = "one of ";
        for (std::size_t i = 0; i < choices.size(); ++i) {
            if (i > 0) text += ", ";
            text += choices[i];
        }
        return text;
    }
    std::string text;
    if (kind == ParameterKind::Integer) {
        text = powerOfTwo ? "an integer power of two in " : "an integer in ";
        text += (minExclusive ? "(" : "[") + formatInteger(minValue) + ", " +
                formatInteger(maxValue) + "]";
    } else {
        text = "a number in ";
        text += (minExclusive ? "(" : "[") + formatNumber(minValue) + ", " +
                formatNumber(maxValue) + "]";
    }
    if (!unit.empty()) text += " (" + std::string(unit) + ")";
    return text;
}

std::string ParameterSpec::formatValue(double value) const {
    if (kind == ParameterKind::Choice && isIntegral(value) && value >= 0 &&
        value < double(choices.size()))
        return std::string(choices[std::size_t(value)]);
    if (kind == ParameterKind::Integer) return formatInteger(value);
    return formatNumber(value);
}

int ParameterSpec::choiceIndex(std::string_view name) const {
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (choices[i] == name) return int(i);
    return -1;
}

Status ParameterSpec::check(double value, std::string_view section) const {
    const auto fail = [&](std::string_view problem) {
        std::string message;
        if (!section.empty()) message += std::string(section) + ".";
        message += std::string(key) + " = " + formatValue(value) + " " + std::string(problem) +
                   ": must be " + describeRange();
        return Status(Error{std::move(message)});
    };
    if (!std::isfinite(value)) return fail("is not a finite number");
    if (kind == ParameterKind::Choice) {
        if (!isIntegral(value) || value < 0 || value >= double(choices.size()))
            return fail("is not a valid choice");
        return Status::success();
    }
    if (kind == ParameterKind::Integer && !isIntegral(value)) return fail("is not an integer");
    const bool belowMin = minExclusive ? value <= minValue : value < minValue;
    if (belowMin || value > maxValue) return fail("is out of range");
    if (powerOfTwo && !isPowerOfTwo(value)) return fail("is not a power of two");
    return Status::success();
}

}  // namespace tandem::core::hardware
