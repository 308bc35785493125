// Hugging Face config.json import: the published configs of the zoo's HF models must build
// graphs equal to the zoo entries (parameters, FLOPs, every layer's estimated costs), and every
// malformed input is an error value that names the problem.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "core/estimate/model_estimate.h"
#include "core/hardware/preset_library.h"
#include "core/importers/hf_config_importer.h"
#include "core/importers/model_loader.h"
#include "core/model/model_zoo.h"
#include "core/model/transformer_source.h"
#include "test_paths.h"

using namespace tandem::core;
using namespace tandem::core::importers;

namespace {

std::string hfPath(const std::string& name) {
    return tandem::test::testDataDir() + "/importers/hf/" + name + ".json";
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

const model::TransformerSpec& specOf(const model::ModelSourcePtr& source) {
    const auto* transformer = dynamic_cast<const model::TransformerSource*>(&source->underlying());
    if (!transformer) qFatal("not a TransformerSource");
    return transformer->spec();
}

// What may legitimately differ between an import and the zoo's hand-written entry: names, the
// widths PHAZE searched and PHAZE's fixed baseline strategy, which a config cannot know.
model::TransformerSpec comparable(model::TransformerSpec spec) {
    spec.name.clear();
    spec.description.clear();
    spec.tensorParallelWidths.clear();
    spec.baseline = {};
    return spec;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

class TestImportersHf : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string write(const std::string& name, const std::string& content) {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

    static std::string withField(std::string json, const std::string& field,
                                 const std::string& value) {
        const std::string key = "\"" + field + "\": ";
        const std::size_t at = json.find(key);
        if (at == std::string::npos) qFatal("field not found");
        const std::size_t end = json.find_first_of(",\n}", at + key.size());
        return json.replace(at + key.size(), end - at - key.size(), value);
    }
    static std::string withoutField(std::string json, const std::string& field) {
        const std::size_t at = json.find("\"" + field + "\":");
        if (at == std::string::npos) qFatal("field not found");
        const std::size_t lineStart = json.rfind('\n', at);
        const std::size_t lineEnd = json.find('\n', at);
        return json.erase(lineStart, lineEnd - lineStart);
    }

    static std::string expectError(const std::string& path) {
        const auto loaded = loadModelWithReport(path);
        if (loaded) qFatal("expected an error for %s", path.c_str());
        return loaded.message();
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void matchesZoo_data() {
        QTest::addColumn<QString>("name");
        for (const char* name :
             {"gpt2-xl", "bert-large", "opt-350m", "opt-1.3b", "llama2-7b", "bloom-176b"})
            QTest::newRow(name) << name;
    }
    void matchesZoo() {
        QFETCH(QString, name);
        const std::string zooName = name.toStdString();
        const auto loaded = loadModelWithReport(hfPath(zooName));
        QVERIFY2(loaded, loaded ? "" : loaded.message().c_str());
        QCOMPARE(loaded->format, std::string("huggingface-config"));
        QCOMPARE(loaded->source->name(), zooName);
        const auto zoo = model::zooModel(zooName);
        QVERIFY(zoo);
        QVERIFY(comparable(specOf(loaded->source)) == comparable(specOf(*zoo)));

        const auto hardware = hardware::PresetLibrary::preset("tpuv4-like");
        QVERIFY(hardware);
        const estimate::OperatorEstimator estimator(hardware->accelerator, hardware->cluster);
        model::BuildOptions defaults;  // microbatch 1, the config's sequence length
        model::BuildOptions shorter;
        shorter.microbatch = 2;
        shorter.sequenceLength = 128;
        for (const model::BuildOptions& options : {defaults, shorter}) {
            const auto ours = loaded->source->build(options);
            const auto theirs = (*zoo)->build(options);
            QVERIFY2(ours, ours ? "" : ours.message().c_str());
            QVERIFY(theirs);
            QCOMPARE(ours->options().sequenceLength, theirs->options().sequenceLength);
            QCOMPARE(ours->parameterCount(), theirs->parameterCount());
            QCOMPARE(ours->parameterBytes(), theirs->parameterBytes());
            QCOMPARE(ours->forwardFlops(), theirs->forwardFlops());
            QCOMPARE(ours->backwardFlops(), theirs->backwardFlops());
            QCOMPARE(ours->layers().size(), theirs->layers().size());
            QCOMPARE(ours->edges(), theirs->edges());
            const auto a = estimate::estimateModel(*ours, estimator);
            const auto b = estimate::estimateModel(*theirs, estimator);
            QCOMPARE(a.layers.size(), b.layers.size());
            for (std::size_t l = 0; l < a.layers.size(); ++l) {
                QCOMPARE(a.layers[l].name, b.layers[l].name);
                QVERIFY(a.layers[l].table.forward == b.layers[l].table.forward);
                QVERIFY(a.layers[l].table.backward == b.layers[l].table.backward);
            }
        }
    }

    // Published parameter counts (Hugging Face model cards / num_parameters()).
    void publishedParameterCounts_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("parameters");
        QTest::newRow("gpt2-xl") << "gpt2-xl" << 1557611200.0;
        QTest::newRow("llama2-7b") << "llama2-7b" << 6738415616.0;
        QTest::newRow("mistral-7b") << "mistral-7b" << 7241732096.0;
        QTest::newRow("opt-1.3b") << "opt-1.3b" << 1315758080.0;
        QTest::newRow("bloom-176b") << "bloom-176b" << 176247271424.0;
    }
    void publishedParameterCounts() {
        QFETCH(QString, name);
        QFETCH(double, parameters);
        const auto source = loadModel(hfPath(name.toStdString()));
        QVERIFY2(source, source ? "" : source.message().c_str());
        const auto graph = (*source)->build({});
        QVERIFY(graph);
        QCOMPARE(graph->parameterCount(), parameters);
    }

    void mistralUsesGroupedQueryAttentionAndItsWindow() {
        const auto loaded = loadModelWithReport(hfPath("mistral-7b"));
        QVERIFY2(loaded, loaded ? "" : loaded.message().c_str());
        const auto& spec = specOf(loaded->source);
        QCOMPARE(spec.kvHeads, std::int64_t(8));
        QCOMPARE(spec.ffn, std::int64_t(14336));
        QCOMPARE(spec.maxSequence, std::int64_t(4096));  // the sliding window
        QCOMPARE(spec.tensorParallelWidths, (std::vector<std::int64_t>{1, 2, 4, 8}));
        QCOMPARE(loaded->warnings.size(), std::size_t(1));
        QVERIFY(contains(loaded->warnings[0], "sliding_window"));
        model::BuildOptions longer;
        longer.sequenceLength = 8192;
        const auto refused = loaded->source->build(longer);
        QVERIFY(!refused);
        QVERIFY(contains(refused.message(), "4096"));
        model::BuildOptions split;
        split.tensorParallel = 8;
        QVERIFY(loaded->source->build(split));
    }

    void fieldsMapToTheSpec() {
        const auto opt350 = parseHfConfig(readAll(hfPath("opt-350m")), "opt-350m.json", "x");
        QVERIFY(opt350);
        QCOMPARE(opt350->spec.projectionDim, std::int64_t(512));
        QVERIFY(!opt350->spec.preNorm);
        const auto opt13 = parseHfConfig(readAll(hfPath("opt-1.3b")), "opt-1.3b.json", "x");
        QVERIFY(opt13);
        QCOMPARE(opt13->spec.projectionDim, std::int64_t(0));  // word_embed_proj_dim == hidden
        // gpt2: n_inner absent → 4·n_embd; explicit n_inner and untied embeddings are honoured.
        const std::string gpt2 = readAll(hfPath("gpt2-xl"));
        const auto base = parseHfConfig(gpt2, "g", "g");
        QVERIFY(base);
        QCOMPARE(base->spec.ffn, std::int64_t(6400));
        std::string custom = withField(gpt2, "n_embd", "1600, \"n_inner\": 1000");
        custom = withField(custom, "vocab_size", "50257, \"tie_word_embeddings\": false");
        const auto changed = parseHfConfig(custom, "g", "g");
        QVERIFY2(changed, changed ? "" : changed.message().c_str());
        QCOMPARE(changed->spec.ffn, std::int64_t(1000));
        QVERIFY(!changed->spec.tiedEmbeddings);
        const auto relu =
            parseHfConfig(withField(gpt2, "activation_function", "\"relu\""), "g", "g");
        QVERIFY(relu);
        QVERIFY(relu->spec.activation == model::Activation::Relu);
        // The sequence length comes from the config unless the caller overrides it.
        const auto source = loadModel(hfPath("gpt2-xl"));
        QVERIFY(source);
        QCOMPARE((*source)->defaultSequenceLength(), std::int64_t(1024));
        model::BuildOptions options;
        options.sequenceLength = 256;
        QCOMPARE((*source)->build(options)->options().sequenceLength, std::int64_t(256));
    }

    void unknownModelTypeListsSupported() {
        const std::string gpt2 = readAll(hfPath("gpt2-xl"));
        const std::string message =
            expectError(write("t5.json", withField(gpt2, "model_type", "\"t5\"")));
        QVERIFY2(contains(message, "'t5'"), message.c_str());
        QVERIFY2(contains(message, "gpt2, bert, opt, llama, mistral"), message.c_str());
        QVERIFY2(contains(message, "t5.json"), message.c_str());
    }

    void missingFieldIsNamed_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("field");
        QTest::newRow("gpt2 n_embd") << "gpt2-xl"
                                     << "n_embd";
        QTest::newRow("gpt2 n_positions") << "gpt2-xl"
                                          << "n_positions";
        QTest::newRow("bert intermediate_size") << "bert-large"
                                                << "intermediate_size";
        QTest::newRow("opt ffn_dim") << "opt-350m"
                                     << "ffn_dim";
        QTest::newRow("llama intermediate_size") << "llama2-7b"
                                                 << "intermediate_size";
        QTest::newRow("model_type") << "llama2-7b"
                                    << "model_type";
    }
    void missingFieldIsNamed() {
        QFETCH(QString, model);
        QFETCH(QString, field);
        const std::string text =
            withoutField(readAll(hfPath(model.toStdString())), field.toStdString());
        const std::string message = expectError(write("missing.json", text));
        QVERIFY2(contains(message, field.toStdString()), message.c_str());
        QVERIFY2(contains(message, "missing") || contains(message, "no \"model_type\" key"),
                 message.c_str());
    }

    void wrongTypesAreErrors_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("string size") << "n_embd"
                                     << "\"1600\""
                                     << "integer";
        QTest::newRow("float size") << "n_layer"
                                    << "48.5"
                                    << "integer";
        QTest::newRow("negative") << "n_head"
                                  << "-25"
                                  << ">= 1";
        QTest::newRow("zero") << "vocab_size"
                              << "0"
                              << ">= 1";
        QTest::newRow("huge") << "n_positions"
                              << "18446744073709551615"
                              << "64 bits";
        QTest::newRow("bool as string") << "output_past"
                                        << "true, \"tie_word_embeddings\": \"yes\""
                                        << "true or false";
        QTest::newRow("model_type number") << "model_type"
                                           << "3"
                                           << "string";
        QTest::newRow("activation") << "activation_function"
                                    << "\"swish\""
                                    << "supported";
        QTest::newRow("cross attention") << "output_past"
                                         << "true, \"add_cross_attention\": true"
                                         << "cross-attention";
        QTest::newRow("not divisible") << "n_head"
                                       << "7"
                                       << "'n_head' = 7 does not divide n_embd";
    }
    void wrongTypesAreErrors() {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const std::string text =
            withField(readAll(hfPath("gpt2-xl")), field.toStdString(), value.toStdString());
        const std::string message = expectError(write("wrong.json", text));
        QVERIFY2(contains(message, expected.toStdString()), message.c_str());
        QVERIFY2(contains(message, "wrong.json"), message.c_str());
    }

    void llamaOptionsTheBuilderCannotExpress() {
        const std::string llama = readAll(hfPath("llama2-7b"));
        for (const auto& [field, value, expected] :
             {std::tuple<std::string, std::string, std::string>{"hidden_act", "\"gelu\"", "silu"},
              {"rms_norm_eps", "1e-05, \"attention_bias\": true", "attention_bias"},
              {"rms_norm_eps", "1e-05, \"head_dim\": 64", "head_dim"},
              {"rms_norm_eps", "\"small\"", "rms_norm_eps"},
              {"num_key_value_heads", "5", "'num_key_value_heads' = 5"}}) {
            const std::string message =
                expectError(write("llama.json", withField(llama, field, value)));
            QVERIFY2(contains(message, expected), message.c_str());
        }
        const std::string bert = readAll(hfPath("bert-large"));
        const std::string message = expectError(
            write("bert.json", withField(bert, "position_embedding_type", "\"relative_key\"")));
        QVERIFY2(contains(message, "position_embedding_type"), message.c_str());
    }

    void malformedFilesAreErrors() {
        const std::string empty = write("empty.json", "");
        QVERIFY(contains(expectError(empty), "empty"));
        QVERIFY(contains(expectError(write("blank.json", "  \n ")), "empty"));
        QVERIFY(contains(expectError(write("bad.json", "{\"model_type\": \"gpt2\",")), "JSON"));
        QVERIFY(contains(expectError(write("array.json", "[1, 2]")), "object"));
        QVERIFY(contains(expectError(write("neither.json", "{\"hidden_size\": 4}")), "model_type"));
        QVERIFY(contains(expectError(dir_.path().toStdString()), "directory"));
        QVERIFY(contains(expectError(dir_.path().toStdString() + "/absent.json"),
                         "nor an existing file"));
        QVERIFY(contains(expectError(""), "no model given"));
        // Deeply nested JSON must not exhaust the stack.
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        QVERIFY(!loadModel(write("deep.json", "{\"model_type\": " + deep + "}")));
    }

    void formatsAreToldApartByContent() {
        // An HF config under a name that says nothing, and a native model file.
        const auto hf = loadModelWithReport(write("anything.txt", readAll(hfPath("opt-350m"))));
        QVERIFY2(hf, hf ? "" : hf.message().c_str());
        QCOMPARE(hf->format, std::string("huggingface-config"));
        QCOMPARE(hf->source->name(), std::string("anything"));
        const auto native = loadModelWithReport(tandem::test::testDataDir() + "/models/mlp.json");
        QVERIFY2(native, native ? "" : native.message().c_str());
        QCOMPARE(native->format, std::string("tandem-model"));
        const auto zoo = loadModelWithReport("gpt3-175b");
        QVERIFY(zoo);
        QCOMPARE(zoo->format, std::string("zoo"));
        // A config.json takes its folder's name.
        QVERIFY(QDir(dir_.path()).mkpath("Llama-2-7b-hf"));
        const auto named =
            loadModel(write("Llama-2-7b-hf/config.json", readAll(hfPath("llama2-7b"))));
        QVERIFY(named);
        QCOMPARE((*named)->name(), std::string("Llama-2-7b-hf"));
    }
};

QTEST_GUILESS_MAIN(TestImportersHf)
#include "test_importers_hf.moc"
