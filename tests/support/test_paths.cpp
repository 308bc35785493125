#include "test_paths.h"

namespace tandem::test {

const std::string& sourceDir() {
    static const std::string dir = TANDEM_SOURCE_DIR;
    return dir;
}

const std::string& testDataDir() {
    static const std::string dir = sourceDir() + "/tests/data";
    return dir;
}

}  // namespace tandem::test
