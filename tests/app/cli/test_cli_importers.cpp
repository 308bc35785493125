// `--model` with the files people already have: a Hugging Face config.json gives the
// same totals as the zoo entry it describes, an ONNX GPT block flows through estimate, schedule
// and place, and every malformed input exits with code 2 and a message.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "test_paths.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {
std::string data(const char* relative) {
    return tandem::test::testDataDir() + "/importers/" + relative;
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
