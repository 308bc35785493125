// Bounded fuzzing of every file the CLI reads, by class of hostile input (issue: hostile input):
//  - deep:    a value wrapped in 60 – 100,000 levels of arrays or objects;
//  - numbers: numbers no double holds, denormals, ±0, values around 2^31, 2^53, 2^63, 2^64;
//  - sizes:   counts and sizes at and past every limit, arrays of 65 – 100,000 entries, strings of
//             a megabyte;
//  - special files: empty paths, directories, devices, FIFOs, links, a 3 GiB sparse file,
//             empty, NUL-filled and invalid UTF-8 files, under every file flag;
//  - oversized arguments: flag values, layer names, commands, flag names and merge operands of
//             1,000 – 1,000,000 bytes (ASCII, multi-byte, invalid UTF-8) under every command;
//  - space sizes: random search spaces within the list limits but beyond the 2 GiB the run may
//             use, which must be refused before any work with the shard count that fits.
// Readers: Tandem model (transformer and graph forms), Hugging Face config.json, hardware,
// search space, project, PHAZE instance, measured runs (CSV, `validate --runs`), each through
// the command that reads it, in-process. (The mutations are JSON-directed; on a CSV they still
// replace its numbers and insert nesting and long values.)
// Properties: exit 0 or 2, never 1 (an internal error) or a crash; every refusal names the file
// and stays short; every success prints finite numbers. The process's data segment is limited
// to 2 GiB, so an input that makes a run allocate more fails as "out of memory" (exit 1).
// Each reader gets TANDEM_FUZZ_INPUTS inputs per class (default 150) from a fixed seed
// (TANDEM_FUZZ_SEED varies it); a failing input is kept as cli_fuzz_failure.json in the
// working directory. How long an input takes is reported, never asserted.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include "core/search/search_footprint.h"
#include "core/search/search_grid.h"
#include "core/search/search_space.h"
#include "test_paths.h"
#include "tests/app/cli/cli_test_support.h"
#include "tests/app/cli/fuzz_support.h"
#include "tests/app/cli/json_mutator.h"

using namespace cli_test;
using Clock = std::chrono::steady_clock;

namespace {

// A reader: the seed documents, the file name it is read under and the command that reads it
// (the file's path replaces "{}").
struct Reader {
    const char* name;
    std::vector<std::string> seeds;
    std::string fileName;
    std::vector<std::string> command;
};

}  // namespace

