// Messages that quote what a user supplied stay short (issue 24, item 9): a 100,000-character
// flag value, layer name, command or flag name, or a shard whose "run" holds 100,000 characters
// is quoted through the one excerpting rule (core/common/text_excerpt.h), so every refusal is
// exit 2 with a message of a few hundred characters that still says what was wrong. Before,
// `schedule --layer` printed 100,074 characters and `merge` 100,128.
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/common/text_excerpt.h"
#include "tests/app/cli/cli_test_support.h"
#include "tests/support/test_paths.h"

using cli_test::run;
using Args = std::vector<std::string>;

namespace {

const std::string kHuge(100000, 'x');

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string mlp() {
    return tandem::test::testDataDir() + "/models/mlp.json";
}

// Exit 2, at most `maxChars` characters, no quote longer than the excerpting rule allows, and
// `expected` in the message.
void checkShortRefusal(const Args& args, const std::string& expected, std::size_t maxChars = 600) {
    const auto r = run(args);
    const std::string what = args[0] + " " + (args.size() > 1 ? args[1] : "");
    QVERIFY2(r.code == 2, (what + ": exit " + std::to_string(r.code)).c_str());
    QVERIFY2(r.err.size() <= maxChars,
             (what + ": a message of " + std::to_string(r.err.size()) + " characters").c_str());
    QVERIFY2(!contains(r.err, std::string(tandem::core::kQuotedChars, 'x')),
             (what + ": a quote longer than the excerpt").c_str());
    QVERIFY2(contains(r.err, expected), r.err.substr(0, 600).c_str());
}

}  // namespace

class TestCliMessages : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string path(const std::string& name) const {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void longFlagValuesAreExcerpted() {
        checkShortRefusal({"schedule", "--model", mlp(), "--layer", kHuge, "--time-limit", "1"},
                          "no layer named 'xxx");
        checkShortRefusal({"search", "--model", mlp(), "--cost-model", kHuge},
                          "is not one of: native, phaze-compat");
        checkShortRefusal({"search", "--model", mlp(), "--shard", kHuge}, "is not K/N");
        checkShortRefusal({"search", "--model", mlp(), "--explorer", kHuge}, "is unknown");
        checkShortRefusal({"search", "--model", mlp(), "--threads", kHuge}, "is not an integer");
        checkShortRefusal({"place", "--model", mlp(), "--strategy", kHuge}, "--strategy");
        checkShortRefusal({"place", "--model", mlp(), "--recompute", kHuge}, "is not one of");
        checkShortRefusal({"estimate", "--model", mlp(), "--set", "tensorCoreRows=" + kHuge},
                          "tensorCoreRows");
        // An unknown key is followed by the valid keys, which the message keeps.
        checkShortRefusal({"estimate", "--model", mlp(), "--set", kHuge + "=1"},
                          "unknown parameter", 1200);
        checkShortRefusal({"estimate", "--model", mlp(), "--tensor-core-rows", kHuge},
                          "tensorCoreRows");
        checkShortRefusal({kHuge}, "unknown command", 1200);  // followed by the usage
        // An unknown flag is followed by the valid flags, which the message keeps.
        checkShortRefusal({"estimate", "--" + kHuge}, "unknown flag", 1200);
    }

    void mergeQuotesShardMembersShortly() {
        // Two shards of a two-chip search with the small model, one of them edited.
        const std::string space = path("space.json");
        std::ofstream(space) << R"({"format": "tandem-search-space", "version": 1,
            "accelerator": {"numTensorCores": [4, 8], "tensorCoreRows": [128],
              "tensorCoreCols": [128], "numVectorCores": [2], "globalBufferBytes": [134217728]},
            "hbmCapacityBytes": [34359738368], "microbatchSizes": [1], "recompute": ["off"]})";
        for (const char* k : {"1", "2"}) {
            const auto r = run({"search", "--model", mlp(), "--space", space, "--threads", "1",
                                "--quiet", "--shard", std::string(k) + "/2", "--json",
                                path(std::string("shard") + k + ".json")});
            QVERIFY2(r.code == 0, r.err.c_str());
        }
        std::ifstream in(path("shard2.json"));
        const nlohmann::json shard = nlohmann::json::parse(in);
        for (const char* member : {"tandem_version", "cost_model"}) {
            nlohmann::json edited = shard;
            edited["run"][member] = kHuge;
            const std::string file = path(std::string("edited-") + member + ".json");
            std::ofstream(file) << edited.dump();
            checkShortRefusal({"merge", "--json", path("merged.json"), path("shard1.json"), file},
                              "are shards of different searches");
        }
    }
};

QTEST_GUILESS_MAIN(TestCliMessages)
#include "test_cli_messages.moc"
