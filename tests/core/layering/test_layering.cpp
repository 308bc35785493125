// House rules that the build relies on: core/ is plain C++ (no Qt header anywhere under it),
// qcustomplot.h is included only under ui/charts/, and each core folder includes only the folders
// below it (the table in docs/ARCHITECTURE.md). The linker enforces the order of the static
// libraries, but not header-only includes: this test reads every #include.
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>
#include "test_paths.h"

// moc's preprocessor misreads '#' inside raw strings, so the patterns use \x23 for '#'.
const char* const kQtInclude = "\\x23\\s*include\\s*[<\"]Q[A-Za-z]|\\x23\\s*include\\s*[<\"]qt";

// Which core folders each core folder may include (besides itself): the closure of its link
// dependencies in core/CMakeLists.txt. Keep in step with docs/ARCHITECTURE.md.
const QMap<QString, QSet<QString>> kAllowed = {
    {"common", {}},
    {"hardware", {"common"}},
    {"energy", {"common", "hardware"}},
    {"model", {"common"}},
    {"importers", {"common", "model"}},
    {"estimate", {"common", "hardware", "model"}},
    {"schedule", {"common", "hardware", "model", "estimate"}},
    {"placement", {"common", "hardware", "energy", "model", "estimate", "schedule"}},
    {"search", {"common", "hardware", "energy", "model", "estimate", "schedule", "placement"}},
    {"validation",
     {"common", "hardware", "energy", "model", "estimate", "schedule", "placement", "search"}},
    {"calibration",
     {"common", "hardware", "energy", "model", "estimate", "schedule", "placement", "search",
      "validation"}},
    {"io",
     {"common", "hardware", "energy", "model", "estimate", "schedule", "placement", "search",
      "validation", "calibration"}},
};

// "core/<folder>" includes in `text`, as folder names.
QSet<QString> coreFoldersIncluded(const QString& text) {
    static const QRegularExpression include("^\\x23\\s*include\\s*\"core/([a-z_]+)/",
                                            QRegularExpression::MultilineOption);
    QSet<QString> folders;
    for (auto it = include.globalMatch(text); it.hasNext();) folders << it.next().captured(1);
    return folders;
}

// Violations of kAllowed by a file of core folder `folder` with contents `text`.
QStringList violations(const QString& folder, const QString& text) {
    QStringList out;
    for (const QString& used : coreFoldersIncluded(text))
        if (used != folder && !kAllowed.value(folder).contains(used)) out << folder + " → " + used;
    return out;
}

// The link dependencies between core folders declared in core/CMakeLists.txt, closed
// transitively: tandem_core_library(<folder> DEPS tandem_core_<dep> ...).
QMap<QString, QSet<QString>> linkClosure() {
    QFile file(QString::fromStdString(tandem::test::sourceDir()) + "/core/CMakeLists.txt");
    QMap<QString, QSet<QString>> deps;
    if (!file.open(QIODevice::ReadOnly)) return deps;
    const QString text = QString::fromUtf8(file.readAll());
    static const QRegularExpression call("tandem_core_library\\((\\w+)([^)]*)\\)");
    static const QRegularExpression dep("tandem_core_(\\w+)");
    for (auto it = call.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        QSet<QString>& d = deps[m.captured(1)];
        for (auto jt = dep.globalMatch(m.captured(2)); jt.hasNext();) d << jt.next().captured(1);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (auto it = deps.begin(); it != deps.end(); ++it)
            for (const QString& d : QSet<QString>(it.value()))
                for (const QString& dd : deps.value(d))
                    if (!it.value().contains(dd)) {
                        it.value() << dd;
                        changed = true;
                    }
    }
    return deps;
}

class TestLayering : public QObject {
    Q_OBJECT

    static QStringList filesIncluding(const QString& folder, const QRegularExpression& pattern) {
        QStringList hits;
        QDirIterator it(QString::fromStdString(tandem::test::sourceDir()) + "/" + folder,
                        {"*.h", "*.hpp", "*.cpp", "*.cc"}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) {
                hits << path + " (unreadable)";
                continue;
            }
            if (pattern.match(QString::fromUtf8(file.readAll())).hasMatch()) hits << path;
        }
        return hits;
    }

