// The size of a search before it starts (core/search/search_footprint.h), against counts done
// here: the shards' chips add up to the space's chips, each shard holding its share; the memory
// and time grow with the points as documented; a search that cannot fit is refused with what it
// needs, what is available and a shard count N whose every shard fits (and N − 1 would not);
// a shard that fits is not refused; a long search gets a warning, a short one none.
#include <QtTest>
#include <regex>
#include <string>

#include "core/common/system_memory.h"
#include "core/search/search_footprint.h"

using namespace tandem::core::search;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The N of "N ≥ n" in a refusal; 0 when there is none.
std::int64_t suggestedShards(const std::string& message) {
    std::smatch match;
    static const std::regex shards("N ≥ ([0-9]+)");
    return std::regex_search(message, match, shards) ? std::stoll(match[1]) : 0;
}

}  // namespace

class TestSearchFootprint : public QObject {
    Q_OBJECT
private slots:
    void shardsShareTheChips() {
        for (const std::int64_t chips : {0, 1, 7, 29360, 39424}) {
            for (const int count : {1, 2, 3, 8, 100, 40000}) {
                std::int64_t sum = 0;
                for (int k = 1; k <= count; ++k) {
                    std::int64_t counted = 0;  // c mod count = k − 1, counted one by one
                    for (std::int64_t c = k - 1; c < chips; c += count) ++counted;
                    QCOMPARE(chipsInShard(chips, k, count), counted);
                    sum += counted;
                }
                QCOMPARE(sum, chips);
            }
            QCOMPARE(chipsInShard(chips, 0, 0), chips);
        }
    }

    void memoryAndTimeGrowWithThePoints() {
        const SearchFootprint whole = estimateSearchFootprint(39424, 12288, 1, 2);
        QCOMPARE(whole.points, std::int64_t(39424) * 12288);  // 484 M points
        QCOMPARE(whole.bytes, kSearchBaseBytes + double(whole.points) * kSearchBytesPerPoint);
        QCOMPARE(whole.seconds, double(whole.points) / (2 * kSearchPointsPerSecondPerThread));
        const SearchFootprint shard = estimateSearchFootprint(39424, 12288, 1, 2, 3, 8);
        QCOMPARE(shard.points, std::int64_t(4928) * 12288);
        QVERIFY(shard.bytes < whole.bytes / 7);
        // A second model adds its throughput to every point, and its evaluation to the time.
        const SearchFootprint two = estimateSearchFootprint(39424, 12288, 2, 2);
        QCOMPARE(two.bytes - whole.bytes, double(whole.points) * kSearchBytesPerExtraModel);
        QCOMPARE(two.seconds, 2 * whole.seconds);
        QVERIFY(estimateSearchFootprint(1, 1, 1, 0).threads >= 1);  // 0: one per core
    }

    void aSpaceThatCannotFitIsRefusedWithAShardCount() {
        const std::int64_t available = std::int64_t(16) << 30;  // 16 GiB
        const SearchFootprint whole = estimateSearchFootprint(39424, 12288, 1, 2);
        const auto refused = checkSearchMemory(whole, available);
        QVERIFY(!refused.ok());
        const std::string message = refused.message();
        qInfo("%s", message.c_str());
        QVERIFY(contains(message, "484.4 M points") && contains(message, "16.0 GiB"));
        QVERIFY(contains(message, "--shard K/N") && contains(message, "merge"));
        const std::int64_t n = suggestedShards(message);
        QVERIFY(n > 1);
        for (int k = 1; k <= n; k += std::max<std::int64_t>(1, n / 7))
            QVERIFY(
                checkSearchMemory(estimateSearchFootprint(39424, 12288, 1, 2, k, int(n)), available)
                    .ok());
        // With one shard fewer, the largest shard (the first) does not fit.
        QVERIFY(!checkSearchMemory(estimateSearchFootprint(39424, 12288, 1, 2, 1, int(n - 1)),
                                   available)
                     .ok());
        // A shard that does not fit says the same of the whole search.
        const auto shard =
            checkSearchMemory(estimateSearchFootprint(39424, 12288, 1, 2, 1, 2), available);
        QVERIFY(!shard.ok() && contains(shard.message(), "this shard"));
        QCOMPARE(suggestedShards(shard.message()), n);
    }

    void whenNotOneChipFitsTheListsMustShrink() {
        const auto refused =
            checkSearchMemory(estimateSearchFootprint(10, 1 << 20, 1, 1), std::int64_t(1) << 30);
        QVERIFY(!refused.ok());
        QVERIFY2(contains(refused.message(), "not even the") &&
                     contains(refused.message(), "microbatch sizes"),
                 refused.message().c_str());
        QCOMPARE(suggestedShards(refused.message()), std::int64_t(0));
    }

    void whatFitsOrIsUnknownIsNotRefused() {
        const SearchFootprint phaze = estimateSearchFootprint(29360, 24, 1, 2);
        QVERIFY(checkSearchMemory(phaze, std::int64_t(4) << 30).ok());
        QVERIFY(checkSearchMemory(estimateSearchFootprint(39424, 12288, 1, 2), -1).ok());
        // This machine's figure is a real amount (or unknown).
        const std::int64_t here = tandem::core::availableMemoryBytes();
        QVERIFY(here == -1 || here > 0);
    }

    void onlyLongSearchesAreAnnounced() {
        QVERIFY(longSearchWarning(estimateSearchFootprint(29360, 24, 1, 2)).empty());
        const std::string warning = longSearchWarning(estimateSearchFootprint(1834, 24000, 1, 2));
        QVERIFY2(contains(warning, "44.02 M points") && contains(warning, "--shard K/N") &&
                     contains(warning, "points/s per thread"),
                 warning.c_str());
        QVERIFY(warning.size() < 600);
    }
};

QTEST_GUILESS_MAIN(TestSearchFootprint)
#include "test_search_footprint.moc"
