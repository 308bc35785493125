// tandem: the desktop application.
#include <QApplication>
#include <QCommandLineParser>

#include "app/gui/screenshot_tour.h"
#include "core/common/version.h"
#include "ui/main_window.h"
#include "ui/workspace.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Tandem");
    QApplication::setOrganizationName("Tandem");
    QApplication::setApplicationVersion(QString::fromUtf8(
        tandem::core::version().data(), static_cast<qsizetype>(tandem::core::version().size())));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Co-optimise a training accelerator and the placement of a model on a cluster of it.");
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption project("project", "Project file to open.", "FILE");
    const QCommandLineOption model("model", "Zoo model or model file to open.", "M");
    const QCommandLineOption hardware("hardware", "Hardware preset or file to open.", "H");
    const QCommandLineOption search("search", "Start the project's search at once.");
    const QCommandLineOption screenshots("screenshots", "Save a PNG of every tab to DIR and quit.",
                                         "DIR");
    parser.addOptions({project, model, hardware, search, screenshots});
    parser.process(app);

    tandem::ui::MainWindow window;
    if (parser.isSet(project) && !window.workspace()->openProject(parser.value(project))) return 2;
    if (parser.isSet(model) && !window.workspace()->setModel(parser.value(model))) {
        qCritical("%s", qPrintable(window.workspace()->lastError()));
        return 2;
    }
    if (parser.isSet(hardware) && !window.workspace()->setHardware(parser.value(hardware))) {
        qCritical("%s", qPrintable(window.workspace()->lastError()));
        return 2;
    }
    window.show();
    if (parser.isSet(search)) window.startSearch();
    if (parser.isSet(screenshots))
        return tandem::app::ScreenshotTour(window, parser.value(screenshots)).run();
    return QApplication::exec();
}
