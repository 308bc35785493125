// tandem: the desktop application.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTabWidget>
#include <QTimer>

#include "ui/main_window.h"

namespace {
// Saves one PNG per central tab into `folder` (named after the tab) and quits: used by
// scripts/screenshots to keep the README's pictures current.
int saveScreenshots(tandem::ui::MainWindow& window, const QString& folder) {
    QDir().mkpath(folder);
    auto* tabs = qobject_cast<QTabWidget*>(window.centralWidget());
    if (!tabs) return 1;
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QApplication::processEvents();
        const QString name = tabs->tabText(i).toLower().remove('&').replace(' ', '-');
        if (!window.grab().save(QDir(folder).filePath(name + ".png"))) return 1;
    }
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Tandem");
    QApplication::setOrganizationName("Tandem");
    QApplication::setApplicationVersion("0.1.0");

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Co-optimise a training accelerator and the placement of a model on a cluster of it.");
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption model("model", "Zoo model or model file to open.", "M", "gpt3-175b");
    const QCommandLineOption hardware("hardware", "Hardware preset or file to open.", "H",
                                      "tpuv4-like");
    const QCommandLineOption screenshots("screenshots", "Save a PNG of every tab to DIR and quit.",
                                         "DIR");
    parser.addOptions({model, hardware, screenshots});
    parser.process(app);

    tandem::ui::MainWindow window;
    window.setModel(parser.value(model));
    window.setHardware(parser.value(hardware));
    window.show();
    if (parser.isSet(screenshots)) {
        QApplication::processEvents();
        return saveScreenshots(window, parser.value(screenshots));
    }
    return QApplication::exec();
}
