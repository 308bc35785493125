// Bounded fuzzing of every model loader behind loadModel (Hugging Face config.json, native Tandem
// model JSON, ONNX): random mutations of valid inputs, with a fixed seed so that a failure
// reproduces (TANDEM_FUZZ_SEED varies it). Each loader gets a fixed number of inputs
// (TANDEM_FUZZ_INPUTS, default 2000), so every machine tries the same ones, however fast it is;
// a failing input is kept as importers_fuzz_failure.<ext> in the working directory (a crash or a
// hang, which ctest's timeout ends, leaves the last input in fuzz.<ext> there too). Properties:
// nothing crashes; every failure is an error value whose message names the file; every model
// that loads also builds or refuses to build with an error value, and what builds stays within
// the loaders' limit on layers (so no input makes unbounded work; how long an input takes is
// reported, never asserted) and can be estimated.
#include <QDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

#include "core/estimate/model_estimate.h"
#include "core/hardware/preset_library.h"
#include "core/importers/model_loader.h"
#include "test_paths.h"

using namespace tandem::core;
using Clock = std::chrono::steady_clock;

namespace {

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// TANDEM_FUZZ_SEED shifts the seeds for exploratory runs; CI uses the fixed ones.
std::uint64_t seedOffset() {
    return qgetenv("TANDEM_FUZZ_SEED").toULongLong();
}

int inputsPerLoader() {
    bool ok = false;
    const int value = qEnvironmentVariableIntValue("TANDEM_FUZZ_INPUTS", &ok);
    return ok && value > 0 ? value : 2000;
}

// The most layers a loaded model may build: the transformer limit (10,000 blocks) plus the
// embedding and the head. Fuzzed ONNX graphs are far smaller.
constexpr std::size_t kMaxLayers = 10000 + 2;

class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : rng_(seed) {}

    std::size_t below(std::size_t n) { return n == 0 ? 0 : std::size_t(rng_() % n); }

    // Byte-level mutations, the kind that corrupt binary formats.
    void bytes(std::string& s, const std::vector<std::string>& corpus) {
        const int rounds = 1 + int(below(4));
        for (int r = 0; r < rounds; ++r) {
            if (s.empty()) {
                s.push_back(char(rng_()));
                continue;
            }
            const std::size_t at = below(s.size());
            switch (below(8)) {
                case 0:
                    s[at] = char(s[at] ^ (1 << below(8)));
                    break;
                case 1: {
                    static const unsigned char interesting[] = {0, 1, 0x7F, 0x80, 0xFF, 0x08, 0x12};
                    s[at] = char(interesting[below(sizeof interesting)]);
                    break;
                }
                case 2:
                    s.erase(at, 1 + below(std::min<std::size_t>(64, s.size() - at)));
                    break;
                case 3:
                    s.insert(at, s.substr(below(s.size()), 1 + below(32)));
                    break;
                case 4:
                    s.insert(at, 1 + below(8), char(rng_()));
                    break;
                case 5:
                    s.resize(at);
                    break;
                case 6: {  // splice in a piece of another input
                    const std::string& other = corpus[below(corpus.size())];
                    if (!other.empty()) {
                        const std::size_t from = below(other.size());
                        s.replace(at, below(64), other.substr(from, 1 + below(256)));
                    }
                    break;
                }
                default:
                    s[at] = char(rng_());
                    break;
            }
        }
    }

    // Token-level mutations for JSON: values of the wrong type or range, lost keys and commas.
    void json(std::string& s) {
        static const char* const values[] = {"-1",
                                             "0",
                                             "1",
                                             "7",
                                             "3.5",
                                             "1e308",
                                             "-1e308",
                                             "18446744073709551616",
                                             "9223372036854775807",
                                             "\"text\"",
                                             "null",
                                             "true",
                                             "false",
                                             "[]",
                                             "{}",
                                             "[1,2]",
                                             "{\"a\": 1}",
                                             "\"gpt2\"",
                                             "\"llama\"",
                                             "\"bert\"",
                                             "\"opt\"",
                                             "\"mistral\"",
                                             "\"relu\"",
                                             "\"swiglu\"",
                                             "\"tandem-model\"",
                                             "4096",
                                             "65536",
                                             "100000000"};
        const int rounds = 1 + int(below(3));
        for (int r = 0; r < rounds; ++r) {
            if (s.empty()) return;
            const std::size_t at = below(s.size());
            switch (below(5)) {
                case 0: {  // replace the value after a colon
                    const std::size_t colon = s.find(':', at);
                    if (colon == std::string::npos) break;
                    const std::size_t end = s.find_first_of(",}\n", colon + 1);
                    if (end == std::string::npos) break;
                    s.replace(colon + 1, end - colon - 1,
                              std::string(" ") + values[below(std::size(values))]);
                    break;
                }
                case 1: {  // drop a line
                    const std::size_t start = s.rfind('\n', at);
                    const std::size_t end = s.find('\n', at);
                    if (start != std::string::npos && end != std::string::npos)
                        s.erase(start, end - start);
                    break;
                }
                case 2: {  // rename a key
                    const std::size_t quote = s.find('"', at);
                    if (quote != std::string::npos && quote + 1 < s.size())
                        s.insert(quote + 1, "x");
                    break;
                }
                case 3: {  // duplicate a line
                    const std::size_t start = s.rfind('\n', at);
                    const std::size_t end = s.find('\n', at);
                    if (start != std::string::npos && end != std::string::npos)
                        s.insert(end, s.substr(start, end - start));
                    break;
                }
                default:
                    s[at] = char(rng_() % 96 + 32);
                    break;
            }
        }
    }

private:
    std::mt19937_64 rng_;
};

}  // namespace

