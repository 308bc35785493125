#include "app/gui/screenshot_tour.h"

#include <QAction>
#include <QApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QThread>
#include <vector>

#include "ui/charts/design_space_chart.h"
#include "ui/jobs/analysis_job.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/current_point_bar.h"
#include "ui/panels/pipeline_playback.h"
#include "ui/panels/pipeline_view.h"
#include "ui/panels/point_analysis_view.h"
#include "ui/report_pdf.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

namespace tandem::app {

ScreenshotTour::ScreenshotTour(ui::MainWindow& window, QString folder)
    : window_(window), folder_(std::move(folder)) {}

bool ScreenshotTour::waitFor(const std::function<bool()>& done, int seconds) {
    QDeadlineTimer deadline(std::chrono::seconds{seconds});
    while (!done() && !deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(10);
    }
    return done();
}

bool ScreenshotTour::waitForThePoint() const {
    return waitFor(
        [this] {
            return window_.workspace()->placement() && !window_.workspace()->pointJob()->busy();
        },
        600);
}

bool ScreenshotTour::save(const QString& name) const {
    waitFor([] { return false; }, 1);  // let charts lay out and replot
    return window_.grab().save(QDir(folder_).filePath(name + ".png"));
}

int ScreenshotTour::run() {
    QDir().mkpath(folder_);
    if (!waitFor([this] { return !window_.workspace()->searchJob()->running(); }, 1800)) return 1;
    if (!waitForThePoint()) return 1;
    QTabWidget* tabs = window_.views();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        if (!analyseOnDemand()) return 1;
        if (!save(tabs->tabText(i).toLower().remove('&').replace(' ', '-'))) return 1;
    }
    if (const int failed = report()) return failed;  // the set-up, before another point shows
    if (const int failed = sideBySide()) return failed;
    return glossary();
}

// The fastest point on another chip than the best one, compared with the set-up.
int ScreenshotTour::sideBySide() {
    const auto results = window_.workspace()->results();
    if (!results || !results->best()) return 0;
    const auto& points = results->points();
    const auto& best = points[*results->best()];
    const core::search::EvaluatedPoint* runnerUp = nullptr;
    for (const auto& p : points)
        if (p.feasible() && p.point.chipIndex != best.point.chipIndex &&
            (!runnerUp || p.throughputSamplesPerSecond > runnerUp->throughputSamplesPerSecond))
            runnerUp = &p;
    if (!runnerUp) return 0;
    emit window_.views()->designSpace()->pointSelected(runnerUp->point.index);
    if (!waitForThePoint()) return 1;
    window_.currentPointBar()->compareButton()->click();
    if (!waitFor(
            [this] { return window_.views()->currentPage() == window_.views()->comparisonView(); },
            600))
        return 1;
    return save("side-by-side") ? 0 : 1;
}

int ScreenshotTour::glossary() {
    QAction* action = nullptr;
    for (QAction* a : window_.findChildren<QAction*>())
        if (a->text() == QStringLiteral("G&lossary")) action = a;
    if (!action) return 1;
    action->trigger();
    QTextBrowser* browser = nullptr;
    waitFor(
        [&] {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* b = w->findChild<QTextBrowser*>("guideBrowser"); b && w->isVisible())
                    browser = b;
            return browser != nullptr;
        },
        10);
    if (!browser) return 1;
    QWidget* dialog = browser->window();
    waitFor([] { return false; }, 1);
    const bool saved = dialog->grab().save(QDir(folder_).filePath("glossary.png"));
    dialog->close();
    return saved ? 0 : 1;
}

// The tabs that analyse only when asked (Sensitivity, Scaling): ask, and wait for the answer.
// The Pipeline tab: played a fifth of the way into the batch, so its playhead shows.
bool ScreenshotTour::analyseOnDemand() {
    if (window_.views()->currentPage() == window_.views()->pipelineView()) {
        ui::PipelinePlayback* playback = window_.views()->pipelineView()->playback();
        playback->setStep(playback->stepCount() / 5);
        return true;
    }
    auto* view = qobject_cast<ui::PointAnalysisView*>(window_.views()->currentPage());
    if (!view) return true;
    view->analyse();
    return waitFor([view] { return !view->job()->busy(); }, 1800);
}

// File ▸ Export report…'s charts, as a browser draws them: the report of the shown point
// written to a temporary file, each inline SVG rendered under the report's title.
int ScreenshotTour::report() {
    QTemporaryDir dir;
    const QString path = dir.filePath("report.html");
    if (!window_.workspace()->exportReportTo(path).isEmpty()) return 1;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return 1;
    const QString html = QString::fromUtf8(file.readAll());
    const auto figures = ui::reportFigures(html, 1.0);
    if (!figures) return 1;
    int width = 0, height = 48;
    for (const ui::ReportFigure& figure : *figures) {
        width = std::max(width, figure.image.width());
        height += figure.image.height() + 24;
    }
    QImage sheet(width + 48, height, QImage::Format_ARGB32);
    sheet.fill(Qt::white);
    QPainter painter(&sheet);
    QFont font = painter.font();
    font.setPointSize(14);
    font.setBold(true);
    painter.setFont(font);
    const QRegularExpression title("<h1>(.*?)</h1>");
    painter.drawText(24, 32, QObject::tr("Report: %1").arg(title.match(html).captured(1)));
    int y = 48;
    for (const ui::ReportFigure& figure : *figures) {
        painter.drawImage(24, y, figure.image);
        y += figure.image.height() + 24;
    }
    painter.end();
    return sheet.save(QDir(folder_).filePath("report.png")) ? 0 : 1;
}

}  // namespace tandem::app
