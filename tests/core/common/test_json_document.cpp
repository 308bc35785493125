// The JSON front door every reader of user files goes through (core/common/json_document.h):
// valid documents parse exactly as nlohmann's own parser does (random documents as the oracle);
// hostile ones — 100,000 levels of nesting, 1e999, duplicate keys, huge values in messages —
// are refused with a message that names the place, and never crash.
#include <QtTest>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "core/common/json_document.h"

using nlohmann::json;
using tandem::core::checkJsonKeys;
using tandem::core::Error;
using tandem::core::jsonShown;
using tandem::core::kMaxErrorChars;
using tandem::core::kMaxJsonDepth;
using tandem::core::parseJsonDocument;

namespace {

std::string errorOf(const std::string& text) {
    const auto parsed = parseJsonDocument(text, "f.json", "a test object");
    return parsed.ok() ? std::string("(accepted)") : parsed.message();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string nested(int levels, const std::string& open, const std::string& close,
                   const std::string& inner = "1") {
    std::string text;
    for (int i = 0; i < levels; ++i) text += open;
    text += inner;
    for (int i = 0; i < levels; ++i) text += close;
    return text;
}

json randomValue(std::mt19937& rng, int depth) {
    std::uniform_int_distribution<int> kind(0, depth > 6 ? 5 : 7);
    switch (kind(rng)) {
        case 0:
            return nullptr;
        case 1:
            return bool(rng() % 2);
        case 2:
            return std::int64_t(rng()) - (std::int64_t(1) << 31);
        case 3:
            return std::uint64_t(rng()) << 20;
        case 4:
            return std::ldexp(double(rng()), int(rng() % 600) - 300);
        case 5:
            return "s" + std::to_string(rng() % 1000) + "\u00e9\"\\";
        case 6: {
            json a = json::array();
            for (int i = int(rng() % 5); i > 0; --i) a.push_back(randomValue(rng, depth + 1));
            return a;
        }
        default: {
            json o = json::object();
            for (int i = int(rng() % 5); i > 0; --i)
                o["k" + std::to_string(rng() % 50)] = randomValue(rng, depth + 1);
            return o;
        }
    }
}

}  // namespace

class TestJsonDocument : public QObject {
    Q_OBJECT

private slots:
    void validDocumentsParseAsNlohmannDoes() {
        std::mt19937 rng(7);
        for (int i = 0; i < 500; ++i) {
            const json value = randomValue(rng, 0);
            const std::string text = value.dump(i % 3 == 0 ? 2 : -1);
            const auto ours = parseJsonDocument(text, "r.json", "anything");
            QVERIFY2(ours.ok(), ours.ok() ? "" : ours.message().c_str());
            QCOMPARE(QString::fromStdString(ours->dump()),
                     QString::fromStdString(json::parse(text).dump()));
        }
    }

    void emptyAndInvalidFiles() {
        QCOMPARE(QString::fromStdString(errorOf(" \n\t")),
                 QStringLiteral("f.json: the file is empty; expected a test object"));
        const std::string bad = errorOf("{\n  \"a\": trux\n}");
        QVERIFY2(contains(bad, "f.json: invalid JSON: ") && contains(bad, "line 2"), bad.c_str());
        QVERIFY(contains(errorOf("{\"a\": 1"), "invalid JSON"));
        QVERIFY(contains(errorOf("[1, 2] x"), "invalid JSON"));
    }

    void deepNestingIsRefusedNotACrash() {
        for (const auto& [open, close] : {std::pair{"[", "]"}, std::pair{"{\"a\":", "}"}}) {
            const std::string e = errorOf(nested(100000, open, close));
            QVERIFY2(contains(e, "nested deeper than 64 levels"), e.c_str());
            QVERIFY(e.size() < 600);  // the message names the place, briefly
            QVERIFY(errorOf(nested(kMaxJsonDepth, open, close)) == "(accepted)");
            QVERIFY(errorOf(nested(kMaxJsonDepth + 1, open, close)) != "(accepted)");
        }
        // Unclosed deep nesting is refused the same way, before the missing brackets matter.
        QVERIFY(contains(errorOf(std::string(200000, '[')), "nested deeper"));
    }

