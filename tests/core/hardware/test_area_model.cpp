// AreaModel against independent oracles: the tables are re-read from PHAZE's published tables
// (tests/data/reference/phaze-area-tables.md), interpolation is checked against the closed-form
// power law, and the whole model against PHAZE's published count of 29,360 configurations in its
// area window.
#include <QFile>
#include <QStringList>
#include <QtTest>
#include <cmath>
#include <vector>

#include "core/hardware/area_model.h"
#include "test_paths.h"

using tandem::core::hardware::AcceleratorConfig;
using tandem::core::hardware::AreaModel;

namespace {

struct Row {
    double size;
    double area;
};

// Reads the table whose area row starts with `areaRowPrefix`: its header is two lines above.
std::vector<Row> referenceTable(const QString& areaRowPrefix, double sizeScale) {
    QFile file(QString::fromStdString(tandem::test::testDataDir()) +
               "/reference/phaze-area-tables.md");
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
    const auto cells = [](const QString& line) {
        QStringList parts = line.split('|');
        parts = parts.mid(2, parts.size() - 3);  // drop the label and the empty ends
        QStringList out;
        for (QString p : parts) out << p.remove(',').remove("MiB").trimmed();
        return out;
    };
    for (int i = 2; i < lines.size(); ++i) {
        if (!lines[i].startsWith(areaRowPrefix)) continue;
        const QStringList sizes = cells(lines[i - 2]);
        const QStringList areas = cells(lines[i]);
        if (sizes.size() != areas.size()) return {};
        std::vector<Row> rows;
        for (int k = 0; k < sizes.size(); ++k)
            rows.push_back({sizes[k].toDouble() * sizeScale, areas[k].toDouble()});
        return rows;
    }
    return {};
}

constexpr double kMiB = 1024.0 * 1024.0;

AcceleratorConfig chip(std::int64_t tc, std::int64_t rows, std::int64_t cols, std::int64_t vc,
                       std::int64_t lanes, double glbMiB) {
    AcceleratorConfig c;
    c.numTensorCores = tc;
    c.tensorCoreRows = rows;
    c.tensorCoreCols = cols;
    c.numVectorCores = vc;
    c.vectorCoreLanes = lanes;
    c.globalBufferBytes = std::int64_t(glbMiB * kMiB);
    return c;
}

// Power law through (x0, a0) and (x1, a1), written differently from the implementation.
double powerLaw(double x0, double a0, double x1, double a1, double x) {
    const double exponent = std::log(a1 / a0) / std::log(x1 / x0);
    return a0 * std::pow(x / x0, exponent);
}

}  // namespace

class TestAreaModel : public QObject {
    Q_OBJECT

private slots:
    void referenceChipIsExact() {
        const AreaModel model;
        const auto um2 = model.areaSquareMicrometres(AcceleratorConfig{});
        QVERIFY2(um2.ok(), um2.ok() ? "" : um2.message().c_str());
        QCOMPARE(*um2, 278826676.0);
        const auto mm2 = model.areaSquareMillimetres(AcceleratorConfig{});
        QVERIFY(mm2.ok());
        QCOMPARE(*mm2, 278.826676);
        QCOMPARE(*mm2, AreaModel::kReferenceAreaSquareMillimetres);
        const auto parts = model.breakdown(AcceleratorConfig{});
        QVERIFY(parts.ok());
        QCOMPARE(parts->tensorCoresSquareMicrometres, 8.0 * 12899083.0);
        QCOMPARE(parts->vectorCoresSquareMicrometres, 2.0 * 105506.0);
        QCOMPARE(parts->globalBufferSquareMicrometres, 175423000.0);
        QCOMPARE(AreaModel::kMinAreaFraction, 0.3);
    }

