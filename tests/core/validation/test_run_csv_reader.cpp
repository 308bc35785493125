// The measured-runs CSV reader (core/validation/run_csv_reader.h): the bundled file's header
// and other spellings of it, optional columns and their defaults, and hostile input — every
// malformed file is an Error naming the source, the line (and the column for a cell) and what
// is allowed; none crashes, none is skipped silently.
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/common/embedded_resources.h"
#include "core/validation/measured_run_set.h"
#include "core/validation/run_csv_columns.h"
#include "core/validation/run_csv_reader.h"

using namespace tandem::core;
using namespace tandem::core::validation;

namespace {

const std::string kHeader =
    "# GPUs,global batch,micro batch,hidden size,attention heads,# layers,sequence length,"
    "tensor parallelism,data parallelism,pipeline parallelism,iteration time (ms)\n";

std::string bundledCsv() {
    for (const EmbeddedFile& f : embeddedResources())
        if (f.path == "validation/single-node-a100.csv") return std::string(f.content);
    return {};
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

class TestRunCsvReader : public QObject {
    Q_OBJECT

private slots:
    void bundledFileReads() {
        const std::string csv = bundledCsv();
        QVERIFY(!csv.empty());
        auto runs = parseRunsCsv(csv, "single-node-a100.csv");
        QVERIFY2(runs.ok(), runs.ok() ? "" : runs.message().c_str());
        QCOMPARE(runs->size(), std::size_t(1440));
        // Its first row: 2,16,8,1024,16,24,1024,1,1,2,372.160408
        const MeasuredRun& r = runs->front();
        QCOMPARE(r.name, std::string("line 2"));
        QCOMPARE(r.gpus, std::int64_t(2));
        QCOMPARE(r.globalBatch, std::int64_t(16));
        QCOMPARE(r.microbatch, std::int64_t(8));
        QCOMPARE(r.model.hidden, std::int64_t(1024));
        QCOMPARE(r.model.heads, std::int64_t(16));
        QCOMPARE(r.model.layers, std::int64_t(24));
        QCOMPARE(r.model.sequence, std::int64_t(1024));
        QCOMPARE(r.tensor, std::int64_t(1));
        QCOMPARE(r.data, std::int64_t(1));
        QCOMPARE(r.pipeline, std::int64_t(2));
        QCOMPARE(r.measuredSeconds, 372.160408 * 1e-3);
        // Defaults: GPT-2's vocabulary padded to 128·t, full recomputation, Adam, fp16.
        QCOMPARE(r.model.vocab, std::int64_t(50257));
        QCOMPARE(paddedVocab(r.model, 1), std::int64_t(50304));
        QCOMPARE(paddedVocab(r.model, 8), std::int64_t(51200));
        QVERIFY(r.recompute == hardware::Recompute::On);
        QVERIFY(r.optimizer == hardware::Optimizer::Adam);
        QCOMPARE(r.bytesPerElement, std::int64_t(2));
        QVERIFY(!r.sequenceParallel);
        QCOMPARE(r.interleave, std::int64_t(1));
        QCOMPARE(runs->back().name, std::string("line 1441"));
    }

    void otherSpellingsAndOptionalColumns() {
        // Columns in another order and spelling, CRLF, a BOM, quotes, comments, blank lines.
        const std::string csv =
            "\xEF\xBB\xBFName, Iteration_Time_S ,GPUS,Global-Batch,hidden,HEADS,layers,"
            "Sequence Length,TP,dp,pp,recompute,sequence_parallel,interleave,optimizer,precision,"
            "vocab,vocab_padding,microbatch,Overlap Grad Reduce,tp_comm_overlap,Grad Reduce in "
            "BF16,overlap p2p comm\r\n"
            "\r\n"
            "\"a, quoted \"\"name\"\"\",0.5,8,64,2048,16,24,2048,2,2,2,selective,yes,3,SGD,bf16,"
            "32000,64,auto,on,yes,yes,yes\r\n"
            "# a comment line\n"
            "b,1.25,4,8,1024,16,12,1024,4,1,1,off,false,1,adam,4,50257,1,2,0,no,0,no\n";
        auto runs = parseRunsCsv(csv, "mine.csv");
        QVERIFY2(runs.ok(), runs.ok() ? "" : runs.message().c_str());
        QCOMPARE(runs->size(), std::size_t(2));
        const MeasuredRun& a = (*runs)[0];
        QCOMPARE(a.name, std::string("a, quoted \"name\""));
        QCOMPARE(a.measuredSeconds, 0.5);
        QVERIFY(a.recompute == hardware::Recompute::Selective);
        QVERIFY(a.sequenceParallel);
        QCOMPARE(a.interleave, std::int64_t(3));
        QVERIFY(a.optimizer == hardware::Optimizer::Sgd);
        QCOMPARE(a.bytesPerElement, std::int64_t(2));
        QVERIFY(a.precision == hardware::Precision::Bf16);
        QCOMPARE(a.model.vocab, std::int64_t(32000));
        QCOMPARE(paddedVocab(a.model, a.tensor), std::int64_t(32000));  // 32000 = 250·128
        QCOMPARE(a.microbatch, std::int64_t(0));                        // auto
        QVERIFY(a.overlapGradReduce && a.tpCommOverlap && !a.overlapParamGather);
        QVERIFY(a.gradReduceInBf16);
        QVERIFY(a.overlapP2pComm && !(*runs)[1].overlapP2pComm);
        const MeasuredRun& b = (*runs)[1];
        QVERIFY(b.recompute == hardware::Recompute::Off);
        QVERIFY(!b.overlapGradReduce && !b.tpCommOverlap && !b.gradReduceInBf16);
        QCOMPARE(b.bytesPerElement, std::int64_t(4));
        QVERIFY(!b.precision);  // bytes only: the hardware's own GEMM format
        QCOMPARE(b.microbatch, std::int64_t(2));
        QCOMPARE(paddedVocab(b.model, 4), std::int64_t(50260));  // a multiple of 1·4
    }

    void hostileInput_data() {
        QTest::addColumn<QString>("csv");
        QTest::addColumn<QStringList>("expected");
        const QString h = QString::fromStdString(kHeader);
        const QString ok = "8,32,4,1024,16,24,1024,2,2,2,219.7\n";
        QTest::newRow("empty") << "" << QStringList{"x.csv: the file is empty", "header"};
        QTest::newRow("blank lines only") << "\n \n\r\n" << QStringList{"the file is empty"};
        QTest::newRow("header only") << h << QStringList{"a header but no runs"};
        QTest::newRow("missing column")
            << "gpus,global batch,hidden size,attention heads,layers,sequence length,"
               "tensor parallelism,data parallelism,iteration time (ms)\n" +
                   ok
            << QStringList{"line 1", "no column \"pipeline parallelism\"", "required are"};
        QTest::newRow("no iteration time")
            << h.section(',', 0, 9) + "\n1,2,3\n"
            << QStringList{"line 1", "iteration time (ms)\" or \"iteration time (s)"};
        QTest::newRow("both iteration times") << h.trimmed() + ",iteration time (s)\n"
                                              << QStringList{"once, in ms or in s"};
        QTest::newRow("unknown column") << h.trimmed() + ",colour\n" + ok
                                        << QStringList{"line 1, column 12",
                                                       "unknown column "
                                                       "\"colour\""};
        QTest::newRow("repeated column") << h.trimmed() + ",GPUs\n"
                                         << QStringList{"column 12", "repeats column 1"};
        QTest::newRow("non-numeric cell")
            << h + ok + "8,32,4,1024,16,x24,1024,2,2,2,219.7\n"
            << QStringList{"x.csv: line 3, column 6 (# layers)", "\"x24\" is not an integer",
                           "from 1 to 4096"};
        QTest::newRow("fraction in an integer")
            << h + "8,32,4.0,1024,16,24,1024,2,2,2,219.7\n"
            << QStringList{"line 2, column 3 (micro batch)", "or auto"};
        QTest::newRow("negative") << h + "8,-32,4,1024,16,24,1024,2,2,2,219.7\n"
                                  << QStringList{"line 2, column 2", "\"-32\""};
        QTest::newRow("beyond int64") << h + "8,32,4,99999999999999999999999,16,24,1024,2,2,2,1\n"
                                      << QStringList{"line 2, column 4 (hidden size)"};
        QTest::newRow("absurd hidden") << h + "8,32,4,16777216,16,24,1024,2,2,2,1\n"
                                       << QStringList{"line 2, column 4", "from 1 to 1048576"};
        QTest::newRow("zero time") << h + "8,32,4,1024,16,24,1024,2,2,2,0\n"
                                   << QStringList{"line 2, column 11", "from 0.001 ms to 1e9 ms"};
        QTest::newRow("denormal time") << h + "8,32,4,1024,16,24,1024,2,2,2,1e-320\n"
                                       << QStringList{"line 2, column 11", "\"1e-320\""};
        QTest::newRow("nan time") << h + "8,32,4,1024,16,24,1024,2,2,2,nan\n"
                                  << QStringList{"line 2, column 11", "\"nan\""};
        QTest::newRow("infinite time") << h + "8,32,4,1024,16,24,1024,2,2,2,1e999\n"
                                       << QStringList{"line 2, column 11"};
        QTest::newRow("t·p·d not GPUs")
            << h + ok + "8,32,4,1024,16,24,1024,2,2,1,219.7\n"
            << QStringList{"line 3", "t·p·d = 2·1·2 = 4", "must equal the GPUs"};
        QTest::newRow("heads not dividing hidden") << h + "8,32,4,1000,16,24,1024,2,2,2,1\n"
                                                   << QStringList{"line 2", "not divisible"};
        QTest::newRow("t not dividing heads") << h + "8,32,4,1536,12,24,1024,8,1,1,1\n"
                                              << QStringList{"line 2", "divisible by t = 8"};
        QTest::newRow("p not dividing layers") << h + "8,32,4,1024,16,10,1024,2,1,4,1\n"
                                               << QStringList{"line 2", "by p = 4"};
        QTest::newRow("batch not a multiple of microbatch × d")
            << h + "8,30,4,1024,16,24,1024,2,2,2,1\n"
            << QStringList{"line 2", "microbatch × d = 4 × 2"};
        QTest::newRow("too few cells") << h + "8,32,4\n"
                                       << QStringList{"line 2: 3 cells, but the header has 11"};
        QTest::newRow("too many cells") << h + ok.trimmed() + ",5\n"
                                        << QStringList{"line 2: 12 cells"};
        QTest::newRow("open quote") << h + "\"8,32\n" << QStringList{"line 2", "not closed"};
        QTest::newRow("NUL byte") << h + QString(QChar(0)) + ok << QStringList{"line 2", "NUL"};
        QTest::newRow("recompute sometimes")
            << h.trimmed() + ",recompute\n" + ok.trimmed() + ",sometimes\n"
            << QStringList{"line 2, column 12 (recompute)", "off, on, selective or auto"};
        QTest::newRow("bad precision") << h.trimmed() + ",precision\n" + ok.trimmed() + ",fp12\n"
                                       << QStringList{"column 12 (precision)", "fp16, bf16"};
        QTest::newRow("overlap without sequence parallelism")
            << h.trimmed() + ",tp_comm_overlap\n" + ok.trimmed() + ",yes\n"
            << QStringList{"tp_comm_overlap needs sequence_parallel"};
        QTest::newRow("p2p overlap without interleaving")
            << h.trimmed() + ",overlap_p2p_comm\n" + ok.trimmed() + ",yes\n"
            << QStringList{"overlap_p2p_comm needs interleave >= 2"};
        QTest::newRow("bad flag") << h.trimmed() + ",sequence_parallel\n" + ok.trimmed() +
                                         ",maybe\n"
                                  << QStringList{"column 12 (sequence_parallel)", "yes/no"};
        QTest::newRow("interleave without pipeline")
            << h.trimmed() + ",interleave\n8,32,4,1024,16,24,1024,8,1,1,1,2\n"
            << QStringList{"line 2", "needs p >= 2"};
        QTest::newRow("long name")
            << h.trimmed() + ",name\n" + ok.trimmed() + "," + QString(300, 'n') + "\n"
            << QStringList{"column 12 (name)", "at most 200"};
    }

    void hostileInput() {
        QFETCH(QString, csv);
        QFETCH(QStringList, expected);
        const QByteArray bytes = csv.toUtf8();
        auto runs =
            parseRunsCsv(std::string_view(bytes.constData(), std::size_t(bytes.size())), "x.csv");
        QVERIFY(!runs.ok());
        const std::string& message = runs.message();
        QVERIFY2(message.rfind("x.csv: ", 0) == 0, message.c_str());
        for (const QString& part : expected)
            QVERIFY2(contains(message, part.toStdString()), message.c_str());
        QVERIFY(message.size() < 1000);
    }

    void tooManyRows() {
        std::string csv = kHeader;
        csv.reserve(csv.size() + (kMaxCsvRuns + 1) * 36);
        for (std::size_t i = 0; i <= kMaxCsvRuns; ++i)
            csv += "8,32,4,1024,16,24,1024,2,2,2,219.7\n";
        auto runs = parseRunsCsv(csv, "big.csv");
        QVERIFY(!runs.ok());
        QVERIFY2(contains(runs.message(), "line 100002: more than 100000 runs"),
                 runs.message().c_str());
    }

    void files() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path root = dir.path().toStdString();
        // A directory, a missing file, a file of 1 GiB (sparse: nothing is written).
        auto d = readRunsCsv(root);
        QVERIFY(!d.ok());
        QVERIFY2(contains(d.message(), "directory"), d.message().c_str());
        auto missing = readRunsCsv(root / "none.csv");
        QVERIFY(!missing.ok());
        QVERIFY2(contains(missing.message(), "none.csv"), missing.message().c_str());
        const auto huge = root / "huge.csv";
        { std::ofstream(huge) << kHeader; }
        std::filesystem::resize_file(huge, std::uintmax_t(1) << 30);
        auto big = readRunsCsv(huge);
        QVERIFY(!big.ok());
        QVERIFY2(contains(big.message(), "huge.csv"), big.message().c_str());
        // A good file reads, named by its path in messages.
        const auto good = root / "good.csv";
        { std::ofstream(good) << kHeader << "8,32,4,1024,16,24,1024,2,2,2,219.7\n"; }
        auto runs = readRunsCsv(good);
        QVERIFY2(runs.ok(), runs.ok() ? "" : runs.message().c_str());
        QCOMPARE(runs->size(), std::size_t(1));
        { std::ofstream(good) << kHeader << "8,32,4,1024,16,24,1024,2,2,3,219.7\n"; }
        auto bad = readRunsCsv(good);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().rfind(good.string() + ": line 2", 0) == 0, bad.message().c_str());
    }

