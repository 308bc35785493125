#pragma once
// What the tests of a split or checkpointed search share: the example project's searches, file
// bytes, and results files compared apart from what depends on the machine ("elapsed_s" and
// "threads"), the oracle being one whole run of the same search in one process.
#include <QFile>
#include <QRegularExpression>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/test_paths.h"

namespace cli_test {

using Json = nlohmann::json;
using Args = std::vector<std::string>;

// The example project (4,600 points): with its own gpt3-175b (~10 s on two threads), long enough
// to interrupt; with --model gpt2-xl (~2 s) for quick searches.
inline std::string project() {
    return tandem::test::sourceDir() + "/resources/examples/gpt3-quick-search.tandem";
}

// The quick search: the example project's space with gpt2-xl, on two threads.
inline Args quick(const Args& extra) {
    Args args = {"search",  "--project", project(), "--model",
                 "gpt2-xl", "--threads", "2",       "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// The example project's own search (gpt3-175b, ~10 s on two threads): long enough to act on.
inline Args gpt3(const Args& extra) {
    Args args = {"search", "--project", project(), "--threads", "2", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

inline QByteArray readBytes(const std::string& path) {
    QFile file(QString::fromStdString(path));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline bool writeBytes(const std::string& path, const QByteArray& bytes, bool append = false) {
    QFile file(QString::fromStdString(path));
    return file.open(append ? QIODevice::Append : QIODevice::WriteOnly) &&
           file.write(bytes) == bytes.size();
}

inline bool exists(const std::string& path) {
    return QFile::exists(QString::fromStdString(path));
}

// The whole lines of a checkpoint after its two header lines: its point records.
inline qint64 recordsIn(const std::string& checkpoint) {
    const QByteArray text = readBytes(checkpoint);
    return qint64(text.left(text.lastIndexOf('\n') + 1).count('\n')) - 2;
}

// Results JSON without what depends on the machine and the thread count (discarded: unreadable).
inline Json comparableJson(const QByteArray& text) {
    Json json = Json::parse(text.toStdString(), nullptr, false);
    if (json.is_object()) {
        json.erase("elapsed_s");
        json.erase("threads");
    }
    return json;
}

// A results file, as comparableJson.
inline Json comparable(const std::string& path) {
    return comparableJson(readBytes(path));
}

// "" when equal, else where they first differ (a JSON pointer).
inline std::string difference(const Json& a, const Json& b) {
    if (a.is_discarded() || b.is_discarded()) return "a file is not JSON";
    const Json patch = Json::diff(a, b);
    return patch.empty() ? std::string() : "differ at " + patch[0].value("path", std::string("?"));
}

// "Checkpoint FILE: R points resumed from it, A added" → {R, A}; {-1, -1} when not printed.
inline std::pair<qint64, qint64> checkpointCounts(const std::string& out) {
    static const QRegularExpression line(
        "Checkpoint .*: ([0-9,]+) points resumed from it, "
        "([0-9,]+) added");
    const auto match = line.match(QString::fromStdString(out));
    if (!match.hasMatch()) return {-1, -1};
    auto number = [&](int i) { return match.captured(i).remove(',').toLongLong(); };
    return {number(1), number(2)};
}

}  // namespace cli_test
