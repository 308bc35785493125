#include "core/common/units.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace tandem::core {

namespace {
// Decimals that give three significant digits to a mantissa in [1, 1000).
int decimalsFor(double mantissa) {
    return std::fabs(mantissa) >= 100 ? 0 : std::fabs(mantissa) >= 10 ? 1 : 2;
}

double roundedTo(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

// Three significant digits with an SI prefix chosen so the mantissa is in [1, 1000).
std::string withPrefix(double value, const std::string& unit, double base,
                       const std::array<const char*, 9>& prefixes, int zeroIndex) {
    if (!std::isfinite(value)) return std::isnan(value) ? "n/a" : (value > 0 ? "∞" : "-∞");
    if (value == 0) return "0 " + unit;
    int index = zeroIndex;
    double mantissa = value;
    while (std::fabs(mantissa) >= base && index + 1 < int(prefixes.size())) {
        mantissa /= base;
        ++index;
    }
    while (std::fabs(mantissa) < 1 && index > 0) {
        mantissa *= base;
        --index;
    }
    // Rounding may carry into the next digit: 9.996 shows as "10.0", 999.7 as "1.00 k".
    int decimals = decimalsFor(mantissa);
    // Below what the smallest prefix shows (a rounding residue): not "0.00 ps".
    if (index == 0 && roundedTo(mantissa, decimals) == 0) return "≈ 0 " + unit;
    decimals = decimalsFor(roundedTo(mantissa, decimals));
    if (std::fabs(roundedTo(mantissa, decimals)) >= base && index + 1 < int(prefixes.size())) {
        mantissa /= base;
        ++index;
        decimals = decimalsFor(mantissa);
    }
    return formatFixed(mantissa, decimals) + " " + prefixes[std::size_t(index)] + unit;
}

constexpr std::array<const char*, 9> kSiPrefixes{"p", "n", "µ", "m", "", "k", "M", "G", "T"};
constexpr std::array<const char*, 9> kBigPrefixes{"", "k", "M", "G", "T", "P", "E", "Z", "Y"};
constexpr std::array<const char*, 9> kBinaryPrefixes{"",   "Ki", "Mi", "Gi", "Ti",
                                                     "Pi", "Ei", "Zi", "Yi"};
}  // namespace

std::string formatFixed(double value, int decimals) {
    // std::to_chars, unlike printf, ignores the C locale, which the app's QCoreApplication sets
    // from the environment (a German one would write "1,5"); it prints what "%.*f" does in "C".
    char buffer[400];  // 1e308 in fixed notation with decimals
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value,
                                            std::chars_format::fixed, std::max(decimals, 0));
    return error == std::errc{} ? std::string(buffer, end) : std::string("n/a");
}

std::string formatSignificant(double value, int digits) {
    if (!std::isfinite(value)) return "n/a";
    const double magnitude = std::fabs(value);
    if (magnitude == 0) return "0";
    int decimals = std::clamp(digits - 1 - int(std::floor(std::log10(magnitude))), 0, 12);
    // Rounding may carry into the next digit (0.09996 → "0.100"): one decimal fewer then.
    if (decimals > 0 && std::fabs(roundedTo(value, decimals)) >= std::pow(10.0, digits - decimals))
        --decimals;
    return formatFixed(value, decimals);
}

std::string countText(std::int64_t n, const std::string& singular, const std::string& plural) {
    return std::to_string(n) + ' ' + (n == 1 ? singular : plural);
}

std::string formatSeconds(double seconds) {
    if (seconds == 0) return "0 s";
    if (std::fabs(seconds) >= 1) {
        return formatFixed(seconds, std::fabs(seconds) >= 100 ? 0 : 2) + " s";
    }
    return withPrefix(seconds, "s", 1000.0, kSiPrefixes, 4);
}

std::string formatDuration(double seconds) {
    return seconds >= 3600 ? formatFixed(seconds / 3600, 2) + " h"
           : seconds >= 60 ? formatFixed(seconds / 60, 1) + " min"
                           : formatFixed(seconds, 0) + " s";
}

std::string formatBytes(double bytes) {
    return withPrefix(bytes, "B", 1024.0, kBinaryPrefixes, 0);
}

std::string formatFlops(double flops) {
    return withPrefix(flops, "FLOP", 1000.0, kBigPrefixes, 0);
}

std::string formatRate(double perSecond, const std::string& unit) {
    return withPrefix(perSecond, unit + "/s", 1000.0, kBigPrefixes, 0);
}

std::string formatFrequency(double hertz) {
    return withPrefix(hertz, "Hz", 1000.0, kBigPrefixes, 0);
}

std::string formatEnergy(double joules) {
    return withPrefix(joules, "J", 1000.0, kBigPrefixes, 0);
}

std::string formatPower(double watts) {
    return withPrefix(watts, "W", 1000.0, kBigPrefixes, 0);
}

std::string formatThroughput(double samplesPerSecond) {
    const double magnitude = std::fabs(samplesPerSecond);
    if (std::isnan(samplesPerSecond)) return "n/a";
    if (std::isinf(samplesPerSecond)) return samplesPerSecond > 0 ? "∞ samples/s" : "-∞ samples/s";
    if (magnitude > 0 && magnitude < 1) {
        // No prefix below one sample per second ("msamples/s" reads as a typo): decimals instead.
        const int decimals = std::min(9, 2 - int(std::floor(std::log10(magnitude))));
        if (std::fabs(roundedTo(samplesPerSecond, decimals)) < 1)
            return formatFixed(samplesPerSecond, decimals) + " samples/s";
    }
    return formatRate(samplesPerSecond, "samples");
}

std::string formatCount(double count) {
    if (std::fabs(count) < 1e6) {
        // Thousands separators for counts people read digit by digit (devices, layers).
        const long long whole = std::llround(count);
        const std::string digits = std::to_string(whole < 0 ? -whole : whole);
        std::string grouped = whole < 0 ? "-" : "";
        for (std::size_t i = 0; i < digits.size(); ++i) {
            if (i > 0 && (digits.size() - i) % 3 == 0) grouped.push_back(',');
            grouped.push_back(digits[i]);
        }
        return grouped;
    }
    const char* suffix = std::fabs(count) >= 1e9 ? " B" : " M";
    const double scaled = count / (std::fabs(count) >= 1e9 ? 1e9 : 1e6);
    return formatFixed(scaled, std::fabs(scaled) >= 100 ? 1 : 2) + suffix;
}

}  // namespace tandem::core
