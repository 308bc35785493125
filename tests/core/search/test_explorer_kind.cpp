// ExplorerKind names: every kind's name parses back to that kind (and is the name its explorer
// reports), the names are the ones project files and --explorer have always used, and an
// unknown name, a wrong case or an empty one is refused with a message that quotes it and lists
// every valid name.
#include <QtTest>
#include <set>
#include <string>

#include "core/search/explorer.h"
#include "core/search/search_run.h"

using namespace tandem::core::search;

class TestExplorerKind : public QObject {
    Q_OBJECT

private slots:
    void everyKindRoundTrips() {
        std::set<std::string> names;
        for (ExplorerKind kind : kExplorerKinds) {
            const std::string name(toString(kind));
            QVERIFY(names.insert(name).second);  // distinct
            const auto parsed = parseExplorerKind(name);
            QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.message().c_str());
            QVERIFY(*parsed == kind);
            QCOMPARE(std::string(makeExplorer(kind)->name()), name);
        }
        // The file format's names: changing one would break every saved project.
        QVERIFY(names == (std::set<std::string>{"exhaustive", "phaze", "pruned"}));
        QVERIFY(SearchRequest{}.explorer == ExplorerKind::Exhaustive);
    }

    void unknownNamesAreRefused() {
        for (const char* name : {"random", "Exhaustive", "", "pruned "}) {
            const auto parsed = parseExplorerKind(name);
            QVERIFY(!parsed.ok());
            const std::string& message = parsed.message();
            qInfo("%s", message.c_str());
            QVERIFY(message.find("\"" + std::string(name) + "\"") != std::string::npos);
            QVERIFY(message.find("one of exhaustive, phaze, pruned") != std::string::npos);
        }
    }
};

QTEST_MAIN(TestExplorerKind)
#include "test_explorer_kind.moc"
