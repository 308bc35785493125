// Bounded fuzzing of what a finished result passes through (issue: never lose a finished result):
//  - output targets: random commands with --json, --csv, --trace and --checkpoint pointed at new
//    files, existing files, the command's own inputs, another output of the same run (each under
//    several spellings: as given, "./", "sub/../", a symbolic link, a hard link), /dev/null,
//    standard output ("-"), a pipe's /dev/fd descriptor and a FIFO, both with a reader;
//  - checkpoint records: one field (not the free-text message) of one record of a finished
//    search's checkpoint replaced by a non-finite, out-of-range, malformed or empty value, or a
//    record repeated with other values, then the search resumed from it;
//  - merge shards: one value of one point of a shard replaced (a number scaled, negated, set to
//    0, 10^300 or another type; a status, a plan field), then the shards merged.
// Properties: exit 0 or 2, never 1 or a crash; no input's bytes change; an output that is an
// input or another output of the run is refused (exit 2) naming its flag, and creates nothing;
// after exit 0 every file output is valid JSON (or a CSV with its header), every reader of a pipe
// or FIFO got the bytes, and nothing printed or written holds a non-finite number; a merge that
// succeeds has the unedited search's best point and Pareto fronts; a refused checkpoint or shard
// is named in the message. TANDEM_FUZZ_INPUTS (default 150) sets the inputs per class and
// TANDEM_FUZZ_SEED varies the seed; times are reported, never asserted.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include "tests/app/cli/cli_test_support.h"
#include "tests/app/cli/fuzz_support.h"
#include "tests/app/cli/search_files_support.h"

using namespace cli_test;
namespace fs = std::filesystem;

namespace {

// Drains a pipe or FIFO on a thread of its own; get() waits for the writer to close it.
std::future<std::string> drain(int fd) {
    return std::async(std::launch::async, [fd] {
        std::string got;
        char buffer[65536];
        for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
            got.append(buffer, std::size_t(n));
        ::close(fd);
        return got;
    });
}

// A small search space: 6 chips × 2 microbatch sizes × 2 recompute settings, in well under 1 s.
const char* kSpace =
    R"({"format": "tandem-search-space", "version": 1, "name": "fuzz",
 "accelerator": {"numTensorCores": [4, 8, 16], "tensorCoreRows": [64, 128],
   "tensorCoreCols": [128], "numVectorCores": [2], "globalBufferBytes": [134217728]},
 "hbmCapacityBytes": [34359738368], "microbatchSizes": [1, 2], "recompute": ["off", "on"]})";

}  // namespace

class TestCliFuzzResults : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string space_, hardware_, model_;

    std::string path(const std::string& name) const {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }
    Args search(const Args& extra) const {
        Args args = {"search", "--model", model_, "--space", space_, "--threads", "1", "--quiet"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY(QDir().mkpath(dir_.filePath("sub")));
        space_ = path("space.json");
        std::ofstream(space_) << kSpace;
        hardware_ = path("chip.json");
        fs::copy_file(std::string(TANDEM_SOURCE_DIR) + "/resources/hardware/tpuv4-like.json",
                      hardware_);
        model_ = path("model.json");
        fs::copy_file(std::string(TANDEM_SOURCE_DIR) + "/resources/models/gpt2-xl.json", model_);
        const auto r = run(search({"--json", path("oracle.json")}));
        QVERIFY2(r.code == 0, r.err.c_str());
    }

    void outputTargets();
    void checkpointRecords();
    void mergeShards();
};

