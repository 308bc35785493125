#pragma once
// What the CLI fuzz targets share: the input budget (TANDEM_FUZZ_INPUTS, default 150), the seed
// offset (TANDEM_FUZZ_SEED), reading a file whole and spotting a non-finite number in output.
#include <QtGlobal>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

namespace cli_test {

inline int inputsPerClass() {
    bool ok = false;
    const int value = qEnvironmentVariableIntValue("TANDEM_FUZZ_INPUTS", &ok);
    return ok && value > 0 ? value : 150;
}

inline std::uint64_t fuzzSeed() {
    return qgetenv("TANDEM_FUZZ_SEED").toULongLong();
}

inline std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

inline bool printsNonFinite(const std::string& text) {
    static const std::regex nonFinite("\\b(inf|nan|infinity)\\b", std::regex::icase);
    return std::regex_search(text, nonFinite);
}

}  // namespace cli_test