    void userFilesCsvOrJson() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path root = dir.path().toStdString();
        const auto embeddedText = [](const std::string& path) {
            for (const EmbeddedFile& f : embeddedResources())
                if (f.path == path) return std::string(f.content);
            return std::string();
        };
        // A copy of a bundled inline set reads as the bundled one does, on its own hardware.
        { std::ofstream(root / "h100.json") << embeddedText("validation/h100-megatron-core.json"); }
        auto mine = runSetFromFile(root / "h100.json", "a100-like");
        QVERIFY2(mine.ok(), mine.ok() ? "" : mine.message().c_str());
        auto bundled = bundledRunSet("h100-megatron-core");
        QVERIFY(bundled.ok());
        QCOMPARE(mine->name, std::string("h100.json"));
        QCOMPARE(mine->hardware, std::string("h100-80gb"));
        QCOMPARE(mine->runs.size(), bundled->runs.size());
        for (std::size_t i = 0; i < mine->runs.size(); ++i) {
            QCOMPARE(mine->runs[i].measuredSeconds, bundled->runs[i].measuredSeconds);
            QCOMPARE(mine->runs[i].zero, bundled->runs[i].zero);
            QCOMPARE(mine->runs[i].model.tiedEmbeddings, false);
        }
        // "tied_embeddings" is a boolean: anything else names the key.
        std::string text = embeddedText("validation/h100-megatron-core.json");
        const std::string flag = "\"tied_embeddings\": false";
        QVERIFY(text.find(flag) != std::string::npos);
        text.replace(text.find(flag), flag.size(), "\"tied_embeddings\": \"no\"");
        { std::ofstream(root / "bad.json") << text; }
        auto bad = runSetFromFile(root / "bad.json", "a100-like");
        QVERIFY(!bad.ok());
        QVERIFY2(contains(bad.message(), "defaults.tied_embeddings must be true or false"),
                 bad.message().c_str());
        // A set whose runs are a CSV file reads that file from beside it.
        { std::ofstream(root / "set.json") << embeddedText("validation/single-node-a100.json"); }
        auto noCsv = runSetFromFile(root / "set.json", "a100-like");
        QVERIFY(!noCsv.ok());
        QVERIFY2(contains(noCsv.message(), "single-node-a100.csv"), noCsv.message().c_str());
        { std::ofstream(root / "single-node-a100.csv") << bundledCsv(); }
        auto withCsv = runSetFromFile(root / "set.json", "a100-like");
        QVERIFY2(withCsv.ok(), withCsv.ok() ? "" : withCsv.message().c_str());
        QCOMPARE(withCsv->runs.size(), bundledRunSet("single-node-a100")->runs.size());
        // Another JSON document is refused with what was expected; a CSV file takes the
        // caller's hardware.
        { std::ofstream(root / "project.json") << R"({"format": "tandem-project", "version": 1})"; }
        auto other = runSetFromFile(root / "project.json", "a100-like");
        QVERIFY(!other.ok());
        QVERIFY2(contains(other.message(), "tandem-validation"), other.message().c_str());
        { std::ofstream(root / "r.csv") << kHeader << "8,32,4,1024,16,24,1024,2,2,2,219.7\n"; }
        auto csv = runSetFromFile(root / "r.csv", "v100-32gb");
        QVERIFY2(csv.ok(), csv.ok() ? "" : csv.message().c_str());
        QCOMPARE(csv->hardware, std::string("v100-32gb"));
        QCOMPARE(csv->runs.size(), std::size_t(1));
    }

    void columnNamesNormalise() {
        QCOMPARE(normalizeColumnName("# GPUs"), std::string("gpus"));
        QCOMPARE(normalizeColumnName("iteration time (ms)"), std::string("iteration time ms"));
        QCOMPARE(normalizeColumnName("  Iteration_Time-MS "), std::string("iteration time ms"));
        QCOMPARE(normalizeColumnName("# layers"), std::string("layers"));
        QVERIFY(contains(runsCsvColumnList(), "GPUs, global batch"));
        QVERIFY(contains(runsCsvColumnList(), "optional: micro batch"));
    }
};

QTEST_GUILESS_MAIN(TestRunCsvReader)
#include "test_run_csv_reader.moc"