void TestCliFuzzResults::outputTargets() {
    std::mt19937_64 rng(31337 + 1000003 * fuzzSeed());
    const std::vector<std::string> inputs = {space_, hardware_, model_};
    std::map<std::string, std::string> original;
    for (const std::string& in : inputs) original[in] = readAll(in);
    const std::string existing = path("existing.json");
    // Another spelling of `file`: as given, through "./" or "sub/..", or a (hard or symbolic) link.
    int links = 0;
    auto spelling = [&](const std::string& file) {
        const fs::path p(file);
        switch (rng() % 5) {
            case 0:
                return file;
            case 1:
                return (p.parent_path() / "." / p.filename()).string();
            case 2:
                return (p.parent_path() / "sub" / ".." / p.filename()).string();
            case 3: {
                const std::string link = path("link" + std::to_string(links++));
                fs::create_symlink(file, link);
                return link;
            }
            default: {
                if (!fs::exists(file)) return file;  // a hard link needs the file
                const std::string link = path("hard" + std::to_string(links++));
                fs::create_hard_link(file, link);
                return link;
            }
        }
    };
    const int trials = std::max(10, inputsPerClass() / 3);
    int refused = 0, written = 0;
    for (int i = 0; i < trials; ++i) {
        std::ofstream(existing, std::ios::trunc) << "{\"kept\": true}\n";
        const std::string before = readAll(existing);
        const bool schedule = rng() % 3 == 0;
        const std::vector<std::string> flags =
            schedule ? std::vector<std::string>{"--trace"}
                     : std::vector<std::string>{"--json", "--csv", "--checkpoint"};
        Args args =
            schedule ? Args{"schedule", "--model", model_, "--hardware", hardware_} : search({});
        // What this command reads (search has no hardware file).
        const std::vector<std::string> own = schedule ? std::vector<std::string>{model_, hardware_}
                                                      : std::vector<std::string>{model_, space_};
        std::vector<std::future<std::string>> readers;
        std::vector<int> writeEnds;  // the test's write ends of the pipes and FIFOs
        // Closed however this trial ends, before the readers' futures wait for their threads.
        const auto closeWriteEnds = [&writeEnds] {
            for (const int fd : writeEnds) ::close(fd);
            writeEnds.clear();
        };
        const std::shared_ptr<void> guard(nullptr, [&](void*) { closeWriteEnds(); });
        std::vector<std::string> created;  // new regular files the run may write
        std::vector<std::string> regular;  // the regular-file targets so far, as first named
        // (flag, the name given): a hard link's name is replaced, the other name keeps the old
        // bytes, so outputs are read back under the name the run wrote.
        std::vector<std::pair<std::string, std::string>> files;
        std::set<std::string> identities;  // canonical regular targets
        bool clash = false, dash = false;
        for (const std::string& flag : flags) {
            if (flag != flags.front() && rng() % 2) continue;  // each later output half the time
            std::string target;
            const int kind = int(rng() % 9);
            if (kind <= 1) {
                target = path("new" + std::to_string(i) + flag);
                created.push_back(target);
            } else if (kind == 2) {
                target = existing;
            } else if (kind == 3) {
                target = own[rng() % own.size()];
                clash = true;
            } else if (kind == 4 && !regular.empty()) {
                target = regular[rng() % regular.size()];
                clash = true;
            } else if (kind == 5 && flag != "--checkpoint") {
                target = "/dev/null";
            } else if (kind == 6 && flag != "--checkpoint" && !dash) {
                target = "-";
                dash = true;
            } else if (kind == 7 && flag != "--checkpoint") {
                int fds[2];
                QCOMPARE(::pipe(fds), 0);
                readers.push_back(drain(fds[0]));
                writeEnds.push_back(fds[1]);
                target = "/dev/fd/" + std::to_string(fds[1]);
            } else if (kind == 8 && flag != "--checkpoint") {
                // A reader that is already there; the test's own write end, closed after the
                // run, keeps it from seeing the end before the run has written.
                target = path("fifo" + std::to_string(i) + flag);
                QCOMPARE(::mkfifo(target.c_str(), 0600), 0);
                const int fd = ::open(target.c_str(), O_RDONLY | O_NONBLOCK);
                QVERIFY(fd >= 0);
                const int held = ::open(target.c_str(), O_WRONLY);
                QVERIFY(held >= 0);
                QCOMPARE(::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK), 0);
                readers.push_back(drain(fd));
                writeEnds.push_back(held);
            } else {
                target = path("new" + std::to_string(i) + flag);
                created.push_back(target);
            }
            const bool isFile = target != "-" && target.rfind("/dev/", 0) != 0 &&
                                target.find("fifo") == std::string::npos;
            if (isFile) {
                std::error_code ec;
                const std::string id = fs::weakly_canonical(target, ec).string();
                if (!identities.insert(id).second) clash = true;
                regular.push_back(target);
                target = spelling(target);
                files.push_back({flag, target});
            }
            args.insert(args.end(), {flag, target});
        }
        const CliRun r = run(args);
        closeWriteEnds();  // the readers see the end of their pipes
        if (clash && r.code == 0) {
            // The only clash that may pass is one that never happened (every target written
            // through, nothing replaced); the fixture never makes such a case.
            std::string line;
            for (const std::string& a : args) line += a + " ";
            QFAIL(("a clash was not refused: " + line).c_str());
        }
        std::vector<std::string> got;
        for (auto& reader : readers) got.push_back(reader.get());
        const std::string what = "trial " + std::to_string(i) + ": exit " + std::to_string(r.code);
        QVERIFY2(r.code == 0 || r.code == 2, (what + " " + r.err.substr(0, 400)).c_str());
        for (const std::string& in : inputs)
            QVERIFY2(readAll(in) == original[in], (what + ": an input changed").c_str());
        if (r.code == 2) {
            ++refused;
            QVERIFY2(r.err.size() < 2000, what.c_str());
            if (clash) QVERIFY2(r.err.find("same file") != std::string::npos, r.err.c_str());
            for (const std::string& file : created)
                QVERIFY2(!fs::exists(file), (what + ": created " + file).c_str());
            QVERIFY2(readAll(existing) == before, (what + ": the existing file changed").c_str());
            continue;
        }
        ++written;
        QVERIFY2(!printsNonFinite(r.out), (what + ": " + r.out.substr(0, 400)).c_str());
        for (const std::string& bytes : got)
            QVERIFY2(bytes.rfind("{", 0) == 0 || bytes.rfind("point_index", 0) == 0,
                     (what + ": a reader got '" + bytes.substr(0, 80) + "'").c_str());
        for (const auto& [flag, file] : files) {
            const std::string text = readAll(file);
            QVERIFY2(!printsNonFinite(text), (what + " " + flag).c_str());
            if (flag == "--csv") {
                QVERIFY2(text.rfind("point_index,", 0) == 0, (what + " " + flag).c_str());
            } else if (flag != "--checkpoint") {
                QVERIFY2(!Json::parse(text, nullptr, false).is_discarded(),
                         (what + " " + flag + ": not JSON").c_str());
            }
        }
        for (const std::string& file : created) fs::remove(file);
    }
    qInfo("%d output combinations: %d written, %d refused", trials, written, refused);
    QVERIFY(written > 0 && refused > 0);
}

