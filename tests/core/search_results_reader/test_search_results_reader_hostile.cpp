// The search-results reader (core/io/search_results_reader.h) on malformed and hostile input:
// each case of the table is refused with a message that names the source and the field, every
// prefix of a valid file is refused, and random byte damage never crashes it. Keys it does not
// know are ignored. The valid file is a hand-built report (synthetic_report.h), mutated.
#include <QtTest>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "core/hardware/hardware_json.h"
#include "core/io/search_results_json.h"
#include "core/io/search_results_reader.h"
#include "report_compare.h"
#include "synthetic_report.h"

using namespace tandem::core;
using Json = nlohmann::ordered_json;

namespace {

constexpr const char* kSource = "hostile.json";

const std::string& validText() {
    static const std::string text = io::searchReportToJson(synthetic::report(20));
    return text;
}

QByteArray bytes(const std::string& text) {
    return QByteArray(text.data(), qsizetype(text.size()));
}

QByteArray mutated(const std::function<void(Json&)>& change) {
    Json json = Json::parse(validText());
    change(json);
    return bytes(json.dump());
}

// The valid file with one value replaced by raw text (what Json cannot hold: NaN, 1e999, …).
QByteArray withRaw(const std::function<Json&(Json&)>& at, const std::string& raw) {
    Json json = Json::parse(validText());
    at(json) = "@@RAW@@";
    std::string text = json.dump();
    text.replace(text.find("\"@@RAW@@\""), 9, raw);
    return bytes(text);
}

// The first full plan's key in "plans".
std::string firstPlanKey(const Json& json) {
    return json["plans"].begin().key();
}

void addRow(const char* name, const QByteArray& text, const char* expected) {
    QTest::newRow(name) << text << QString::fromUtf8(expected);
}

}  // namespace

class TestSearchResultsReaderHostile : public QObject {
    Q_OBJECT
private slots:
    void hostileInputIsAClearError_data();
    void hostileInputIsAClearError();
    void everyPrefixIsRefused();
    void damagedBytesNeverCrash();
    void unknownKeysAreIgnored();
};

