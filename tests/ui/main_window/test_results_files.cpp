// Search results as documents (issue 14, "results persist"): a saved project keeps its results
// beside it and reopening shows them; File ▸ Open results… loads a `tandem-cli search --json`
// file; the app's JSON export equals the CLI's for the same project (plans included). Oracles:
// the CLI run in-process on the saved project, and the points of the search itself. Nothing is
// timed; waits have generous watchdogs.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <set>

#include "app/cli/command.h"
#include "tests/ui/main_window/window_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/design_space_chart.h"
#include "ui/editors/search_space_editor.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/results_file_job.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

using namespace tandem;

namespace {
using namespace window_test;

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The run's figures that differ between two runs of the same search.
QJsonObject withoutRunFigures(QJsonObject o) {
    for (const char* key : {"elapsed_s", "threads"}) o.remove(key);
    return o;
}
}  // namespace

class TestResultsFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tandem::test::isolateUserFolders(); }
    void init() { QSettings().clear(); }

    void savedProjectKeepsItsResults() {
        QTemporaryDir dir;
        const QString project = dir.filePath("study.tandem");
        std::vector<double> throughputs;
        {
            ui::MainWindow window;
            search(window);
            for (const auto& p : window.workspace()->results()->points())
                throughputs.push_back(p.throughputSamplesPerSecond);
            QVERIFY(window.workspace()->saveProject(project));
            QTRY_VERIFY_WITH_TIMEOUT(!window.workspace()->filesJob()->busy(), 120000);
        }
        const QString results = ui::Workspace::resultsPathFor(project);
        QCOMPARE(results, dir.filePath("study.results.json"));
        QVERIFY(QFile::exists(results));
        QFile saved(project);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(saved.readAll()).object()["results"].toString(),
                 QString("study.results.json"));  // relative: the folder can move

        ui::MainWindow reopened;
        QVERIFY(reopened.workspace()->openProject(project));
        QTRY_COMPARE_WITH_TIMEOUT(reopened.views()->designSpace()->pointCount(),
                                  qint64(throughputs.size()), 120000);
        QVERIFY(!reopened.views()->designSpace()->isStale());
        QVERIFY2(reopened.views()->designSpace()->titleText().contains("bert-large"),
                 qPrintable(reopened.views()->designSpace()->titleText()));
        QCOMPARE(reopened.workspace()->results()->points().size(), throughputs.size());
        for (std::size_t i = 0; i < throughputs.size(); ++i)
            QCOMPARE(reopened.workspace()->results()->points()[i].throughputSamplesPerSecond,
                     throughputs[i]);
        QVERIFY(reopened.views()->comparisonView()->columnCount() >= 4);
        // A point of the reopened results can be shown: its chip is evaluated again.
        const auto& point =
            reopened.workspace()->results()->points()[*reopened.workspace()->results()->best()];
        emit reopened.views()->designSpace()->pointSelected(point.point.index);
        QTRY_VERIFY_WITH_TIMEOUT(reopened.workspace()->shownPoint() == point.point.index &&
                                     reopened.workspace()->placement() &&
                                     !reopened.workspace()->pointJob()->busy() &&
                                     reopened.workspace()->placement()->result.plan,
                                 120000);
        QCOMPARE(reopened.workspace()->placement()->result.plan->throughputSamplesPerSecond,
                 point.throughputSamplesPerSecond);
    }

    void exportEqualsTheCliAndOpensAgain() {
        QTemporaryDir dir;
        const QString project = dir.filePath("p.tandem");
        const QString app = dir.filePath("app.json"), cli = dir.filePath("cli.json");
        qint64 points = 0;
        {
            ui::MainWindow window;
            search(window);
            points = qint64(window.workspace()->results()->points().size());
            window.workspace()->exportResultsTo(app, true);
            QTRY_VERIFY_WITH_TIMEOUT(!window.workspace()->filesJob()->busy(), 120000);
            window.workspace()->session()->setModified(false);
            QVERIFY(window.workspace()->saveProject(project));
            QTRY_VERIFY_WITH_TIMEOUT(!window.workspace()->filesJob()->busy(), 120000);
        }
        std::ostringstream out, err;
        const int code = cli::runCli(
            {"search", "--project", project.toStdString(), "--json", cli.toStdString(), "--quiet"},
            out, err);
        QVERIFY2(code == 0, err.str().c_str());
        const QJsonObject a = readJson(app), c = readJson(cli);
        QVERIFY(!a.isEmpty() && !c.isEmpty());
        QCOMPARE(a["points"].toArray().size(), int(points));
        QVERIFY(a["plans"].toObject().size() > 0);  // the Pareto points' and the best's plans
        QCOMPARE(withoutRunFigures(a), withoutRunFigures(c));

        // File ▸ Open results… on the CLI's file, in a window on another model, after a search
        // of that model over other values (a legend that could keep them).
        ui::MainWindow other;
        QVERIFY(other.workspace()->setModel("gpt2-xl"));
        auto* chart = other.views()->designSpace();
        chart->setColourDimension(ui::ColourDimension::TensorCoreCount);
        core::search::SearchSpace earlier = core::search::SearchSpace::phaze();
        earlier.numTensorCores = {2, 64, 128};
        chart->setSpace(earlier);
        QSignalSpy said(other.workspace(), &ui::Workspace::transientMessage);
        other.workspace()->openResults(cli);
        QTRY_COMPARE_WITH_TIMEOUT(chart->pointCount(), points, 120000);
        QCOMPARE(other.setup()->modelReference(), QString("bert-large"));  // the file's model
        // Issue 27, item 6: the change is said, and the legend lists only the file's values.
        QTRY_VERIFY(!said.isEmpty());
        const QString message = said.last().at(0).toString();
        QVERIFY2(message.contains("the set-up's model is now bert-large (was gpt2-xl)"),
                 qPrintable(message));
        const QStringList legend = chart->legendLabels();
        for (const QString& absent : {QString("128 TC"), QString("64 TC")})
            QVERIFY2(!legend.join(" | ").contains(absent), qPrintable(legend.join(" | ")));
        std::set<std::int64_t> present;
        for (const auto& p : other.workspace()->results()->points())
            if (p.feasible()) present.insert(p.point.accelerator.numTensorCores);
        int buckets = 0;
        for (const QString& label : legend)
            for (std::int64_t n : present)
                if (label.startsWith(QString::number(n) + " TC (")) ++buckets;
        QCOMPARE(buckets, int(present.size()));
        QVERIFY(!other.views()->designSpace()->isStale());
        QVERIFY2(other.views()->designSpace()->titleText().contains("cli.json"),
                 qPrintable(other.views()->designSpace()->titleText()));

        // The same search in two shards, merged (`search --shard`, `merge`): the same file, and
        // the app opens it like any other.
        const QString merged = dir.filePath("merged.json");
        std::vector<std::string> mergeArgs{"merge", "--json", merged.toStdString()};
        for (const char* shard : {"1/2", "2/2"}) {
            const QString part = dir.filePath(QString("part%1.json").arg(shard[0]));
            std::ostringstream partOut, partErr;
            QCOMPARE(cli::runCli({"search", "--project", project.toStdString(), "--shard", shard,
                                  "--json", part.toStdString(), "--quiet"},
                                 partOut, partErr),
                     0);
            mergeArgs.push_back(part.toStdString());
        }
        // A shard opens too, and says it is one.
        ui::MainWindow partWindow;
        partWindow.workspace()->openResults(dir.filePath("part2.json"));
        QTRY_VERIFY_WITH_TIMEOUT(partWindow.views()->designSpace()->pointCount() > 0, 120000);
        QVERIFY(partWindow.views()->designSpace()->pointCount() < points);
        QVERIFY2(partWindow.views()->designSpace()->titleText().contains("shard 2/2"),
                 qPrintable(partWindow.views()->designSpace()->titleText()));
        std::ostringstream mergeOut, mergeErr;
        QVERIFY2(cli::runCli(mergeArgs, mergeOut, mergeErr) == 0, mergeErr.str().c_str());
        QCOMPARE(withoutRunFigures(readJson(merged)), withoutRunFigures(c));
        ui::MainWindow third;
        third.workspace()->openResults(merged);
        QTRY_COMPARE_WITH_TIMEOUT(third.views()->designSpace()->pointCount(), points, 120000);
        QVERIFY(third.views()->designSpace()->titleText().contains("merged.json"));

        // A file that is not a results file: a clear message, nothing shown changes.
        QSignalSpy failed(other.workspace()->filesJob(), &ui::ResultsFileJob::failed);
        other.workspace()->filesJob()->load(project);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 60000);
        QVERIFY2(failed[0][2].toString().contains("project"), qPrintable(failed[0][2].toString()));
        QCOMPARE(other.views()->designSpace()->pointCount(), points);
    }
};

QTEST_MAIN(TestResultsFiles)
#include "test_results_files.moc"
