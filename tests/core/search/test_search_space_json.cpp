// SearchSpace's JSON form (search_space_json.cpp): round trips of PHAZE's space and of custom
// ones (every field, powers-of-two widths, files saved and loaded atomically), the defaults and
// ranges a file may leave out, and one case per validation rule, each with its message.
#include <QTemporaryDir>
#include <QtTest>
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/hardware/preset_library.h"
#include "core/search/search_space.h"
#include "tests/core/search/search_test_support.h"

using search_test::handSpace;
using search_test::kGiB;
using search_test::kMiB;
using tandem::core::hardware::PresetLibrary;
using tandem::core::hardware::Recompute;
using tandem::core::search::SearchSpace;
using tandem::core::search::VectorLanesRule;

namespace {

std::string errorOf(const std::string& json) {
    auto parsed = SearchSpace::parseJson(json, "test.json");
    return parsed.ok() ? std::string("(accepted)") : parsed.message();
}

}  // namespace

class TestSearchSpaceJson : public QObject {
    Q_OBJECT
private slots:
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
        custom.clockHz = {1'410'000'000, 1'000'000'000};
        custom.hbmBandwidthBytesPerSecond = {2'039'000'000'000};
        QVERIFY(custom.validate().ok());
        // The registry's keys, as users write them in a space file.
        QVERIFY(custom.toJson().find("\"clockHz\": [\n      1410000000,") != std::string::npos);
        QVERIFY(custom.toJson().find("\"hbmBandwidthBytesPerSecond\"") != std::string::npos);
        // Not searched, they are left out of "accelerator" (the base names its own clock): PHAZE's
        // space file is as it was.
        QVERIFY(phaze.toJson().find("\"clockHz\": [") == std::string::npos);
        QVERIFY(phaze.toJson().find("\"hbmBandwidthBytesPerSecond\": [") == std::string::npos);
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
            " \"vectorCoreLanes\": [32, 8], \"clockHz\": [1.5e9, 1e9],"
            " \"hbmBandwidthBytesPerSecond\": {\"powersOfTwo\": {\"min\": 1099511627776,"
            " \"max\": 2199023255552}}}, \"microbatchSizes\": [2],"
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
        expected.clockHz = {1'500'000'000, 1'000'000'000};
        expected.hbmBandwidthBytesPerSecond = {std::int64_t(1) << 40, std::int64_t(1) << 41};
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
};

QTEST_GUILESS_MAIN(TestSearchSpaceJson)
#include "test_search_space_json.moc"
