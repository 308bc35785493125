// SearchSpace and SearchGrid against independent oracles: PHAZE's space is re-enumerated here in
// exact integer µm² from PHAZE's tables (tests/data/reference/phaze-area-tables.md, not through
// AreaModel) and must give the published 29,360 chips, in the same order and with the same areas;
// the area window and its waiver are checked on chips whose areas are summed by hand; the point
// numbering against its closed form; the API's validation one case per rule. The JSON form is
// test_search_space_json.cpp.
#include <QFile>
#include <QtTest>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/search/search_grid.h"
#include "core/search/search_space.h"
#include "test_paths.h"
#include "tests/core/search/search_test_support.h"

using tandem::core::hardware::AcceleratorConfig;
using tandem::core::hardware::PresetLibrary;
using tandem::core::hardware::Recompute;
using tandem::core::search::SearchGrid;
using tandem::core::search::SearchPoint;
using tandem::core::search::SearchSpace;
using tandem::core::search::VectorLanesRule;

namespace {

using search_test::handSpace;
using search_test::kGiB;
using search_test::kMiB;

// One "| label | v | v | ... |" row of the area tables as integers (thousands separators dropped;
// "2 MiB" read as 2). The widest row wins: "| GLB |" also labels a row of the space table.
std::vector<std::int64_t> tableRow(const QString& text, const QString& label) {
    std::vector<std::int64_t> best;
    for (const QString& line : text.split('\n')) {
        if (!line.startsWith("| " + label + " |")) continue;
        const QStringList cells = line.split('|', Qt::SkipEmptyParts);
        std::vector<std::int64_t> values;
        for (int i = 1; i < cells.size(); ++i) {
            QString cell = cells[i].trimmed();
            cell.remove(',');
            cell = cell.section(' ', 0, 0);
            values.push_back(cell.toLongLong());
        }
        if (values.size() > best.size()) best = values;
    }
    return best;
}

struct Oracle {
    std::map<std::int64_t, std::int64_t> tc, vc, glb;  // size → µm²
};

Oracle readTables() {
    QFile file(QString::fromStdString(tandem::test::testDataDir()) +
               "/reference/phaze-area-tables.md");
    Oracle oracle;
    if (!file.open(QIODevice::ReadOnly)) return oracle;
    const QString text = QString::fromUtf8(file.readAll());
    const auto fill = [&](std::map<std::int64_t, std::int64_t>& table, const QString& sizes,
                          const QString& areas, std::int64_t unit) {
        const auto s = tableRow(text, sizes);
        const auto a = tableRow(text, areas);
        for (std::size_t i = 0; i < s.size() && i < a.size(); ++i) table[s[i] * unit] = a[i];
    };
    fill(oracle.tc, "PEs per TC (w·d)", "TC area µm²", 1);
    fill(oracle.vc, "VC lanes", "VC area µm²", 1);
    fill(oracle.glb, "GLB", "GLB area µm²", kMiB);
    return oracle;
}

}  // namespace

