// Hostile JSON through every reader the CLI has (model, Hugging Face config, hardware, search
// space, project, PHAZE instance): 100,000 levels of nesting, a number no double holds and a
// duplicate key are each exit 2 with a message naming the file and what was wrong, never a
// crash (these crashed with a stack overflow, or were an "internal error", before the JSON
// front door of core/common/json_document.h).
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {

std::string nestedArrays(int levels) {
    return std::string(std::size_t(levels), '[') + "1" + std::string(std::size_t(levels), ']');
}

}  // namespace

class TestCliHostileJson : public QObject {
    Q_OBJECT

private slots:
    void everyReaderRefusesHostileJson_data() {
        QTest::addColumn<QString>("reader");
        QTest::addColumn<QString>("attack");
        const char* readers[] = {"model", "hf", "hardware", "space", "project", "phaze"};
        const char* attacks[] = {"deep", "huge number", "duplicate key"};
        for (const char* r : readers)
            for (const char* a : attacks)
                QTest::newRow((std::string(r) + " / " + a).c_str()) << r << a;
    }

    void everyReaderRefusesHostileJson() {
        QFETCH(QString, reader);
        QFETCH(QString, attack);
        // Each reader's command, and a document whose first field carries the attack.
        std::vector<std::string> args;
        std::string key;
        if (reader == "model") args = {"estimate", "--model"}, key = "format";
        if (reader == "hf") args = {"estimate", "--model"}, key = "model_type";
        if (reader == "hardware")
            args = {"estimate", "--model", "gpt2-xl", "--hardware"}, key = "format";
        if (reader == "space") args = {"search", "--model", "gpt2-xl", "--space"}, key = "format";
        if (reader == "project") args = {"search", "--project"}, key = "format";
        if (reader == "phaze") args = {"place", "--phaze-instance"}, key = "maxDevices";
        std::string text;
        if (attack == "deep") text = "{\"" + key + "\": " + nestedArrays(100000) + "}";
        if (attack == "huge number") text = "{\"" + key + "\": 1e999}";
        if (attack == "duplicate key") text = "{\"" + key + "\": 1, \"" + key + "\": 2}";
        QTemporaryDir dir;
        const std::string path =
            dir.filePath(reader == "hf" ? "config.json" : "input.json").toStdString();
        std::ofstream(path) << text;
        args.push_back(path);
        const auto r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find(path) != std::string::npos, r.err.c_str());
        const char* expected = attack == "deep"          ? "nested deeper than 64 levels"
                               : attack == "huge number" ? "out of range"
                                                         : "duplicate key";
        QVERIFY2(r.err.find(expected) != std::string::npos, r.err.c_str());
        QVERIFY2(r.err.size() < 400, r.err.c_str());  // a short message, not a dump
    }
};

QTEST_GUILESS_MAIN(TestCliHostileJson)
#include "test_cli_hostile_json.moc"
