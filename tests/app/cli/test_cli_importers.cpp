// `--model` with the files people already have: a Hugging Face config.json gives the
// same totals as the zoo entry it describes, an ONNX GPT block flows through estimate, schedule
// and place, and every malformed input exits with code 2 and a message. Names Tandem does not
// check (ONNX node names, file names) may hold invalid UTF-8: every JSON output still writes,
// with U+FFFD for each bad byte.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <cstdio>
#include <fstream>

#include "core/search/search_space.h"
#include "test_paths.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {
std::string data(const char* relative) {
    return tandem::test::testDataDir() + "/importers/" + relative;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Valid JSON, and no invalid UTF-8 left in it (QJsonDocument would replace it silently).
bool validUtf8Json(const QByteArray& text) {
    QJsonParseError error{};
    QJsonDocument::fromJson(text, &error);
    return error.error == QJsonParseError::NoError && !text.isEmpty() &&
           QString::fromUtf8(text).toUtf8() == text;
}
}  // namespace

class TestCliImporters : public QObject {
    Q_OBJECT

private slots:
    void huggingFaceConfigMatchesZoo() {
        for (const char* name : {"gpt2-xl", "bert-large", "opt-350m", "opt-1.3b", "llama2-7b"}) {
            const auto zoo = run({"estimate", "--model", name, "--json"});
            const auto hf = run({"estimate", "--model",
                                 data((std::string("hf/") + name + ".json").c_str()), "--json"});
            QVERIFY2(zoo.code == 0 && hf.code == 0, hf.err.c_str());
            const QJsonObject a = parseObject(zoo.out)["totals"].toObject();
            const QJsonObject b = parseObject(hf.out)["totals"].toObject();
            for (const char* key :
                 {"forward_flops", "backward_flops", "gemm_forward_flops", "model_parameters"})
                QVERIFY2(a[key].toDouble() == b[key].toDouble(),
                         qPrintable(QString("%1 %2: %3 vs %4")
                                        .arg(name, key)
                                        .arg(a[key].toDouble())
                                        .arg(b[key].toDouble())));
        }
    }

    void onnxBlockFlowsThroughThePipeline() {
        const std::string block = data("onnx/gpt_block.onnx");
        for (const char* command : {"estimate", "schedule", "place"}) {
            std::vector<std::string> args{command, "--model", block, "--mbs", "2", "--seq", "16"};
            if (std::string(command) == "place")
                args = {command, "--model", block, "--mbs", "2", "--seq", "16", "--devices", "16"};
            args.push_back("--json");
            const auto r = run(args);
            QVERIFY2(r.code == 0, qPrintable(QString("%1: %2").arg(command, r.err.c_str())));
            QVERIFY(!parseObject(r.out).isEmpty());
        }
    }

    void invalidUtf8NamesStillWriteJson() {
        QTemporaryDir dir;
        // The GPT block with one layer's node and tensor names holding a 0xFF byte (same length,
        // so the protobuf stays well formed), saved under a file name that holds one too.
        QByteArray onnx = readAll(QString::fromStdString(data("onnx/gpt_block.onnx")));
        QVERIFY(onnx.contains("/h.0/attn/Softmax"));
        onnx.replace("/h.0/attn/Softmax",
                     "/h.0/attn/Soft\xFF"
                     "ax");
        const std::string model = dir.path().toStdString() + "/block\xFE.onnx";
        {
            std::ofstream file(model, std::ios::binary);  // the path's bytes as they are
            file.write(onnx.constData(), onnx.size());
            QVERIFY(file.good());
        }
        auto space = tandem::core::search::SearchSpace::phaze();
        space.numTensorCores = {4};
        space.tensorCoreRows = {128};
        space.tensorCoreCols = {128};
        space.numVectorCores = {2};
        space.globalBufferBytes = {std::int64_t(128) << 20};
        space.microbatchSizes = {2};
        space.hbmCapacityBytes = {std::int64_t(32) << 30};
        space.recompute = {tandem::core::hardware::Recompute::Off};
        const std::string spacePath = dir.filePath("space.json").toStdString();
        QVERIFY(space.saveFile(spacePath));
        const QString trace = dir.filePath("trace.json"), results = dir.filePath("results.json");
        const std::vector<std::string> shape{"--mbs", "2", "--seq", "16"};
        struct Case {
            std::vector<std::string> args;
            QString file;            // empty: the JSON is on stdout
            bool namesModel = true;  // the output quotes the model's or a layer's name
        };
        const std::vector<Case> cases{
            {{"estimate", "--model", model, "--mbs", "2", "--seq", "16", "--json"}, {}},
            {{"schedule", "--model", model, "--mbs", "2", "--seq", "16", "--json"}, {}},
            {{"schedule", "--model", model, "--mbs", "2", "--seq", "16", "--trace",
              trace.toStdString()},
             trace},
            {{"place", "--model", model, "--mbs", "2", "--seq", "16", "--devices", "16", "--json"},
             {},
             false},
            {{"search", "--model", model, "--space", spacePath, "--devices", "16", "--global-batch",
              "32", "--threads", "1", "--quiet", "--json", results.toStdString()},
             results},
        };
        for (const Case& c : cases) {
            const auto r = run(c.args);
            const QString what = QString::fromStdString(c.args.front());
            QVERIFY2(r.code == 0, qPrintable(what + ": " + QString::fromStdString(r.err)));
            const QByteArray text =
                c.file.isEmpty() ? QByteArray::fromStdString(r.out) : readAll(c.file);
            QVERIFY2(validUtf8Json(text), qPrintable(what));
            if (c.namesModel)
                QVERIFY2(text.contains("\xEF\xBF\xBD"), qPrintable(what + ": no U+FFFD"));
        }
        std::remove(model.c_str());  // QTemporaryDir cannot name it
    }

    void malformedInputsExitTwo() {
        QTemporaryDir dir;
        auto write = [&dir](const QString& name, const QByteArray& content) {
            QFile file(dir.filePath(name));
            if (file.open(QIODevice::WriteOnly)) file.write(content);
            return dir.filePath(name).toStdString();
        };
        const std::vector<std::string> inputs{
            data("onnx/truncated.onnx"),
            data("onnx/cyclic.onnx"),
            write("unknown.json", R"({"model_type": "mamba", "hidden_size": 8})"),
            write("types.json", R"({"model_type": "llama", "num_hidden_layers": "32"})"),
            write("empty.json", ""),
            write("zero.onnx", ""),
            write("noise.onnx", QByteArray(4096, '\xA5')),
            dir.path().toStdString(),
        };
        for (const std::string& input : inputs) {
            const auto r = run({"estimate", "--model", input});
            QVERIFY2(r.code == 2,
                     qPrintable(QString("%1 exited %2").arg(input.c_str()).arg(r.code)));
            QVERIFY2(!r.err.empty(), input.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliImporters)
#include "test_cli_importers.moc"