class TestSearchSpace : public QObject {
    Q_OBJECT

private slots:
    void phazeSpaceMatchesIndependentEnumeration() {
        const Oracle o = readTables();
        QCOMPARE(int(o.tc.size()), 15);
        QCOMPARE(int(o.vc.size()), 8);
        QCOMPARE(int(o.glb.size()), 7);
        const std::int64_t budget = 278826676;  // µm², the reference chip
        struct Expected {
            std::int64_t tc, rows, cols, vc, glb, area;
        };
        std::vector<Expected> expected;
        std::int64_t tiedToRows = 0;
        for (std::int64_t tc = 1; tc <= 4096; tc *= 2)
            for (std::int64_t rows = 2; rows <= 256; rows *= 2)
                for (std::int64_t cols = 2; cols <= 256; cols *= 2)
                    for (std::int64_t vc = 1; vc <= 4096; vc *= 2)
                        for (std::int64_t glb = 2 * kMiB; glb <= 128 * kMiB; glb *= 2) {
                            const auto keep = [&](std::int64_t lanes) {
                                const std::int64_t area =
                                    tc * o.tc.at(rows * cols) + vc * o.vc.at(lanes) + o.glb.at(glb);
                                return area <= budget &&
                                       (tc == 1 || vc == 1 || 10 * area >= 3 * budget);
                            };
                            if (keep(cols))
                                expected.push_back({tc, rows, cols, vc, glb,
                                                    tc * o.tc.at(rows * cols) + vc * o.vc.at(cols) +
                                                        o.glb.at(glb)});
                            if (keep(rows)) ++tiedToRows;
                        }
        QCOMPARE(int(expected.size()), 29360);
        // The other reading of "tied to the TC width" keeps as many chips (rows ↔ cols).
        QCOMPARE(tiedToRows, std::int64_t(29360));

        auto grid = SearchGrid::create(SearchSpace::phaze());
        QVERIFY2(grid.ok(), grid.ok() ? "" : grid.message().c_str());
        QCOMPARE(grid->chipCount(), std::int64_t(29360));
        QCOMPARE(grid->optionsPerChip(), std::int64_t(24));
        QCOMPARE(grid->pointCount(), std::int64_t(704640));
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const auto& chip = grid->chips()[i];
            const AcceleratorConfig& a = chip.accelerator;
            const Expected& e = expected[i];
            QCOMPARE(a.numTensorCores, e.tc);
            QCOMPARE(a.tensorCoreRows, e.rows);
            QCOMPARE(a.tensorCoreCols, e.cols);
            QCOMPARE(a.numVectorCores, e.vc);
            QCOMPARE(a.vectorCoreLanes, e.cols);
            QCOMPARE(a.globalBufferBytes, e.glb);
            QCOMPARE(chip.areaSquareMicrometres, double(e.area));
            QCOMPARE(chip.areaSquareMillimetres, double(e.area) / 1e6);
            QCOMPARE(a.clockHz, 1.05e9);
            QCOMPARE(a.hbmBandwidthBytesPerSecond, 1.2e12);
        }
    }

    void phazePresetFields() {
        const SearchSpace s = SearchSpace::phaze();
        QCOMPARE(QString::fromStdString(s.name), QString("phaze"));
        QCOMPARE(s.numTensorCores.size(), std::size_t(13));
        QCOMPARE(s.numTensorCores.back(), std::int64_t(4096));
        QCOMPARE(s.tensorCoreRows.front(), std::int64_t(2));
        QCOMPARE(s.tensorCoreCols.back(), std::int64_t(256));
        QVERIFY(s.vectorLanes == VectorLanesRule::TiedToTensorCoreCols);
        QVERIFY(s.vectorCoreLanes.empty());
        QCOMPARE(s.globalBufferBytes,
                 (std::vector<std::int64_t>{2 * kMiB, 4 * kMiB, 8 * kMiB, 16 * kMiB, 32 * kMiB,
                                            64 * kMiB, 128 * kMiB}));
        QCOMPARE(s.hbmCapacityBytes, (std::vector<std::int64_t>{32 * kGiB, 64 * kGiB, 80 * kGiB}));
        QCOMPARE(s.microbatchSizes, (std::vector<std::int64_t>{1, 2, 4, 8}));
        QVERIFY(s.recompute == (std::vector<Recompute>{Recompute::Off, Recompute::On}));
        QVERIFY(s.tensorParallelWidths.empty());
        QCOMPARE(s.areaBudgetSquareMillimetres, 278.826676);
        QCOMPARE(s.minAreaFraction, 0.3);
        auto preset = PresetLibrary::preset("tpuv4-like");
        QVERIFY(preset.ok());
        QVERIFY(s.base.accelerator == preset->accelerator);
        QVERIFY(s.base.cluster == preset->cluster);
        QVERIFY(s.validate().ok());
        QCOMPARE(SearchSpace::powersOfTwo(4, 32), (std::vector<std::int64_t>{4, 8, 16, 32}));
        QVERIFY(SearchSpace::powersOfTwo(3, 32).empty());
        QVERIFY(SearchSpace::powersOfTwo(64, 32).empty());
    }

    void areaWindowAndWaiver() {
        // Areas by hand from the tables: TC(16384) 12,899,083, VC(128) 105,506, GLB(2 MiB)
        // 3,338,220 µm². Window [30, 100] mm².
        auto grid = SearchGrid::create(handSpace());
        QVERIFY(grid.ok());
        const std::vector<std::pair<std::int64_t, std::int64_t>> kept = {
            {1, 1}, {1, 2}, {2, 1}, {4, 1}, {4, 2}};
        const std::vector<double> areas = {16342809, 16448315, 29241892, 55040058, 55145564};
        QCOMPARE(grid->chipCount(), std::int64_t(kept.size()));
        for (std::size_t i = 0; i < kept.size(); ++i) {
            QCOMPARE(grid->chips()[i].accelerator.numTensorCores, kept[i].first);
            QCOMPARE(grid->chips()[i].accelerator.numVectorCores, kept[i].second);
            QCOMPARE(grid->chips()[i].areaSquareMicrometres, areas[i]);
        }
        // (2, 2) is 29.347398 mm² < 30 with no single core: dropped; kept without the floor.
        SearchSpace noFloor = handSpace();
        noFloor.minAreaFraction = 0;
        QCOMPARE(SearchGrid::create(noFloor)->chipCount(), std::int64_t(6));
        // The budget is inclusive, the waiver does not lift it: (8, 1) at 106.6 mm² is out.
        SearchSpace tight = handSpace();
        tight.numTensorCores = {2};
        tight.numVectorCores = {2};
        tight.areaBudgetSquareMillimetres = 29.347398;
        QCOMPARE(SearchGrid::create(tight)->chipCount(), std::int64_t(1));
        tight.areaBudgetSquareMillimetres = std::nextafter(29.347398, 0.0);
        auto empty = SearchGrid::create(tight);
        QVERIFY(!empty.ok());
        QVERIFY2(empty.message().find("no chip lies in the area window") != std::string::npos,
                 empty.message().c_str());
        // The reference chip sits exactly on PHAZE's budget.
        SearchSpace reference = handSpace();
        reference.numTensorCores = {8};
        reference.numVectorCores = {2};
        reference.globalBufferBytes = {128 * kMiB};
        reference.areaBudgetSquareMillimetres = 278.826676;
        auto one = SearchGrid::create(reference);
        QVERIFY(one.ok());
        QCOMPARE(one->chips()[0].areaSquareMicrometres, 278826676.0);
    }

    void pointNumbering() {
        SearchSpace s = handSpace();
        s.microbatchSizes = {1, 4, 8};
        s.recompute = {Recompute::On, Recompute::Off};
        s.hbmCapacityBytes = {16 * kGiB, 80 * kGiB};
        auto grid = SearchGrid::create(s);
        QVERIFY(grid.ok());
        QCOMPARE(grid->pointCount(), std::int64_t(5 * 3 * 2 * 2));
        std::int64_t index = 0;
        for (std::int64_t c = 0; c < grid->chipCount(); ++c)
            for (std::size_t m = 0; m < 3; ++m)
                for (std::size_t r = 0; r < 2; ++r)
                    for (std::size_t h = 0; h < 2; ++h, ++index) {
                        QCOMPARE(grid->pointIndex(c, m, r, h), index);
                        const SearchPoint p = grid->point(index);
                        QCOMPARE(p.index, index);
                        QCOMPARE(p.chipIndex, c);
                        QCOMPARE(p.microbatchSize, s.microbatchSizes[m]);
                        QVERIFY(p.recompute == s.recompute[r]);
                        QCOMPARE(p.hbmCapacityBytes(), s.hbmCapacityBytes[h]);
                        AcceleratorConfig expected = grid->chips()[std::size_t(c)].accelerator;
                        expected.hbmCapacityBytes = s.hbmCapacityBytes[h];
                        QVERIFY(p.accelerator == expected);
                        QCOMPARE(p.areaSquareMillimetres,
                                 grid->chips()[std::size_t(c)].areaSquareMillimetres);
                    }
    }

    void widthsComeFromTheModelUnlessGiven() {
        auto model = tandem::core::model::zooModel("megatron-gpt2-2.5b");
        QVERIFY(model.ok());
        SearchSpace s = SearchSpace::phaze();
        QCOMPARE(s.widthsFor(**model), (std::vector<std::int64_t>{1, 2, 4}));
        s.tensorParallelWidths = {2, 8};
        QCOMPARE(s.widthsFor(**model), (std::vector<std::int64_t>{2, 8}));
    }

    void optionalFieldsMultiplyTheChips() {
        // Clock and HBM bandwidth are searched when they list values: every chip of the space
        // without them comes once per combination, the clock turning fastest (it follows the
        // bandwidth's position in kSearchedFields, so bandwidth is the last wheel).
        const SearchSpace plain = handSpace();
        SearchSpace fast = plain;
        fast.clockHz = {1'000'000'000, 2'000'000'000};
        fast.hbmBandwidthBytesPerSecond = {600'000'000'000, 2'400'000'000'000};
        QVERIFY(!plain.searches(tandem::core::search::kSearchedFields[6]));
        QVERIFY(fast.searches(tandem::core::search::kSearchedFields[6]));
        const auto base = plain.enumerateChips();
        const auto chips = fast.enumerateChips();
        QVERIFY(base.ok() && chips.ok());
        QCOMPARE(chips->size(), base->size() * 4);
        for (std::size_t k = 0; k < base->size(); ++k)
            for (std::size_t j = 0; j < 4; ++j) {
                const auto& chip = (*chips)[4 * k + j];
                AcceleratorConfig expected = (*base)[k].accelerator;
                expected.clockHz = j < 2 ? 1e9 : 2e9;
                expected.hbmBandwidthBytesPerSecond = j % 2 ? 2.4e12 : 6e11;
                QVERIFY(chip.accelerator == expected);
                QCOMPARE(chip.areaSquareMicrometres, (*base)[k].areaSquareMicrometres);
            }
        // Not searched: the base's clock on every chip.
        for (const auto& chip : *base)
            QCOMPARE(chip.accelerator.clockHz, plain.base.accelerator.clockHz);

        SearchSpace bad = plain;
        bad.clockHz = {1'000'000'000, 5};
        QVERIFY2(bad.validate().message().find("accelerator.clockHz[1] = 5 is out of range") !=
                     std::string::npos,
                 bad.validate().message().c_str());
        bad.clockHz = {1'000'000'000, 1'000'000'000};
        QVERIFY(bad.validate().message().find("accelerator.clockHz lists") != std::string::npos);
    }

    void apiValidationErrors() {
        SearchSpace tied = handSpace();
        tied.vectorCoreLanes = {128};
        QVERIFY(tied.validate().message().find("tied to tensorCoreCols but also lists 1 values") !=
                std::string::npos);
        SearchSpace free = handSpace();
        free.vectorLanes = VectorLanesRule::Free;
        QVERIFY(free.validate().message().find("accelerator.vectorCoreLanes is empty") !=
                std::string::npos);
        // 4096 × 4096 PEs lie outside the tensor-core table: an error naming the chip, unless
        // extrapolation is allowed.
        SearchSpace huge = handSpace();
        huge.numTensorCores = {1};
        huge.tensorCoreRows = {4096};
        huge.tensorCoreCols = {4096};
        huge.areaBudgetSquareMillimetres = 1e9;
        auto chips = huge.enumerateChips();
        QVERIFY(!chips.ok());
        QVERIFY2(
            chips.message().find("tensorCoreRows 4096, tensorCoreCols 4096") != std::string::npos &&
                chips.message().find("outside the area table") != std::string::npos,
            chips.message().c_str());
        huge.allowAreaExtrapolation = true;
        QVERIFY(huge.enumerateChips().ok());
        SearchSpace badBase = handSpace();
        badBase.base.cluster.devicesPerNode = 4096;
        QVERIFY(badBase.validate().message().find("search space: base: cluster.devicesPerNode") !=
                std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSearchSpace)
#include "test_search_space.moc"
