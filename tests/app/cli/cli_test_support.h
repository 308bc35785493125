#pragma once
// Runs tandem-cli in-process (tandem::cli::runCli) and parses its JSON, for the CLI tests.
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/command.h"

namespace cli_test {
struct CliRun {
    int code = -1;
    std::string out;
    std::string err;
};

inline CliRun run(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    CliRun result;
    result.code = tandem::cli::runCli(args, out, err);
    result.out = out.str();
    result.err = err.str();
    return result;
}

inline QJsonObject parseObject(const std::string& text) {
    QJsonParseError error{};
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError) qWarning() << error.errorString();
    return doc.object();
}
}  // namespace cli_test
