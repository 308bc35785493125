#pragma once
// Checks on text the tests share: whether a message contains a part (VERIFY_CONTAINS prints the
// whole message when it does not) and a file's bytes as they are on disk.
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace tandem::test {

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

inline std::string readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace tandem::test

#define VERIFY_CONTAINS(text, part)                    \
    QVERIFY2(::tandem::test::contains((text), (part)), \
             qPrintable(QString::fromStdString(text) + \
                        "  <-- lacks: " + QString::fromStdString(std::string(part))))
