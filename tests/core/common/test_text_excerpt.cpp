// The one excerpting rule for user-supplied text in messages (core/common/text_excerpt.h): short
// text is quoted whole; long text is cut to the bound, never inside a UTF-8 sequence, with
// "..." marking the cut; long lists show their first items and "and N more". jsonExcerpt cuts
// JSON strings by the same rule.
#include <QtTest>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/common/json_document.h"
#include "core/common/text_excerpt.h"

using tandem::core::jsonExcerpt;
using tandem::core::kQuotedChars;
using tandem::core::listExcerpt;
using tandem::core::textExcerpt;

namespace {

// True when `text` is valid UTF-8 (the cut never splits a sequence).
bool validUtf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        if (i + n > text.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

}  // namespace

class TestTextExcerpt : public QObject {
    Q_OBJECT
private slots:
    void shortTextIsQuotedWhole() {
        QCOMPARE(textExcerpt("layer.0"), std::string("layer.0"));
        QCOMPARE(textExcerpt(""), std::string());
        const std::string exact(kQuotedChars, 'x');
        QCOMPARE(textExcerpt(exact), exact);
    }

    void longTextIsCutToTheBound() {
        const std::string huge(100000, 'x');
        const std::string shown = textExcerpt(huge);
        QCOMPARE(shown.size(), kQuotedChars);
        QVERIFY(shown.ends_with("..."));
        QCOMPARE(textExcerpt(huge, 20), std::string(17, 'x') + "...");
        QCOMPARE(textExcerpt(huge, 0).size(), std::size_t(8));  // at least 8
    }

    void aCutNeverSplitsAUtf8Sequence() {
        std::string text;
        for (int i = 0; i < 1000; ++i) text += "é€😀";  // 2-, 3- and 4-byte sequences
        for (std::size_t bound = 8; bound < 64; ++bound) {
            const std::string shown = textExcerpt(text, bound);
            QVERIFY(shown.size() <= bound);
            QVERIFY2(validUtf8(shown), shown.c_str());
        }
    }

    void longListsSayHowManyMore() {
        std::vector<std::string> items;
        for (int i = 0; i < 1234; ++i) items.push_back("op" + std::to_string(i));
        QCOMPARE(listExcerpt(std::vector<std::string>(items.begin(), items.begin() + 3)),
                 std::string("op0, op1, op2"));
        const std::string shown = listExcerpt(items, 4);
        QCOMPARE(shown, std::string("op0, op1, op2, op3 and 1,230 more"));
        // Each item is cut as well: 1,000 items of 100,000 characters stay short.
        const std::vector<std::string> huge(1000, std::string(100000, 'n'));
        QVERIFY(listExcerpt(huge).size() < 1500);
        QVERIFY(listExcerpt(huge).ends_with("and 992 more"));
        QCOMPARE(listExcerpt({}), std::string());
    }

    void jsonStringsAreCutByTheSameRule() {
        const std::string huge(100000, 'x');
        const std::string shown = jsonExcerpt(nlohmann::json(huge), 40);
        QVERIFY(shown.size() <= 44);
        QVERIFY(shown.find("...") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTextExcerpt)
#include "test_text_excerpt.moc"
