#pragma once
// Where the tests find the checkout: sourceDir() is the repository's root, testDataDir() its
// tests/data folder. The paths are compiled into one translation unit (test_paths.cpp) rather
// than into every test, so that ccache can reuse the other objects across clones in different
// folders (a fresh CI clone lives in a new temporary folder each time).
#include <string>

namespace tandem::test {

// The repository root, without a trailing slash.
const std::string& sourceDir();
// sourceDir() + "/tests/data".
const std::string& testDataDir();

}  // namespace tandem::test