private slots:
    void coreHasNoQtIncludes() {
        const QRegularExpression qtInclude(kQtInclude, QRegularExpression::MultilineOption);
        const QStringList hits = filesIncluding("core", qtInclude);
        QVERIFY2(hits.isEmpty(), qPrintable("Qt included in core/: " + hits.join(", ")));
    }

    void patternCatchesQtIncludes() {
        // The check above must be able to fail.
        const QRegularExpression qtInclude(kQtInclude, QRegularExpression::MultilineOption);
        QVERIFY(qtInclude.match("#include <QString>\n").hasMatch());
        QVERIFY(qtInclude.match("#  include \"QtCore/qglobal.h\"\n").hasMatch());
        QVERIFY(!qtInclude.match("#include <queue>\n").hasMatch());
    }

    void coreFoldersIncludeOnlyWhatTheyMay() {
        QStringList bad;
        QDirIterator folders(QString::fromStdString(tandem::test::sourceDir()) + "/core",
                             QDir::Dirs | QDir::NoDotAndDotDot);
        int seen = 0;
        while (folders.hasNext()) {
            const QString folder = QFileInfo(folders.next()).fileName();
            if (!kAllowed.contains(folder)) {
                bad << "core/" + folder + " is not in the table";
                continue;
            }
            QDirIterator it(folders.filePath(), {"*.h", "*.cpp"}, QDir::Files);
            while (it.hasNext()) {
                QFile file(it.next());
                QVERIFY(file.open(QIODevice::ReadOnly));
                ++seen;
                for (const QString& v : violations(folder, QString::fromUtf8(file.readAll())))
                    bad << file.fileName().section('/', -2) + ": " + v;
            }
        }
        QVERIFY(seen > 50);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
    }

    void tableMatchesTheLinkOrder() {
        // The table allows exactly what the static libraries may link against.
        const auto closure = linkClosure();
        QCOMPARE(closure.keys(), kAllowed.keys());
        for (const QString& folder : kAllowed.keys())
            QVERIFY2(closure.value(folder) == kAllowed.value(folder), qPrintable(folder));
    }

    void layeringCheckCanFail() {
        QCOMPARE(violations("schedule", "#include \"core/placement/placement_solver.h\"\n"),
                 QStringList{"schedule → placement"});
        QCOMPARE(violations("model", "#  include \"core/estimate/x.h\"\n"),
                 QStringList{"model → estimate"});
        QVERIFY(
            violations("search", "#include \"core/placement/x.h\"\n#include <vector>\n").isEmpty());
        QVERIFY(violations("io", "// #include \"core/importers/x.h\" in a comment\n").isEmpty());
    }

    void coreNeverIncludesUiOrApp() {
        const QRegularExpression upward("\\x23\\s*include\\s*\"(ui|app)/");
        const QStringList hits = filesIncluding("core", upward);
        QVERIFY2(hits.isEmpty(), qPrintable(hits.join(", ")));
        const QRegularExpression app("\\x23\\s*include\\s*\"app/");
        QVERIFY2(filesIncluding("ui", app).isEmpty(), "ui/ includes app/");
    }

    // Issue 25: every background task of the app goes through ui/jobs (JobRunner and the jobs
    // built on it), so cancelling, waiting and stale answers are handled in one place.
    // Inside ui/jobs/, only JobRunner (and the pool hand-off it uses) owns a thread: every job
    // is built on it.
    void backgroundThreadsOnlyInJobs() {
        const QRegularExpression threads("QtConcurrent|std::thread|QThreadPool|std::async");
        QStringList hits;
        for (const QString& hit : filesIncluding("ui", threads))
            if (!hit.contains("/ui/jobs/job_runner.") && !hit.contains("/ui/jobs/pool_handoff."))
                hits << hit;
        QVERIFY2(hits.isEmpty(),
                 qPrintable("threads started outside JobRunner: " + hits.join(", ")));
    }

    void qcustomplotOnlyInCharts() {
        const QRegularExpression qcp("\\x23\\s*include\\s*[<\"]qcustomplot\\.h");
        QStringList hits = filesIncluding("core", qcp) + filesIncluding("app", qcp);
        for (const QString& hit : filesIncluding("ui", qcp))
            if (!hit.contains("/ui/charts/")) hits << hit;
        QVERIFY2(hits.isEmpty(),
                 qPrintable("qcustomplot.h outside ui/charts/: " + hits.join(", ")));
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