void TestCliFuzzResults::checkpointRecords() {
    std::mt19937_64 rng(4711 + 1000003 * fuzzSeed());
    const std::string clean = path("clean.ckpt");
    QCOMPARE(run(search({"--checkpoint", clean})).code, 0);
    const std::string text = readAll(clean);
    std::vector<std::string> lines;
    for (std::size_t at = 0, next; at < text.size(); at = next + 1) {
        next = text.find('\n', at);
        if (next == std::string::npos) next = text.size();
        lines.push_back(text.substr(at, next - at));
    }
    QVERIFY(lines.size() > 3);  // magic, run, records
    const std::vector<std::string> values = {
        "inf",       "-inf",      "nan",      "NAN",        "1e309", "-1p+0",
        "0x1p+1024", "",          "abc",      "-3",         "0",     "99999999999999999999",
        "1p+2000",   "1.0p-1080", "feasible", "infeasible", "-",     "1,2,3"};
    const int inputs = std::max(10, inputsPerClass() / 3);
    const std::string ck = path("edited.ckpt");
    int refused = 0, resumed = 0;
    for (int i = 0; i < inputs; ++i) {
        std::vector<std::string> edited = lines;
        const std::size_t line = 2 + rng() % (lines.size() - 2);
        std::vector<std::string> fields;
        for (std::size_t at = 0, next;; at = next + 1) {
            next = edited[line].find('\t', at);
            fields.push_back(edited[line].substr(at, next - at));
            if (next == std::string::npos) break;
        }
        // Any field but the last, the message: free text, where "inf" is just a word.
        const std::size_t field = rng() % (fields.size() - 1);
        fields[field] = values[rng() % values.size()];
        std::string record;
        for (std::size_t k = 0; k < fields.size(); ++k) record += (k ? "\t" : "") + fields[k];
        if (rng() % 4 == 0)
            edited.insert(edited.begin() + std::ptrdiff_t(line) + 1, record);  // a second copy
        else
            edited[line] = record;
        std::string out;
        for (const std::string& l : edited) out += l + "\n";
        std::ofstream(ck, std::ios::binary | std::ios::trunc) << out;
        const std::string json = path("resumed.json"), csv = path("resumed.csv");
        fs::remove(json);
        fs::remove(csv);
        const CliRun r = run(search({"--checkpoint", ck, "--json", json, "--csv", csv}));
        const std::string what = "record " + std::to_string(line) + " field " +
                                 std::to_string(field) + " = '" + fields[field] + "': exit " +
                                 std::to_string(r.code);
        QVERIFY2(r.code == 0 || r.code == 2, (what + " " + r.err.substr(0, 400)).c_str());
        if (r.code == 2) {
            ++refused;
            QVERIFY2(r.err.find(ck) != std::string::npos, (what + ": " + r.err).c_str());
            QVERIFY2(r.err.size() < 2000, what.c_str());
            continue;
        }
        ++resumed;
        const std::string results = readAll(json);
        QVERIFY2(!Json::parse(results, nullptr, false).is_discarded(), (what + ": JSON").c_str());
        QVERIFY2(
            !printsNonFinite(results) && !printsNonFinite(readAll(csv)) && !printsNonFinite(r.out),
            (what + ": a non-finite number was written").c_str());
    }
    qInfo("%d edited checkpoints: %d resumed, %d refused", inputs, resumed, refused);
    QVERIFY(refused > 0);
}