    void tablesMatchReferenceDocument() {
        const auto tc = referenceTable("| TC area", 1.0);
        const auto vc = referenceTable("| VC area", 1.0);
        const auto glb = referenceTable("| GLB area", kMiB);
        QCOMPARE(tc.size(), std::size_t(15));
        QCOMPARE(vc.size(), std::size_t(8));
        QCOMPARE(glb.size(), std::size_t(7));
        const AreaModel model;
        QCOMPARE(AreaModel::tensorCoreTable().size(), tc.size());
        QCOMPARE(AreaModel::vectorCoreTable().size(), vc.size());
        QCOMPARE(AreaModel::globalBufferTable().size(), glb.size());
        for (const Row& r : tc) {
            QCOMPARE(*model.tensorCoreSquareMicrometres(r.size), r.area);
            // Every rows × cols split of the PE count gives the same tensor-core area.
            for (double rows = 1; rows <= r.size; rows *= 2) {
                const auto c = chip(1, std::int64_t(rows), std::int64_t(r.size / rows), 1, 2, 2);
                QCOMPARE(model.breakdown(c)->tensorCoresSquareMicrometres, r.area);
            }
        }
        for (const Row& r : vc) {
            QCOMPARE(*model.vectorCoreSquareMicrometres(r.size), r.area);
            QCOMPARE(model.breakdown(chip(1, 2, 2, 3, std::int64_t(r.size), 2))
                         ->vectorCoresSquareMicrometres,
                     3 * r.area);
        }
        for (const Row& r : glb) {
            QCOMPARE(*model.globalBufferSquareMicrometres(r.size), r.area);
            QCOMPARE(
                model.breakdown(chip(1, 2, 2, 1, 2, r.size / kMiB))->globalBufferSquareMicrometres,
                r.area);
        }
    }

    void interpolationIsPowerLawMonotoneAndBetweenNeighbours() {
        const AreaModel model;
        const auto check = [&](const std::vector<Row>& table, auto component) {
            QVERIFY(!table.empty());
            for (std::size_t i = 0; i + 1 < table.size(); ++i) {
                const Row a = table[i], b = table[i + 1];
                double previous = a.area;
                for (int step = 1; step < 64; ++step) {
                    const double x = a.size + (b.size - a.size) * step / 64.0;
                    const double area = *component(x);
                    QVERIFY2(area > previous, qPrintable(QString("not increasing at %1").arg(x)));
                    QVERIFY(area < b.area);
                    QVERIFY(std::fabs(area - powerLaw(a.size, a.area, b.size, b.area, x)) <=
                            1e-9 * area);
                    previous = area;
                }
                // At the geometric mean of two neighbours, log–log gives the geometric mean area.
                const double mid = *component(std::sqrt(a.size * b.size));
                QVERIFY(std::fabs(mid - std::sqrt(a.area * b.area)) <= 1e-9 * mid);
            }
        };
        check(referenceTable("| TC area", 1.0),
              [&](double x) { return model.tensorCoreSquareMicrometres(x); });
        check(referenceTable("| VC area", 1.0),
              [&](double x) { return model.vectorCoreSquareMicrometres(x); });
        check(referenceTable("| GLB area", kMiB),
              [&](double x) { return model.globalBufferSquareMicrometres(x); });
    }

    void a100LikeChipInterpolatesTheBuffer() {
        const AreaModel model;
        const auto parts = model.breakdown(chip(108, 32, 32, 108, 64, 40));
        QVERIFY2(parts.ok(), parts.ok() ? "" : parts.message().c_str());
        QCOMPARE(parts->tensorCoresSquareMicrometres, 108 * 816865.0);
        QCOMPARE(parts->vectorCoresSquareMicrometres, 108 * 54763.0);
        const double glb = powerLaw(32, 46750900, 64, 88605700, 40);
        QVERIFY(std::fabs(parts->globalBufferSquareMicrometres - glb) < 1e-6 * glb);
        QVERIFY(glb > 46750900 && glb < 88605700);
    }

