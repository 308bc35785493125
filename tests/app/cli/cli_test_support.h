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

// The JSON object of a command run with `base` and then `extra` as its arguments (it must
// succeed).
inline QJsonObject jsonOfRun(const std::vector<std::string>& base,
                             const std::vector<std::string>& extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run(args);
    if (r.code != 0) qFatal("%s", r.err.c_str());
    return parseObject(r.out);
}
}  // namespace cli_test
