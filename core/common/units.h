#pragma once
// Display formatting of SI quantities (ARCHITECTURE.md §3.3: core computes in SI units; conversion
// to ms, GiB, TFLOP/s happens only when a number is shown). Shared by the CLI tables and the GUI so
// both print the same text for the same value.
#include <cstdint>
#include <string>

namespace tandem::core {

std::string formatSeconds(double seconds);  // "12.3 ms", "4.56 µs", "1.20 s"
// A wait in the unit a person counts it in: "45 s", "11.7 min", "2.00 h".
std::string formatDuration(double seconds);
std::string formatBytes(double bytes);                              // binary prefixes: "1.50 GiB"
std::string formatFlops(double flops);                              // "3.14 TFLOP"
std::string formatRate(double perSecond, const std::string& unit);  // "275 TFLOP/s"
std::string formatFrequency(double hertz);                          // "1.05 GHz", "700 MHz"
std::string formatEnergy(double joules);                            // "8.41 MJ", "237 kJ"
std::string formatPower(double watts);                              // "274 W", "1.20 MW"
// The one throughput formatter (status bar, charts, tables, tooltips): samples/s, SI prefix,
// three significant digits: "2.59 ksamples/s", "142 samples/s", "14.2 samples/s",
// "0.500 samples/s"; "∞ samples/s" and "n/a" for non-finite values.
std::string formatThroughput(double samplesPerSecond);
std::string formatCount(double count);                // "175.0 B", "1.56 B", "335 M", "1,024"
std::string formatFixed(double value, int decimals);  // locale-independent fixed notation
// Fixed notation with `digits` significant digits and no exponent ("0.0117", "23.8", "1234");
// "n/a" when not finite.
std::string formatSignificant(double value, int digits = 3);
// "1 stage", "17 stages": a count with its noun in the number it takes.
std::string countText(std::int64_t n, const std::string& singular, const std::string& plural);

}  // namespace tandem::core