void TestSearchResultsReaderHostile::hostileInputIsAClearError_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    const std::string valid = validText();
    using J = Json;

    // Not JSON, or not all of it.
    addRow("empty file", "", "hostile.json: the file is empty");
    addRow("only whitespace", " \n\t ", "hostile.json: the file is empty");
    addRow("truncated in the head", bytes(valid.substr(0, 30)), "hostile.json: invalid JSON");
    addRow("truncated in the points", bytes(valid.substr(0, valid.size() / 3)), "invalid JSON");
    addRow("truncated before the tail", bytes(valid.substr(0, valid.find("\"pareto\""))),
           "invalid JSON");
    addRow("trailing garbage", bytes(valid + "}"), "invalid JSON");
    addRow("invalid UTF-8", withRaw([](J& j) -> J& { return j["models"][0]; }, "\"\xff\xfe\""),
           "invalid JSON");
    addRow("bare NaN", withRaw([](J& j) -> J& { return j["points"][1]["objective"]; }, "NaN"),
           "invalid JSON");
    addRow("number past a double",
           withRaw([](J& j) -> J& { return j["points"][1]["throughput_samples_per_s"]; }, "1e999"),
           "the number 1e999 at line 1");
    addRow("nested 100 deep",
           withRaw([](J& j) -> J& { return j["base_hardware"]; },
                   std::string(100, '[') + std::string(100, ']')),
           "nested deeper than 64 levels of arrays and objects in base_hardware");
    addRow("nested 100,000 deep in an unknown key",
           withRaw([](J& j) -> J& { return j["future"]; },
                   std::string(100'000, '[') + std::string(100'000, ']')),
           "nested deeper than 64 levels");
    std::string duplicate = valid;
    duplicate.insert(1, "\"evaluated\":20,");
    addRow("duplicate top-level key", bytes(duplicate),
           "duplicate key \"evaluated\" at the top level");
    duplicate = valid;
    duplicate.insert(duplicate.find("{\"index\"") + 1, "\"status\":\"feasible\",");
    addRow("duplicate key in a point", bytes(duplicate), "duplicate key \"status\" in points[0]");

    // Other documents.
    addRow("top-level array", "[1, 2, 3]", "hostile.json: expected a JSON object");
    addRow("top-level number", "42", "expected a JSON object {\"format\"");
    addRow("project file",
           bytes(J{{"format", "tandem-project"}, {"version", 1}, {"model", "gpt2-xl"}}.dump()),
           "hostile.json: this is a Tandem project file (format \"tandem-project\"), not search "
           "results");
    addRow("model file", bytes(J{{"format", "tandem-model"}, {"version", 1}}.dump()),
           "this is a Tandem model file");
    addRow("hardware file",
           bytes(hardware::toHardwareJson(hardware::HardwarePoint{"h", "", {}, {}})),
           "this is a Tandem hardware file");
    addRow("unknown format", mutated([](J& j) { j["format"] = "spreadsheet"; }),
           "format \"spreadsheet\" is not \"tandem-search-results\"");
    addRow("format not a string", mutated([](J& j) { j["format"] = 1; }),
           "format: expected the string \"tandem-search-results\", found number 1");
    addRow("no format", mutated([](J& j) { j.erase("format"); }),
           "hostile.json: no \"format\" key");
    addRow("newer version", mutated([](J& j) { j["version"] = 2; }),
           "hostile.json: version: 2 is newer than this Tandem reads (1)");
    addRow("version a string", mutated([](J& j) { j["version"] = "1"; }),
           "version: expected an integer, found string \"1\"");

    // Wrong types, NaN-like strings, missing fields.
    addRow("points not an array", mutated([](J& j) { j["points"] = J::object(); }),
           "hostile.json: points: expected an array, found an object");
    addRow("point not an object", mutated([](J& j) { j["points"][0] = 5; }),
           "hostile.json: points[0]: expected an object, found number 5");
    addRow("NaN string", mutated([](J& j) { j["points"][1]["throughput_samples_per_s"] = "NaN"; }),
           "hostile.json: points[1].throughput_samples_per_s: expected a number, found string "
           "\"NaN\"");
    addRow("Infinity string", mutated([](J& j) { j["points"][4]["area_mm2"] = "Infinity"; }),
           "points[4].area_mm2: expected a number, found string \"Infinity\"");
    addRow("fractional microbatch", mutated([](J& j) { j["points"][0]["microbatch"] = 2.5; }),
           "points[0].microbatch: expected an integer, found number 2.5");
    addRow("microbatch a string", mutated([](J& j) { j["points"][0]["microbatch"] = "two"; }),
           "points[0].microbatch: expected an integer, found string \"two\"");
    addRow("no tensor cores",
           mutated([](J& j) { j["points"][0]["hardware"]["numTensorCores"] = 0; }),
           "points[0].hardware.numTensorCores = 0 is out of range: must be");
    addRow("unknown recompute", mutated([](J& j) { j["points"][3]["recompute"] = "sometimes"; }),
           "points[3].recompute: string \"sometimes\" is not a recompute setting");
    addRow("unknown status", mutated([](J& j) { j["points"][3]["status"] = "great"; }),
           "points[3].status: string \"great\" is not a point status");
    addRow("a 10 MB status",
           mutated([](J& j) { j["points"][3]["status"] = std::string(10'000'000, 'x'); }),
           "points[3].status: string \"xxx");
    addRow("missing status", mutated([](J& j) { j["points"][2].erase("status"); }),
           "hostile.json: points[2].status: missing");
    addRow("missing hardware", mutated([](J& j) { j["points"][0].erase("hardware"); }),
           "points[0].hardware: missing");
    addRow("plan shape a list", mutated([](J& j) { j["points"][0]["plan"] = J::array(); }),
           "points[0].plan: expected an object or null, found array");
    addRow("missing base hardware", mutated([](J& j) { j.erase("base_hardware"); }),
           "hostile.json: base_hardware: missing");
    addRow("base hardware out of range",
           mutated([](J& j) { j["base_hardware"]["accelerator"]["clockHz"] = -1; }),
           "hostile.json: base_hardware");
    addRow("models not an array", mutated([](J& j) { j["models"] = "synthetic-model"; }),
           "models: expected an array, found string");
    addRow("cancelled a string", mutated([](J& j) { j["cancelled"] = "yes"; }),
           "cancelled: expected true or false, found string \"yes\"");
    addRow("missing baseline", mutated([](J& j) { j["baselines"].erase("joint"); }),
           "hostile.json: baselines.joint: missing");
    addRow("baseline without its point",
           mutated([](J& j) { j["baselines"]["reference_fixed"].erase("point"); }),
           "baselines.reference_fixed.point: missing");
    addRow("unavailable baseline without a message",
           mutated([](J& j) { j["baselines"]["chip_only"].erase("message"); }),
           "baselines.chip_only.message: missing");
    addRow("two models, no objectives", mutated([](J& j) {
               j["models"] = {"synthetic-model", "other"};
           }),
           "points[0].objective: missing");
    addRow("two models, one set of baselines", mutated([](J& j) {
               j["models"] = {"synthetic-model", "other"};
               for (auto& p : j["points"]) p["objective"] = 1;
           }),
           "hostile.json: baselines.synthetic-model: missing");
    addRow("three throughputs for one model", mutated([](J& j) {
               j["points"][0]["model_throughputs_samples_per_s"] = {1, 2, 3};
           }),
           "points[0].model_throughputs_samples_per_s: 3 throughputs for 1 models");

    // Negative counts and huge numbers.
    addRow("negative evaluated", mutated([](J& j) { j["evaluated"] = -1; }),
           "hostile.json: evaluated: -1 is out of range: must be ≥ 0");
    addRow("negative skipped", mutated([](J& j) { j["skipped"] = -5; }),
           "skipped: -5 is out of range: must be ≥ 0");
    addRow("negative points in space", mutated([](J& j) { j["points_in_space"] = -20; }),
           "points_in_space: -20 is out of range");
    addRow("negative threads", mutated([](J& j) { j["threads"] = -2; }),
           "threads: -2 is out of range");
    addRow("negative elapsed", mutated([](J& j) { j["elapsed_s"] = -0.5; }),
           "elapsed_s: -0.5 is out of range: must be ≥ 0");
    addRow("negative throughput",
           mutated([](J& j) { j["points"][1]["throughput_samples_per_s"] = -1; }),
           "points[1].throughput_samples_per_s: -1 is out of range: must be ≥ 0");
    addRow("fewer points in the space than listed",
           mutated([](J& j) { j["points_in_space"] = 19; }),
           "hostile.json: points_in_space: 19 is fewer than the 20 points the file lists");
    addRow("evaluated not the point count", mutated([](J& j) { j["evaluated"] = 21; }),
           "evaluated: 21 does not match the 20 points the file lists");
    addRow("threads past int64",
           mutated([](J& j) { j["threads"] = std::uint64_t(18446744073709551615ULL); }),
           "threads: 18446744073709551615 is out of range");
    addRow("huge best", mutated([](J& j) { j["best"] = 99999999999LL; }),
           "hostile.json: best: 99999999999 is out of range: must be in [0, 19]");
    addRow("negative best", mutated([](J& j) { j["best"] = -1; }), "best: -1 is out of range");
    addRow("huge Pareto position", mutated([](J& j) { j["pareto"] = {1e300}; }),
           "pareto[0]: 1e+300 is out of range");
    addRow("huge point index", mutated([](J& j) { j["points"][0]["index"] = 1e30; }),
           "points[0].index: 1e+30 is out of range");
    addRow("index past the space", mutated([](J& j) {
               for (std::size_t i = 0; i < j["points"].size(); ++i)
                   j["points"][i]["index"] = i * 1000;
           }),
           "points[1].index: 1000 is past the space's 20 points");
    addRow("huge plans key", mutated([](J& j) {
               j["plans"]["123456789012345678901234567890"] = j["plans"][firstPlanKey(j)];
           }),
           "hostile.json: plans: key \"123456789012345678901234567890\" is not the position of a "
           "point (0 to 19, 20 points)");
    addRow("negative plans key", mutated([](J& j) { j["plans"]["-1"] = nullptr; }),
           "plans: key \"-1\" is not the position of a point");
    addRow("plans key with a leading zero", mutated([](J& j) { j["plans"]["01"] = nullptr; }),
           "plans: key \"01\" is not the position of a point");
    addRow("plans key past the points", mutated([](J& j) { j["plans"]["20"] = nullptr; }),
           "plans: key \"20\" is not the position of a point");

    // Plans.
    addRow("stage count disagrees",
           mutated([](J& j) { j["plans"][firstPlanKey(j)]["pipeline_stages"] = 7; }),
           ".pipeline_stages: 7 does not match the 3 stages listed");
    addRow("stage layers not a list",
           mutated([](J& j) { j["plans"][firstPlanKey(j)]["stages"][1]["layers"] = "block.1"; }),
           ".stages[1].layers: expected an array, found string");
    addRow("huge layer index",
           mutated([](J& j) { j["plans"][firstPlanKey(j)]["stages"][0]["layers"][0] = 1e10; }),
           ".stages[0].layers[0]: 10000000000 is out of range: must be in [0, 2147483647]");
    addRow("negative layer index",
           mutated([](J& j) { j["plans"][firstPlanKey(j)]["stages"][0]["layers"][0] = -1; }),
           ".stages[0].layers[0]: -1 is out of range");
    addRow("layer an object", mutated([](J& j) {
               j["plans"][firstPlanKey(j)]["stages"][0]["layers"][0] = J::object();
           }),
           ".stages[0].layers[0]: expected a layer name or index, found object");
    addRow("stage devices past 2^53", mutated([](J& j) {
               auto& stages = j["plans"][firstPlanKey(j)]["stages"];
               stages[0]["devices"] = std::int64_t(1) << 53;
               stages[1]["devices"] = std::int64_t(1) << 53;
           }),
           ".stages: the stages' devices add up to more than 2^53");
    addRow("plan that does not fit",
           mutated([](J& j) { j["plans"][firstPlanKey(j)]["fits"] = false; }),
           ".fits: a plan in search results always fits");
    addRow("plan cost model unknown",
           mutated([](J& j) { j["plans"][firstPlanKey(j)]["cost_model"] = "roofline"; }),
           ".cost_model: 'roofline' is not a cost model (native, phaze-compat)");
    addRow("plan memory missing",
           mutated([](J& j) { j["plans"][firstPlanKey(j)]["stages"][2].erase("memory"); }),
           ".stages[2].memory: missing");
    addRow("baseline plan throughput a string", mutated([](J& j) {
               j["baselines"]["reference_placed"]["plan"]["throughput_samples_per_s"] = "fast";
           }),
           "hostile.json: baselines.reference_placed.plan.throughput_samples_per_s: expected a "
           "number, found string \"fast\"");
}