class TestImportersFuzz : public QObject {
    Q_OBJECT

    std::unique_ptr<estimate::OperatorEstimator> estimator_;

    // Loads one input and checks the properties; returns false (with a message) on a violation.
    bool check(const std::string& path, const std::string& fileName, std::string& failure,
               int& loaded) {
        const auto result = importers::loadModelWithReport(path);
        if (!result) {
            if (result.message().empty() || result.message().find(fileName) == std::string::npos) {
                failure = "error does not name the file: '" + result.message() + "'";
                return false;
            }
        } else {
            ++loaded;
            model::BuildOptions small;
            small.microbatch = 2;
            small.sequenceLength = 8;
            for (const model::BuildOptions& options : {model::BuildOptions{}, small}) {
                const auto graph = result->source->build(options);
                if (!graph) {
                    if (graph.message().empty()) {
                        failure = "empty build error";
                        return false;
                    }
                    continue;
                }
                if (graph->layers().size() > kMaxLayers) {
                    failure = std::to_string(graph->layers().size()) + " layers";
                    return false;
                }
                const auto estimate = estimate::estimateModel(*graph, *estimator_);
                if (estimate.layers.size() != graph->layers().size()) {
                    failure = "estimate lost layers";
                    return false;
                }
            }
        }
        return true;
    }

    void fuzz(const std::vector<std::string>& seeds, const std::string& extension, bool json,
              std::uint64_t seed) {
        std::vector<std::string> corpus;
        for (const std::string& file : seeds) {
            corpus.push_back(readAll(file));
            QVERIFY2(!corpus.back().empty(), file.c_str());
        }
        Mutator mutate(seed + 1000003 * seedOffset());
        const int inputs = inputsPerLoader();
        const std::string fileName = "fuzz" + extension;
        // In the working directory (ctest's: the build tree), so that a crash leaves its input.
        const std::string path =
            QDir::current().filePath(QString::fromStdString(fileName)).toStdString();
        int runs = 0, loaded = 0;
        double slowest = 0;
        while (runs < inputs) {
            std::string input = corpus[mutate.below(corpus.size())];
            if (json && mutate.below(3) != 0)
                mutate.json(input);
            else
                mutate.bytes(input, corpus);
            std::ofstream(path, std::ios::binary | std::ios::trunc) << input;
            std::string failure;
            const auto start = Clock::now();
            const bool passed = check(path, fileName, failure, loaded);
            slowest =
                std::max(slowest, std::chrono::duration<double>(Clock::now() - start).count());
            if (!passed) {
                const std::string kept = "importers_fuzz_failure" + extension;
                std::ofstream(kept, std::ios::binary) << input;
                QFAIL(("run " + std::to_string(runs) + ": " + failure).c_str());
            }
            ++runs;
        }
        std::remove(path.c_str());
        qInfo("%d mutated inputs, %d loaded, %d rejected with errors; slowest %.3f s", runs, loaded,
              runs - loaded, slowest);
        QCOMPARE(runs, inputs);
    }

private slots:
    void initTestCase() {
        const auto hardware = hardware::PresetLibrary::preset("tpuv4-like");
        QVERIFY(hardware);
        estimator_ =
            std::make_unique<estimate::OperatorEstimator>(hardware->accelerator, hardware->cluster);
    }

    void huggingFaceConfigs() {
        const std::string hf = tandem::test::testDataDir() + "/importers/hf/";
        fuzz({hf + "gpt2-xl.json", hf + "bert-large.json", hf + "opt-350m.json",
              hf + "opt-1.3b.json", hf + "llama2-7b.json", hf + "mistral-7b.json"},
             ".json", true, 1);
    }

    void nativeModelFiles() {
        fuzz({tandem::test::testDataDir() + "/models/mlp.json",
              tandem::test::sourceDir() + "/resources/models/gpt2-xl.json",
              tandem::test::sourceDir() + "/resources/models/llama2-7b.json"},
             ".json", true, 2);
    }

    void onnxModels() {
        const std::string dir = tandem::test::testDataDir() + "/importers/onnx/";
        fuzz({dir + "gpt_block.onnx", dir + "cnn.onnx", dir + "unknown_op.onnx",
              dir + "gpt_block_external.onnx"},
             ".onnx", false, 3);
    }
};

QTEST_GUILESS_MAIN(TestImportersFuzz)
#include "test_importers_fuzz.moc"