void TestCliFuzzResults::mergeShards() {
    std::mt19937_64 rng(2718 + 1000003 * fuzzSeed());
    std::vector<std::string> shards;
    for (int k = 1; k <= 2; ++k) {
        shards.push_back(path("shard" + std::to_string(k) + ".json"));
        const auto r = run(search({"--shard", std::to_string(k) + "/2", "--json", shards.back()}));
        QVERIFY2(r.code == 0, r.err.c_str());
    }
    const Json oracle = comparable(path("oracle.json"));
    const std::vector<std::string> keys = {"throughput_samples_per_s",
                                           "fixed_throughput_samples_per_s",
                                           "area_mm2",
                                           "status",
                                           "microbatch",
                                           "hbm_bytes",
                                           "recompute",
                                           "chip_index",
                                           "tensor_parallel",
                                           "data_parallel",
                                           "stages",
                                           "time_per_batch_s"};
    const int inputs = std::max(10, inputsPerClass() / 3);
    const std::string edited = path("edited-shard.json"), merged = path("merged.json");
    int refused = 0, accepted = 0;
    for (int i = 0; i < inputs; ++i) {
        const std::size_t which = rng() % shards.size();
        Json shard = Json::parse(readAll(shards[which]));
        Json& points = shard["points"];
        Json& point = points[rng() % points.size()];
        const std::string key = keys[rng() % keys.size()];
        Json& slot =
            point.contains(key) || !point["plan"].is_object() ? point[key] : point["plan"][key];
        switch (rng() % 7) {
            case 0:
                slot = slot.is_number() ? Json(slot.get<double>() * 10) : Json(1e300);
                break;
            case 1:
                slot = slot.is_number() ? Json(-slot.get<double>()) : Json("feasible");
                break;
            case 2:
                slot = 0;
                break;
            case 3:
                slot = 1e300;
                break;
            case 4:
                slot = "infeasible";
                break;
            case 5:
                slot = nullptr;
                break;
            default:
                slot = Json::array({1, 2});
                break;
        }
        std::ofstream(edited, std::ios::trunc) << shard.dump();
        std::vector<std::string> operands = shards;
        operands[which] = edited;
        fs::remove(merged);
        const CliRun r =
            run({"merge", "--json", merged, "--threads", "1", operands[0], operands[1]});
        const std::string what = "shard " + std::to_string(which + 1) + " " + key + " = " +
                                 slot.dump() + ": exit " + std::to_string(r.code);
        QVERIFY2(r.code == 0 || r.code == 2, (what + " " + r.err.substr(0, 400)).c_str());
        if (r.code == 2) {
            ++refused;
            QVERIFY2(r.err.find(edited) != std::string::npos, (what + ": " + r.err).c_str());
            QVERIFY2(!fs::exists(merged), (what + ": wrote the output").c_str());
            continue;
        }
        // Accepted: the edit did not reach what the merge decides.
        ++accepted;
        const Json result = comparable(merged);
        QVERIFY2(!result.is_discarded(), what.c_str());
        QVERIFY2(!printsNonFinite(readAll(merged)) && !printsNonFinite(r.out), what.c_str());
        for (const char* decided : {"best", "pareto", "pareto_by_hbm"})
            QVERIFY2(result[decided] == oracle[decided], (what + ": " + decided).c_str());
    }
    qInfo("%d edited shards: %d merged, %d refused", inputs, accepted, refused);
    QVERIFY(refused > 0);
}

QTEST_GUILESS_MAIN(TestCliFuzzResults)
#include "test_cli_fuzz_results.moc"