void TestSearchResultsReaderHostile::hostileInputIsAClearError() {
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const auto read = io::parseSearchReportJson(
        std::string_view(text.constData(), std::size_t(text.size())), kSource);
    QVERIFY(!read.ok());
    const QString message = QString::fromStdString(read.message());
    QVERIFY2(message.startsWith("hostile.json: "), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY2(read.message().size() <= kMaxErrorChars + 100, "the message is not kept short");
}

void TestSearchResultsReaderHostile::everyPrefixIsRefused() {
    const std::string text = io::searchReportToJson(synthetic::report(3));
    QVERIFY(io::parseSearchReportJson(text, kSource).ok());
    const std::size_t end = text.find_last_not_of(" \n") + 1;  // the closing brace
    for (std::size_t cut = 0; cut < end; ++cut) {
        const auto read = io::parseSearchReportJson(std::string_view(text).substr(0, cut), kSource);
        QVERIFY2(!read.ok(), qPrintable(QString("prefix of %1 bytes was accepted").arg(cut)));
        QVERIFY(read.message().rfind("hostile.json: ", 0) == 0);
    }
}

void TestSearchResultsReaderHostile::damagedBytesNeverCrash() {
    const std::string valid = io::searchReportToJson(synthetic::report(6));
    std::mt19937_64 random(2024);
    std::uniform_int_distribution<std::size_t> place(0, valid.size() - 1);
    const char replacements[] = {'0', '9', '-', '.', 'e', '"', '{',  '}',  '[',
                                 ']', ',', ':', 'n', 't', ' ', '\\', '\0', '\xff'};
    std::uniform_int_distribution<std::size_t> pick(0, sizeof replacements - 1);
    int refused = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string text = valid;
        for (int k = 0; k < 1 + round % 4; ++k) text[place(random)] = replacements[pick(random)];
        const auto read = io::parseSearchReportJson(text, kSource);
        if (read.ok()) {
            QVERIFY(read->results);  // a damaged value that is still valid reads
            continue;
        }
        ++refused;
        QVERIFY2(read.message().rfind("hostile.json: ", 0) == 0, read.message().c_str());
    }
    QVERIFY(refused > 2000);
}

void TestSearchResultsReaderHostile::unknownKeysAreIgnored() {
    const io::SearchReport written = synthetic::report(24);
    Json json = Json::parse(io::searchReportToJson(written));
    json["written_by"] = {{"tool", "tandem 9"}, {"nested", {{"deep", {1, 2, 3}}}}};
    json["points"][0]["message"] = "a field a later writer adds";
    json["baselines"]["joint"]["note"] = true;
    const auto read = io::parseSearchReportJson(json.dump(), kSource);
    QVERIFY2(read.ok(), read.ok() ? "" : read.message().c_str());
    report_compare::report(*read, written);
}

QTEST_GUILESS_MAIN(TestSearchResultsReaderHostile)
#include "test_search_results_reader_hostile.moc"
