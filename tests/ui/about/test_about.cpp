// Help ▸ About Tandem: the main window has it, and it shows the one version number (CMake's
// project version, the one `tandem-cli --version` prints), the licence and the PHAZE citation.
#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QtTest>

#include "ui/about_dialog.h"
#include "ui/main_window.h"

class TestAbout : public QObject {
    Q_OBJECT

private slots:
    void textNamesVersionLicenceAndPhaze() {
        const QString text = tandem::ui::aboutText();
        QVERIFY2(text.contains(QStringLiteral("Tandem " TANDEM_PROJECT_VERSION)), qPrintable(text));
        QVERIFY(text.contains("GPL-3.0-or-later"));
        QVERIFY(text.contains("Integrated Hardware Architecture and Device Placement Search"));
        QVERIFY(text.contains(qVersion()));
    }

    void helpMenuHasAbout() {
        tandem::ui::MainWindow window;
        QStringList menus;
        QAction* about = nullptr;
        for (QAction* top : window.menuBar()->actions()) {
            menus << top->text();
            if (!top->menu()) continue;
            for (QAction* a : top->menu()->actions())
                if (a->text().remove('&') == "About Tandem") about = a;
        }
        QVERIFY2(menus.contains("&Help"), qPrintable(menus.join(", ")));
        QVERIFY(about != nullptr);
    }
};

QTEST_MAIN(TestAbout)
#include "test_about.moc"
