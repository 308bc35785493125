// tandem: the desktop application.
#include <QApplication>
#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QDir>
#include <QPushButton>
#include <QTabWidget>
#include <QThread>

#include "core/common/version.h"
#include "ui/charts/design_space_chart.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/current_point_bar.h"

namespace core = tandem::core;

namespace {
// Runs the event loop until `done` holds or `seconds` pass.
bool waitFor(const std::function<bool()>& done, int seconds) {
    QDeadlineTimer deadline(std::chrono::seconds{seconds});
    while (!done() && !deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(10);
    }
    return done();
}

// Saves one PNG per central tab into `folder` (named after the tab) and quits: used by
// scripts/screenshots to keep the README's pictures current. Waits for the evaluation (and the
// search, when one runs) so every view shows real numbers.
int saveScreenshots(tandem::ui::MainWindow& window, const QString& folder) {
    QDir().mkpath(folder);
    if (!waitFor([&] { return !window.searchJob()->running(); }, 1800)) return 1;
    if (!waitFor([&] { return window.placement() && !window.pointJob()->busy(); }, 600)) return 1;
    auto* tabs = window.tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        waitFor([] { return false; }, 1);  // let charts lay out and replot
        const QString name = tabs->tabText(i).toLower().remove('&').replace(' ', '-');
        if (!window.grab().save(QDir(folder).filePath(name + ".png"))) return 1;
    }
    // The side-by-side view: the fastest point on another chip than the best one, compared with
    // the set-up.
    const auto results = window.results();
    if (!results || !results->best()) return 0;
    const auto& points = results->points();
    const auto& best = points[*results->best()];
    const core::search::EvaluatedPoint* runnerUp = nullptr;
    for (const auto& p : points)
        if (p.feasible() && p.point.chipIndex != best.point.chipIndex &&
            (!runnerUp || p.throughputSamplesPerSecond > runnerUp->throughputSamplesPerSecond))
            runnerUp = &p;
    if (runnerUp) {
        emit window.designSpace()->pointSelected(runnerUp->point.index);
        if (!waitFor([&] { return window.placement() && !window.pointJob()->busy(); }, 600))
            return 1;
        window.currentPointBar()->compareButton()->click();
        if (!waitFor([&] { return window.currentPage() == window.comparisonView(); }, 600))
            return 1;
        waitFor([] { return false; }, 1);
        return window.grab().save(QDir(folder).filePath("side-by-side.png")) ? 0 : 1;
    }
    return 0;
}
}  // namespace

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
    if (parser.isSet(project) && !window.openProject(parser.value(project))) return 2;
    if (parser.isSet(model) && !window.setModel(parser.value(model))) {
        qCritical("%s", qPrintable(window.lastError()));
        return 2;
    }
    if (parser.isSet(hardware) && !window.setHardware(parser.value(hardware))) {
        qCritical("%s", qPrintable(window.lastError()));
        return 2;
    }
    window.show();
    if (parser.isSet(search)) window.startSearch();
    if (parser.isSet(screenshots)) return saveScreenshots(window, parser.value(screenshots));
    return QApplication::exec();
}