    void outOfTableIsAnError() {
        const AreaModel model;
        struct Case {
            AcceleratorConfig config;
            const char* mustMention[3];
        };
        const Case cases[] = {
            {chip(8, 1, 1, 2, 128, 128), {"tensor core of 1 PEs", "[4 PEs, 65536 PEs]", "1 × 1"}},
            {chip(8, 512, 256, 2, 128, 128), {"131072 PEs", "[4 PEs, 65536 PEs]", "512 × 256"}},
            {chip(8, 128, 128, 2, 1, 128),
             {"vector core of 1 lanes", "[2 lanes, 256 lanes]", "vectorCoreLanes"}},
            {chip(8, 128, 128, 2, 512, 128), {"512 lanes", "[2 lanes, 256 lanes]", "lanes"}},
            {chip(8, 128, 128, 2, 128, 1),
             {"global buffer of 1048576 B (1 MiB)", "2 MiB", "128 MiB"}},
            {chip(8, 128, 128, 2, 128, 256),
             {"(256 MiB)", "[2097152 B (2 MiB), 134217728 B", "globalBufferBytes"}},
        };
        for (const Case& c : cases) {
            const auto area = model.areaSquareMillimetres(c.config);
            QVERIFY(!area.ok());
            for (const char* text : c.mustMention)
                QVERIFY2(area.message().find(text) != std::string::npos,
                         qPrintable(QString::fromStdString(area.message()) + " lacks " + text));
        }
        QVERIFY(!model.tensorCoreSquareMicrometres(3.999).ok());
        QVERIFY(!model.tensorCoreSquareMicrometres(std::nan("")).ok());
        QVERIFY(!model.globalBufferSquareMicrometres(-1).ok());
        QVERIFY(!model.breakdown(chip(0, 128, 128, 2, 128, 128)).ok());
        QVERIFY(!model.breakdown(chip(8, 128, 128, 0, 128, 128)).ok());
        QVERIFY(!model.breakdown(chip(8, 0, 128, 2, 128, 128)).ok());
    }

    void extrapolationIsOptIn() {
        const AreaModel model(true);
        QVERIFY(model.allowsExtrapolation());
        QVERIFY(!AreaModel().allowsExtrapolation());
        const double above = *model.tensorCoreSquareMicrometres(131072);
        QVERIFY(std::fabs(above - powerLaw(32768, 25802926, 65536, 51444202, 131072)) <
                1e-9 * above);
        const double below = *model.vectorCoreSquareMicrometres(1);
        QVERIFY(std::fabs(below - powerLaw(2, 7654, 4, 9173, 1)) < 1e-9 * below);
        QVERIFY(below < 7654);
        QVERIFY(model.globalBufferSquareMicrometres(1 * kMiB).ok());
        // Table points are still exact.
        QCOMPARE(*model.areaSquareMicrometres(AcceleratorConfig{}), 278826676.0);
    }

    void phazeSearchSpaceHas29360Configurations() {
        // PHAZE's space: num_tc, num_vc in 1..4096, TC width and depth in 2..256, VC width
        // tied to the TC width, GLB 2..128 MiB, kept when 0.3·A_max ≤ area ≤ A_max.
        const AreaModel model;
        int kept = 0, total = 0;
        for (std::int64_t tc = 1; tc <= 4096; tc *= 2)
            for (std::int64_t vc = 1; vc <= 4096; vc *= 2)
                for (std::int64_t w = 2; w <= 256; w *= 2)
                    for (std::int64_t d = 2; d <= 256; d *= 2)
                        for (double glb = 2; glb <= 128; glb *= 2) {
                            const AcceleratorConfig c = chip(tc, w, d, vc, w, glb);
                            const auto area = model.areaSquareMillimetres(c);
                            QVERIFY(area.ok());
                            ++total;
                            if (AreaModel::inPhazeAreaWindow(c, *area)) ++kept;
                        }
        QCOMPARE(total, 13 * 13 * 8 * 8 * 7);
        QCOMPARE(kept, 29360);
    }

    void areaWindowRules() {
        const AcceleratorConfig ref;
        const double budget = AreaModel::kReferenceAreaSquareMillimetres;
        QVERIFY(AreaModel::inPhazeAreaWindow(ref, budget));
        QVERIFY(!AreaModel::inPhazeAreaWindow(ref, std::nextafter(budget, 1e9)));
        QVERIFY(AreaModel::inPhazeAreaWindow(ref, 0.3 * budget));
        QVERIFY(!AreaModel::inPhazeAreaWindow(ref, 0.29 * budget));
        AcceleratorConfig oneTc = ref;
        oneTc.numTensorCores = 1;
        QVERIFY(AreaModel::inPhazeAreaWindow(oneTc, 0.01 * budget));
        AcceleratorConfig oneVc = ref;
        oneVc.numVectorCores = 1;
        QVERIFY(AreaModel::inPhazeAreaWindow(oneVc, 0.01 * budget));
        QVERIFY(!AreaModel::inPhazeAreaWindow(oneVc, 1.01 * budget));
    }
};

QTEST_GUILESS_MAIN(TestAreaModel)
#include "test_area_model.moc"