    void placesAreNamed() {
        // A deep place shows its innermost part: "...x.x.x" (80 characters after the dots).
        const std::string deep = errorOf(nested(70, "{\"x\":", "}"));
        std::string tail = "x";
        while (tail.size() < 80) tail = "x." + tail;
        tail = tail.substr(tail.size() - 80);
        QVERIFY2(contains(deep, " at ..." + tail) && deep.size() < 200, deep.c_str());
        QVERIFY(contains(errorOf(R"({"a": {"b": [1, 2, 1e999]}})"), "at a.b[2]"));
        const std::string dup = errorOf(R"({"a": {"b": [1, {"c": 1, "c": 2}]}})");
        QVERIFY2(contains(dup, "duplicate key \"c\" in a.b[1]"), dup.c_str());
    }

    void numbersOutOfRange() {
        const std::string e = errorOf(R"({"layers": [1, 1e999]})");
        QVERIFY2(contains(e, "the number 1e999 at layers[1]") && contains(e, "out of range"),
                 e.c_str());
        QVERIFY(contains(errorOf("-1e400"), "out of range"));
        QVERIFY(contains(errorOf("[" + std::string(400, '9') + "]"), "out of range"));
        QVERIFY(errorOf("1.7e308") == "(accepted)");
        QVERIFY(errorOf("18446744073709551615") == "(accepted)");
    }

    void duplicateKeys() {
        QVERIFY(contains(errorOf(R"({"a": 1, "a": 2})"), "duplicate key \"a\" in the top level"));
        QCOMPARE(errorOf(R"({"a": {"k": 1}, "b": {"k": 2}})"), std::string("(accepted)"));
        QCOMPARE(errorOf(R"([{"k": 1}, {"k": 2}])"), std::string("(accepted)"));
    }

    void shownValuesStayShort() {
        QCOMPARE(QString::fromStdString(jsonShown(json(42))), QStringLiteral("number 42"));
        QCOMPARE(QString::fromStdString(jsonShown(json("ab"))), QStringLiteral("string \"ab\""));
        json deep = json::array();
        for (int i = 0; i < 100000; ++i) deep = json::array({std::move(deep)});
        const std::string shown = jsonShown(deep);
        QVERIFY2(shown.size() <= 46 && shown.rfind("array [[[", 0) == 0, shown.c_str());
        const std::string big = jsonShown(json(std::string(10'000'000, 'x')));
        QVERIFY(big.size() <= 47 && contains(big, "..."));
        const std::string utf8 = jsonShown(json(std::string(100, '\xc3') + ""));
        QVERIFY(!utf8.empty());
        json wide = json::object();
        for (int i = 0; i < 100000; ++i) wide["key" + std::to_string(i)] = i;
        QVERIFY(jsonShown(wide).size() <= 47);  // "object " and at most 40 characters
    }

    void longErrorMessagesKeepTheirEnds() {
        // Error shortens what a hostile value would blow up: the start (file, place) and the
        // end (what is allowed) survive; a cut never splits a UTF-8 sequence.
        const std::string head = "model.json: layers[1].same_as: '";
        const std::string tail = "' is not the name of an earlier layer";
        const Error e{head + std::string(1 << 20, 'x') + tail};
        QVERIFY2(e.message.size() < kMaxErrorChars + 80, std::to_string(e.message.size()).c_str());
        QVERIFY(e.message.rfind(head, 0) == 0);
        QVERIFY(e.message.size() >= tail.size() &&
                e.message.compare(e.message.size() - tail.size(), tail.size(), tail) == 0);
        QVERIFY(contains(e.message, "characters left out"));
        std::string accents;
        while (accents.size() < 5000) accents += "\xc3\xa9";  // é
        const std::string cut = Error{accents}.message;
        QVERIFY(QString::fromUtf8(cut.data(), qsizetype(cut.size())).toUtf8().toStdString() == cut);
        const std::string shortText = "a short message";
        QCOMPARE(Error{shortText}.message, shortText);
    }

    void unknownKeys() {
        const char* const keys[] = {"a", "b"};
        QVERIFY(checkJsonKeys(json{{"a", 1}}, keys, "x: ").ok());
        const auto bad = checkJsonKeys(json{{"a", 1}, {"zz", 2}}, keys, "x: ");
        QCOMPARE(QString::fromStdString(bad.message()),
                 QStringLiteral("x: unknown key \"zz\"; valid keys are a, b"));
    }
};

QTEST_GUILESS_MAIN(TestJsonDocument)
#include "test_json_document.moc"