class TestCliFuzz : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::vector<Reader> readers_;

    std::vector<std::string> command(const Reader& reader, const std::string& path) const {
        std::vector<std::string> args = reader.command;
        for (std::string& a : args)
            if (a == "{}") a = path;
        return args;
    }

    // Runs one input; returns an empty string when every property holds.
    std::string check(const Reader& reader, const std::string& path, bool& refused) {
        const CliRun r = run(command(reader, path));
        refused = r.code == 2;
        if (r.code != 0 && r.code != 2)
            return "exit " + std::to_string(r.code) + ": " + r.err.substr(0, 400);
        if (r.code == 2) {
            if (r.err.find(path) == std::string::npos)
                return "the message does not name the file: " + r.err.substr(0, 400);
            if (r.err.size() > 2000)
                return "a message of " + std::to_string(r.err.size()) + " characters";
        } else if (printsNonFinite(r.out)) {
            return "success with a non-finite number: " + r.out.substr(0, 2000);
        }
        return {};
    }

    void fuzzClass(json_fuzz::MutationClass kind) {
        const int inputs = inputsPerClass();
        for (std::size_t k = 0; k < readers_.size(); ++k) {
            const Reader& reader = readers_[k];
            json_fuzz::JsonMutator mutate(std::uint64_t(kind) * 7919 + k + 1000003 * fuzzSeed());
            const std::string path =
                dir_.filePath(QString::fromStdString(reader.fileName)).toStdString();
            int refused = 0;
            double slowest = 0;
            for (int i = 0; i < inputs; ++i) {
                const std::string& seed = reader.seeds[mutate.below(reader.seeds.size())];
                const std::string input = mutate.mutate(seed, kind);
                std::ofstream(path, std::ios::binary | std::ios::trunc) << input;
                const auto start = Clock::now();
                bool wasRefused = false;
                const std::string failure = check(reader, path, wasRefused);
                slowest =
                    std::max(slowest, std::chrono::duration<double>(Clock::now() - start).count());
                if (!failure.empty()) {
                    std::ofstream("cli_fuzz_failure.json", std::ios::binary) << input;
                    QFAIL(
                        (std::string(reader.name) + " input " + std::to_string(i) + ": " + failure)
                            .c_str());
                }
                refused += wasRefused;
            }
            qInfo("%-9s %d inputs, %d refused; slowest %.3f s", reader.name, inputs, refused,
                  slowest);
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // No run may need more than 2 GiB: beyond, allocation fails and the CLI says exit 1.
        rlimit limit{};
        QCOMPARE(::getrlimit(RLIMIT_DATA, &limit), 0);
        const rlim_t twoGiB = rlim_t(2) << 30;
        if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > twoGiB) {
            limit.rlim_cur = twoGiB;
            QCOMPARE(::setrlimit(RLIMIT_DATA, &limit), 0);
        }
        const std::string source = tandem::test::sourceDir();
        const std::string data = tandem::test::testDataDir();
        const std::string mlp = data + "/models/mlp.json";
        const std::string space =
            "{\"format\": \"tandem-search-space\", \"version\": 1, \"name\": \"fuzz\",\n"
            " \"accelerator\": {\"numTensorCores\": [4, 8], \"tensorCoreRows\": [128],\n"
            "   \"tensorCoreCols\": [128], \"numVectorCores\": [2],\n"
            "   \"globalBufferBytes\": [134217728]},\n"
            " \"hbmCapacityBytes\": [34359738368], \"microbatchSizes\": [1, 2],\n"
            " \"recompute\": [\"off\", \"on\"]}";
        std::string project = readAll(source + "/resources/examples/gpt3-quick-search.tandem");
        QVERIFY(!project.empty());
        // The example with the small model and a two-chip space, so that each run is quick.
        project.replace(project.find("\"gpt3-175b\""), 11, "\"" + mlp + "\"");
        const std::size_t from = project.find("\"search\": {");
        const std::size_t to = project.find("\"run\": {");
        QVERIFY(from != std::string::npos && to != std::string::npos);
        project.replace(from, to - from, "\"search\": " + space + ",\n  ");
        // Measured runs: the bundled file's first rows, and a file with every optional column.
        std::string bundledRuns = readAll(source + "/resources/validation/single-node-a100.csv");
        std::size_t cut = 0;
        for (int line = 0; line < 25 && cut != std::string::npos; ++line)
            cut = bundledRuns.find('\n', cut + 1);
        QVERIFY(cut != std::string::npos);
        bundledRuns.resize(cut + 1);
        const std::string optionalRuns =
            "gpus,global batch,micro batch,hidden size,attention heads,layers,sequence length,"
            "tensor parallelism,data parallelism,pipeline parallelism,iteration time (s),"
            "recompute,sequence_parallel,interleave,optimizer,precision,vocab,vocab_padding,name\n"
            "8,32,2,1024,16,24,1024,2,2,2,0.1205,selective,true,2,adam,bf16,32000,128,a\n"
            "4,16,auto,2048,16,12,1024,1,4,1,0.3,on,false,1,sgd,fp32,50257,1,b\n";
        readers_ = {
            {"model",
             {readAll(source + "/resources/models/gpt2-xl.json"), readAll(mlp)},
             "model.json",
             {"estimate", "--model", "{}", "--summary"}},
            {"hf",
             {readAll(data + "/importers/hf/llama2-7b.json"),
              readAll(data + "/importers/hf/gpt2-xl.json")},
             "config.json",
             {"estimate", "--model", "{}", "--summary"}},
            {"hardware",
             {readAll(source + "/resources/hardware/a100-80gb.json")},
             "hardware.json",
             {"estimate", "--model", "gpt2-xl", "--hardware", "{}", "--summary"}},
            {"space",
             {space},
             "space.json",
             {"search", "--model", mlp, "--space", "{}", "--threads", "1", "--quiet"}},
            {"project",
             {project},
             "project.tandem",
             {"search", "--project", "{}", "--threads", "1", "--quiet"}},
            {"phaze",
             {readAll(data + "/reference/phaze-dp-examples/gpt24_t1_norec_sgd_64.in.json")},
             "instance.json",
             {"place", "--phaze-instance", "{}"}},
            {"runs",
             {bundledRuns, optionalRuns},
             "runs.csv",
             {"validate", "--runs", "{}", "--threads", "1", "--quiet"}},
        };
        // Every seed is valid: the properties are about what mutation does to it.
        for (const Reader& reader : readers_) {
            for (const std::string& seed : reader.seeds) {
                QVERIFY2(!seed.empty(), reader.name);
                const std::string path =
                    dir_.filePath(QString::fromStdString(reader.fileName)).toStdString();
                std::ofstream(path, std::ios::binary | std::ios::trunc) << seed;
                const CliRun r = run(command(reader, path));
                QVERIFY2(r.code == 0, (std::string(reader.name) + ": " + r.err).c_str());
            }
        }
    }

    void deepNesting() { fuzzClass(json_fuzz::MutationClass::Deep); }
    void hugeNumbers() { fuzzClass(json_fuzz::MutationClass::Numbers); }
    void extremeSizes() { fuzzClass(json_fuzz::MutationClass::Sizes); }

    void oversizedArguments() {
        std::mt19937_64 rng(4242 + fuzzSeed());
        const std::string mlp = tandem::test::testDataDir() + "/models/mlp.json";
        // "{}" is replaced by the oversized value.
        const std::vector<std::vector<std::string>> commands = {
            {"{}"},
            {"estimate", "--{}"},
            {"estimate", "--model", mlp, "--set", "{}"},
            {"estimate", "--model", mlp, "--set", "numTensorCores={}"},
            {"estimate", "--model", mlp, "--mbs", "{}"},
            {"estimate", "--model", mlp, "--tensor-core-rows", "{}"},
            {"schedule", "--model", mlp, "--layer", "{}"},
            {"schedule", "--model", mlp, "--formulation", "{}"},
            {"place", "--model", mlp, "--strategy", "{}"},
            {"place", "--model", mlp, "--optimizer", "{}"},
            {"search", "--model", mlp, "--shard", "{}"},
            {"search", "--model", mlp, "--cost-model", "{}"},
            {"search", "--model", mlp, "--explorer", "{}"},
            {"search", "--model", mlp, "--threads", "{}"},
            {"validate", "--set", "{}"},
        };
        const std::vector<std::string> pieces = {"x", "é", "😀", "\xff", "\xc3", "/", " ", "\n"};
        const int inputs = std::max(1, inputsPerClass() / 10);
        int runs = 0;
        for (int i = 0; i < inputs; ++i) {
            for (const auto& command : commands) {
                const std::size_t length = std::size_t(1000) << (2 * (rng() % 6));  // 1 KB – 1 MB
                const std::string& piece = pieces[rng() % pieces.size()];
                std::string value;
                while (value.size() < length) value += piece;
                std::vector<std::string> args = command;
                for (std::string& a : args) {
                    const std::size_t at = a.find("{}");
                    if (at != std::string::npos) a.replace(at, 2, value);
                }
                const CliRun r = run(args);
                const std::string what = command[0] + " " + (command.size() > 1 ? command[1] : "") +
                                         " (" + std::to_string(value.size()) + " bytes)";
                QVERIFY2(r.code == 2, (what + ": exit " + std::to_string(r.code)).c_str());
                QVERIFY2(r.err.size() < 2000,
                         (what + ": a message of " + std::to_string(r.err.size()) + " characters")
                             .c_str());
                ++runs;
            }
        }
        qInfo("%d oversized arguments refused", runs);
    }

    void spaceSizes() {
        namespace cs = tandem::core::search;
        std::mt19937_64 rng(777 + fuzzSeed());
        const std::string mlp = tandem::test::testDataDir() + "/models/mlp.json";
        const std::string path = dir_.filePath("big-space.json").toStdString();
        const auto list = [&](std::size_t n, std::int64_t first, std::int64_t step) {
            std::string text = "[";
            for (std::size_t k = 0; k < n; ++k)
                text += (k ? ", " : "") + std::to_string(first + std::int64_t(k) * step);
            return text + "]";
        };
        const int inputs = std::max(1, inputsPerClass() / 10);
        int refused = 0;
        for (int i = 0; i < inputs; ++i) {
            // PHAZE's chips, or a part of them, with long per-chip option lists.
            const std::size_t tensorCores = 1 + rng() % 13, mbs = 1 + rng() % 64,
                              hbm = 1 + rng() % 64;
            const std::string recompute = std::vector<std::string>{
                R"(["off"])", R"(["off", "on"])", R"(["off", "on", "auto"])"}[rng() % 3];
            std::string numTensorCores = "[";
            for (std::size_t k = 0; k < tensorCores; ++k)
                numTensorCores += (k ? ", " : "") + std::to_string(std::int64_t(1) << k);
            numTensorCores += "]";
            const std::string text =
                "{\"format\": \"tandem-search-space\", \"version\": 1, \"accelerator\": "
                "{\"numTensorCores\": " +
                numTensorCores + "}, \"microbatchSizes\": " + list(mbs, 1, 1) +
                ", \"hbmCapacityBytes\": " +
                list(hbm, std::int64_t(16) << 30, std::int64_t(1) << 28) +
                ", \"recompute\": " + recompute + "}";
            const auto space = cs::SearchSpace::parseJson(text, "fuzz");
            QVERIFY2(space.ok(), space.ok() ? "" : space.message().c_str());
            const auto grid = cs::SearchGrid::create(*space);
            QVERIFY2(grid.ok(), grid.ok() ? "" : grid.message().c_str());
            const auto footprint =
                cs::estimateSearchFootprint(grid->chipCount(), grid->optionsPerChip(), 1, 1);
            // Only spaces far beyond the 2 GiB data limit: the others would run to the end.
            if (footprint.bytes < double(std::int64_t(4) << 30)) continue;
            std::ofstream(path, std::ios::trunc) << text;
            const CliRun r =
                run({"search", "--model", mlp, "--space", path, "--threads", "1", "--quiet"});
            const std::string what = std::to_string(footprint.points) + " points";
            QVERIFY2(r.code == 2,
                     (what + ": exit " + std::to_string(r.code) + " " + r.err).c_str());
            QVERIFY2(r.err.find("--shard K/N") != std::string::npos ||
                         r.err.find("not even the") != std::string::npos,
                     (what + ": " + r.err).c_str());
            QVERIFY2(r.err.size() < 1000, (what + ": " + r.err).c_str());
            ++refused;
        }
        qInfo("%d spaces beyond memory refused", refused);
    }

    void specialFiles() {
        const std::string root = dir_.filePath("special").toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(root)));
        namespace fs = std::filesystem;
        std::vector<std::string> paths = {"", root + "/missing.json", root, "/dev/null",
                                          "/dev/zero"};
        const std::string fifo = root + "/fifo.json";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        paths.push_back(fifo);
        fs::create_symlink("/dev/zero", root + "/zero.json");
        paths.push_back(root + "/zero.json");
        fs::create_symlink(root + "/nowhere.json", root + "/dangling.json");
        paths.push_back(root + "/dangling.json");
        {
            const std::string sparse = root + "/sparse.json";
            std::ofstream(sparse) << "{";
            fs::resize_file(sparse, std::uintmax_t(3) << 30);  // a hole: no disk space used
            paths.push_back(sparse);
        }
        std::ofstream(root + "/empty.json");
        paths.push_back(root + "/empty.json");
        std::ofstream(root + "/nul.json", std::ios::binary) << std::string(4096, '\0');
        paths.push_back(root + "/nul.json");
        std::ofstream(root + "/latin1.json", std::ios::binary) << "{\"name\": \"caf\xe9\"}";
        paths.push_back(root + "/latin1.json");
        std::ofstream(root + "/bom.json", std::ios::binary) << "\xef\xbb\xbf{}";
        paths.push_back(root + "/bom.json");
        // The same files under the names that select the ONNX and Hugging Face loaders.
        fs::create_symlink("/dev/zero", root + "/zero.onnx");
        paths.push_back(root + "/zero.onnx");
        QCOMPARE(::mkfifo((root + "/pipe.onnx").c_str(), 0600), 0);
        paths.push_back(root + "/pipe.onnx");
        fs::create_directory(root + "/config.json");
        paths.push_back(root + "/config.json");
        int runs = 0;
        for (const Reader& reader : readers_) {
            for (const std::string& path : paths) {
                const auto start = Clock::now();
                const CliRun r = run(command(reader, path));
                const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
                const std::string where = std::string(reader.name) + " '" + path + "'";
                QVERIFY2(r.code == 2, (where + ": exit " + std::to_string(r.code)).c_str());
                // An empty path has nothing to name: the message says what to give instead.
                if (!path.empty())
                    QVERIFY2(r.err.find(path) != std::string::npos, (where + ": " + r.err).c_str());
                QVERIFY2(r.err.size() < 2000, where.c_str());
                if (seconds > 5) qInfo("%s took %.1f s", where.c_str(), seconds);
                ++runs;
            }
        }
        // Nothing was replaced or grew: the special files are what they were.
        struct stat st {};
        QVERIFY(::stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
        QVERIFY(::stat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));
        qInfo("%d special paths refused", runs);
    }
};

QTEST_GUILESS_MAIN(TestCliFuzz)
#include "test_cli_fuzz.moc"
