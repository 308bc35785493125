// SearchSpace and SearchGrid against independent oracles: PHAZE's space is re-enumerated here in
// exact integer µm² from PHAZE's tables (tests/data/reference/phaze-area-tables.md, not through
// AreaModel) and must give the published 29,360 chips, in the same order and with the same areas;
// the area window and its waiver are checked on chips whose areas are summed by hand; the point
// numbering against its closed form; JSON by round trips and one case per validation rule.
#include <QFile>
#include <QTemporaryDir>
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

using tandem::core::hardware::AcceleratorConfig;
using tandem::core::hardware::PresetLibrary;
using tandem::core::hardware::Recompute;
using tandem::core::search::SearchGrid;
using tandem::core::search::SearchPoint;
using tandem::core::search::SearchSpace;
using tandem::core::search::VectorLanesRule;

namespace {

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

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

std::string errorOf(const std::string& json) {
    auto parsed = SearchSpace::parseJson(json, "test.json");
    return parsed.ok() ? std::string("(accepted)") : parsed.message();
}

SearchSpace handSpace() {
    SearchSpace s = SearchSpace::phaze();
    s.numTensorCores = {1, 2, 4, 8};
    s.tensorCoreRows = {128};
    s.tensorCoreCols = {128};
    s.numVectorCores = {1, 2};
    s.globalBufferBytes = {2 * kMiB};
    s.areaBudgetSquareMillimetres = 100;
    return s;
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

    void jsonRoundTrip() {
        const SearchSpace phaze = SearchSpace::phaze();
        auto back = SearchSpace::parseJson(phaze.toJson(), "phaze.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.message().c_str());
        QVERIFY(*back == phaze);

        SearchSpace custom = handSpace();
        custom.name = "custom, \"quoted\"";
        custom.base = *PresetLibrary::preset("a100-like");
        custom.vectorLanes = VectorLanesRule::Free;
        custom.vectorCoreLanes = {64, 16};
        custom.areaBudgetSquareMillimetres = 812.5;
        custom.minAreaFraction = 0.125;
        custom.allowAreaExtrapolation = true;
        custom.microbatchSizes = {3};
        custom.recompute = {Recompute::Auto, Recompute::Off};
        custom.tensorParallelWidths = {1, 3};
        QVERIFY(custom.validate().ok());
        back = SearchSpace::parseJson(custom.toJson(), "custom.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.message().c_str());
        QVERIFY(*back == custom);

        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("space.json").toStdString();
        QVERIFY(custom.saveFile(path).ok());
        auto loaded = SearchSpace::loadFile(path);
        QVERIFY(loaded.ok());
        QVERIFY(*loaded == custom);

        // Widths that are a run of powers of two are written as {"powersOfTwo": …} and must read
        // back (they did not: the reader took only "model" or a list).
        SearchSpace powers = custom;
        powers.tensorParallelWidths = {1, 2, 4, 8};
        QVERIFY(powers.toJson().find("powersOfTwo") != std::string::npos);
        back = SearchSpace::parseJson(powers.toJson(), "powers.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.message().c_str());
        QVERIFY(*back == powers);
        SearchSpace invalid = custom;
        invalid.microbatchSizes.clear();
        QVERIFY(!invalid.saveFile(path).ok());
        QVERIFY(*SearchSpace::loadFile(path) == custom);  // untouched
        auto missing = SearchSpace::loadFile(dir.filePath("nope.json").toStdString());
        QVERIFY(!missing.ok());
        QVERIFY(missing.message().find("nope.json") != std::string::npos);
    }

    void jsonDefaultsAndRanges() {
        auto s = SearchSpace::parseJson(
            "{\"format\": \"tandem-search-space\", \"version\": 1, \"base\": \"a100-like\","
            " \"accelerator\": {\"numTensorCores\": {\"powersOfTwo\": {\"min\": 4, \"max\": 64}},"
            " \"vectorCoreLanes\": [32, 8]}, \"microbatchSizes\": [2],"
            " \"hbmCapacityBytes\": [8.589934592e10], \"tensorParallelWidths\": \"model\"}",
            "partial.json");
        QVERIFY2(s.ok(), s.ok() ? "" : s.message().c_str());
        SearchSpace expected = SearchSpace::phaze();
        expected.base = *PresetLibrary::preset("a100-like");
        expected.numTensorCores = {4, 8, 16, 32, 64};
        expected.vectorLanes = VectorLanesRule::Free;
        expected.vectorCoreLanes = {32, 8};
        expected.microbatchSizes = {2};
        expected.hbmCapacityBytes = {80 * kGiB};
        QVERIFY(*s == expected);
    }

    void jsonValidationErrors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const QString h = "{\"format\": \"tandem-search-space\", \"version\": 1, ";
        const auto accel = [&](const QString& body) {
            return h + "\"accelerator\": {" + body + "}}";
        };
        QTest::newRow("no format") << "{\"version\": 1}"
                                   << "test.json: missing \"format\"";
        QTest::newRow("other format") << "{\"format\": \"tandem-hardware\", \"version\": 1}"
                                      << "is not a search space";
        QTest::newRow("newer") << "{\"format\": \"tandem-search-space\", \"version\": 2}"
                               << "newer Tandem";
        QTest::newRow("unknown key") << h + "\"foo\": 1}"
                                     << "unknown key \"foo\"; valid keys are";
        QTest::newRow("unknown accel key")
            << accel("\"bogus\": [1]") << "accelerator: unknown key \"bogus\"";
        QTest::newRow("range") << accel("\"numTensorCores\": [0, 2]")
                               << "test.json: search space: accelerator.numTensorCores[0] = 0 is "
                                  "out of range: must be an integer in [1, 65536] (cores)";
        QTest::newRow("duplicate") << accel("\"numTensorCores\": [2, 4, 2]")
                                   << "accelerator.numTensorCores lists 2 twice (entries 0 and 2)";
        QTest::newRow("empty") << accel("\"tensorCoreRows\": []")
                               << "accelerator.tensorCoreRows is empty";
        QTest::newRow("not a list") << accel("\"numVectorCores\": \"many\"")
                                    << "accelerator.numVectorCores must be a list of integers";
        QTest::newRow("fraction") << accel("\"numVectorCores\": [1.5]")
                                  << "accelerator.numVectorCores[0] must be an integer, found "
                                     "number 1.5";
        QTest::newRow("bad range") << accel(
                                          "\"globalBufferBytes\": {\"powersOfTwo\": {\"min\": 3, "
                                          "\"max\": 8}}")
                                   << "accelerator.globalBufferBytes.powersOfTwo = {min 3, max 8} "
                                      "is not a range";
        QTest::newRow("half range")
            << accel("\"globalBufferBytes\": {\"powersOfTwo\": {\"min\": 2}}")
            << "must be a list of integers or";
        QTest::newRow("tie") << accel("\"vectorCoreLanes\": \"tensorCoreRows\"")
                             << "accelerator.vectorCoreLanes = \"tensorCoreRows\" is not valid";
        QTest::newRow("hbm") << h + "\"hbmCapacityBytes\": [1024]}"
                             << "hbmCapacityBytes[0] = 1024 is out of range: must be an integer in "
                                "[1048576, ";
        QTest::newRow("mbs") << h + "\"microbatchSizes\": [0]}"
                             << "microbatchSizes[0] = 0 is out of range";
        QTest::newRow("recompute") << h + "\"recompute\": [\"maybe\"]}"
                                   << "recompute[0] = string \"maybe\" is not valid: must be one "
                                      "of off, on, auto";
        QTest::newRow("no recompute") << h + "\"recompute\": []}"
                                      << "recompute is empty";
        QTest::newRow("min fraction") << h + "\"minAreaFraction\": 1.5}"
                                      << "minAreaFraction = 1.5 is out of range: must be a number "
                                         "in [0, 1]";
        QTest::newRow("budget") << h + "\"areaBudgetSquareMillimetres\": 0}"
                                << "areaBudgetSquareMillimetres = 0 is out of range";
        QTest::newRow("budget type") << h + "\"areaBudgetSquareMillimetres\": \"big\"}"
                                     << "areaBudgetSquareMillimetres must be a number";
        QTest::newRow("extrapolation") << h + "\"allowAreaExtrapolation\": 1}"
                                       << "allowAreaExtrapolation must be true or false";
        QTest::newRow("width") << h + "\"tensorParallelWidths\": [0]}"
                               << "tensorParallelWidths[0] = 0 is out of range: must be an "
                                  "integer in [1, 1024] (devices)";
        QTest::newRow("no widths") << h + "\"tensorParallelWidths\": []}"
                                   << "tensorParallelWidths is an empty list";
        QTest::newRow("width word") << h + "\"tensorParallelWidths\": \"all\"}"
                                    << "tensorParallelWidths must be \"model\", a list";
        QTest::newRow("preset") << h + "\"base\": \"tpu-v9\"}"
                                << "test.json: base: ";
        QTest::newRow("base field")
            << h + "\"base\": {\"format\": \"tandem-hardware\", \"version\": 1, \"accelerator\": "
                   "{\"clockHz\": 0}}}"
            << "accelerator.clockHz = 0 is out of range";
        QTest::newRow("name") << h + "\"name\": 5}"
                              << "name must be a string";
        QTest::newRow("syntax") << "{"
                                << "test.json: invalid JSON";
        QTest::newRow("blank") << " \n"
                               << "test.json: the file is empty";
        QTest::newRow("array") << "[1]"
                               << "expected a JSON object";
        QString many;
        for (int i = 1; i <= 65; ++i) many += (i > 1 ? "," : "") + QString::number(i);
        QTest::newRow("long list") << accel("\"numTensorCores\": [" + many + "]")
                                   << "accelerator.numTensorCores has 65 values: at most 64";
        QTest::newRow("too many chips")
            << accel(
                   "\"numTensorCores\": {\"powersOfTwo\": {\"min\": 1, \"max\": 65536}}, "
                   "\"tensorCoreRows\": {\"powersOfTwo\": {\"min\": 1, \"max\": 4096}}, "
                   "\"tensorCoreCols\": {\"powersOfTwo\": {\"min\": 1, \"max\": 4096}}, "
                   "\"numVectorCores\": {\"powersOfTwo\": {\"min\": 1, \"max\": 65536}}, "
                   "\"vectorCoreLanes\": {\"powersOfTwo\": {\"min\": 1, \"max\": 4096}}, "
                   "\"globalBufferBytes\": {\"powersOfTwo\": {\"min\": 1024, \"max\": "
                   "68719476736}}")
            << "chips before the area window: at most 1048576 are allowed";
    }

    void jsonValidationErrors() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        const std::string error = errorOf(json.toStdString());
        QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
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
