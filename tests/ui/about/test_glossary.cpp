// Issue 27 item 9: a glossary in Help, linked from every tab's guide. Oracles: the issue's list
// of terms; the guide's own anchors (every href="#x" must have a name="x"); the tab titles of a
// real main window; the dialog's scroll position (the glossary is at the end of the page).
#include <QAction>
#include <QApplication>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBrowser>
#include <QtTest>
#include <set>

#include "tests/ui/test_output_dir.h"
#include "ui/glossary_text.h"
#include "ui/guide_text.h"
#include "ui/main_window.h"
#include "ui/view_tabs.h"

using namespace tandem;

class TestGlossary : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateUserFolders(); }

    void definesTheTermsOfACourse() {
        QStringList terms;
        std::set<QString> anchors;
        for (const ui::GlossaryEntry& e : ui::glossaryEntries()) {
            QVERIFY2(anchors.insert(e.anchor).second, qPrintable(e.anchor));  // unique
            QVERIFY(e.anchor.startsWith("term-"));
            QVERIFY2(e.definition.size() > 80, qPrintable(e.term));  // a definition, not a stub
            terms << e.term;
        }
        const QString all = terms.join('\n');
        for (const char* wanted :
             {"1F1B", "GPipe", "Bubble", "Microbatch", "MFU", "Tensor parallelism (t)",
              "Pipeline parallelism (p)", "Data parallelism (d)", "Recomputation",
              "Sequence parallelism", "ZeRO"})
            QVERIFY2(all.contains(wanted), wanted);
        // Alphabetical, as a glossary reads (digits first).
        QStringList sorted = terms;
        std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) {
            return a.compare(b, Qt::CaseInsensitive) < 0;
        });
        QCOMPARE(terms, sorted);
    }

    void everyTabLinksIntoTheGlossary() {
        ui::MainWindow window;
        const QString guide = ui::guideText();
        // Every link lands on an anchor of the same page.
        std::set<QString> names;
        for (auto it = QRegularExpression("name=\"([^\"]+)\"").globalMatch(guide); it.hasNext();)
            names.insert(it.next().captured(1));
        int links = 0;
        for (auto it = QRegularExpression("href=\"#([^\"]+)\"").globalMatch(guide); it.hasNext();) {
            const QString target = it.next().captured(1);
            QVERIFY2(names.count(target), qPrintable(target));
            ++links;
        }
        QVERIFY(names.count("glossary"));
        // Each tab's section (up to the next heading) links to at least two terms.
        for (int i = 0; i < window.views()->count(); ++i) {
            const QString heading = "<h4>" + window.views()->tabText(i) + "</h4>";
            const qsizetype start = guide.indexOf(heading);
            QVERIFY2(start >= 0, qPrintable(heading));
            const qsizetype end = guide.indexOf(QRegularExpression("<h[34]>"), start + 4);
            const QString section = guide.mid(start, end - start);
            QVERIFY2(section.count("href=\"#term-") >= 2, qPrintable(heading));
        }
        // Every term is linked from some tab.
        for (const ui::GlossaryEntry& e : ui::glossaryEntries())
            QVERIFY2(guide.contains("href=\"#" + e.anchor + "\""), qPrintable(e.anchor));
        QVERIFY(links > int(ui::glossaryEntries().size()));
    }

    void helpMenuOpensTheGlossary() {
        ui::MainWindow window;
        window.resize(1200, 800);
        window.show();
        QAction* action = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text() == "G&lossary") action = a;
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F1));
        action->trigger();
        QTextBrowser* browser = nullptr;
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* b = w->findChild<QTextBrowser*>("guideBrowser")) browser = b;
        QVERIFY(browser);
        QVERIFY(browser->window()->isVisible());
        QVERIFY(browser->toPlainText().contains("Glossary"));
        // Scrolled down to the glossary, which follows the tabs' sections.
        QTRY_VERIFY(browser->verticalScrollBar()->value() > 0);
        QVERIFY(browser->window()->grab().save(test::outputPath("glossary.png")));
        // A link in the guide moves to its term in the same page.
        browser->scrollToAnchor("term-bubble");
        QVERIFY(browser->verticalScrollBar()->value() > 0);
        browser->window()->close();
    }
};

QTEST_MAIN(TestGlossary)
#include "test_glossary.moc"
