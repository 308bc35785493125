// House rules that the build relies on: core/ is plain C++ (no Qt header anywhere under it), and
// qcustomplot.h is included only under ui/charts/.
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

// moc's preprocessor misreads '#' inside raw strings, so the patterns use \x23 for '#'.
const char* const kQtInclude = "\\x23\\s*include\\s*[<\"]Q[A-Za-z]|\\x23\\s*include\\s*[<\"]qt";

class TestLayering : public QObject {
    Q_OBJECT

    static QStringList filesIncluding(const QString& folder, const QRegularExpression& pattern) {
        QStringList hits;
        QDirIterator it(QStringLiteral(TANDEM_SOURCE_DIR) + "/" + folder,
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
        const QRegularExpression qtInclude(kQtInclude,
                                           QRegularExpression::MultilineOption);
        const QStringList hits = filesIncluding("core", qtInclude);
        QVERIFY2(hits.isEmpty(), qPrintable("Qt included in core/: " + hits.join(", ")));
    }

    void patternCatchesQtIncludes() {
        // The check above must be able to fail.
        const QRegularExpression qtInclude(kQtInclude,
                                           QRegularExpression::MultilineOption);
        QVERIFY(qtInclude.match("#include <QString>\n").hasMatch());
        QVERIFY(qtInclude.match("#  include \"QtCore/qglobal.h\"\n").hasMatch());
        QVERIFY(!qtInclude.match("#include <queue>\n").hasMatch());
    }

    void qcustomplotOnlyInCharts() {
        const QRegularExpression qcp("\\x23\\s*include\\s*[<\"]qcustomplot\\.h");
        QStringList hits = filesIncluding("core", qcp) + filesIncluding("app", qcp);
        for (const QString& hit : filesIncluding("ui", qcp))
            if (!hit.contains("/ui/charts/")) hits << hit;
        QVERIFY2(hits.isEmpty(), qPrintable("qcustomplot.h outside ui/charts/: " + hits.join(", ")));
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
