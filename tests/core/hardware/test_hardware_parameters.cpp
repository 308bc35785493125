// The parameter registries and textual overrides: defaults agree with the structs, every bound
// is accepted and everything just past it refused with a message naming key, value, unit and
// range, cross-field rules hold, and value parsing is strict.
#include <QtTest>
#include <cmath>
#include <set>
#include <string>

#include "core/hardware/parameter_overrides.h"
#include "core/hardware/parameter_registry.h"
#include "text_checks.h"

using namespace tandem::core::hardware;
using tandem::core::Status;

namespace {

using tandem::test::contains;

// Every non-choice parameter: bounds in, just-outside values out, with a complete message.
template <class Config>
void checkBounds(const ParameterRegistry<Config>& registry) {
    for (const auto& p : registry.parameters()) {
        const ParameterSpec& s = p.spec;
        if (s.kind == ParameterKind::Choice) {
            QVERIFY(s.check(0, registry.section()).ok());
            QVERIFY(s.check(double(s.choices.size() - 1), registry.section()).ok());
            QVERIFY(!s.check(double(s.choices.size()), registry.section()).ok());
            QVERIFY(!s.check(-1, registry.section()).ok());
            QVERIFY(!s.check(0.5, registry.section()).ok());
            continue;
        }
        const bool integer = s.kind == ParameterKind::Integer;
        const double lowest = s.minExclusive ? std::nextafter(s.minValue, s.maxValue) : s.minValue;
        QVERIFY2(s.check(lowest, registry.section()).ok(), s.key.data());
        QVERIFY2(s.check(s.maxValue, registry.section()).ok(), s.key.data());
        const double below = s.minExclusive
                                 ? s.minValue
                                 : (integer ? s.minValue - 1 : std::nextafter(s.minValue, -1e300));
        const double above = integer ? s.maxValue + 1 : std::nextafter(s.maxValue, 1e300);
        for (double bad : {below, above, s.maxValue * 1e6 + 1e30}) {
            const Status status = s.check(bad, registry.section());
            QVERIFY2(!status.ok(), s.key.data());
            const std::string& m = status.message();
            VERIFY_CONTAINS(m, std::string(registry.section()) + "." + std::string(s.key) + " = " +
                                   s.formatValue(bad) + " is out of range: must be ");
            VERIFY_CONTAINS(m, s.describeRange());
            VERIFY_CONTAINS(m, "(" + std::string(s.unit) + ")");
        }
        for (double bad : {std::nan(""), double(INFINITY), -double(INFINITY)}) {
            const Status status = s.check(bad, registry.section());
            QVERIFY(!status.ok());
            VERIFY_CONTAINS(status.message(), "is not a finite number");
        }
        if (integer) {
            const Status half = s.check(lowest + 0.5, registry.section());
            QVERIFY(!half.ok());
            VERIFY_CONTAINS(half.message(), "is not an integer");
        }
    }
}

template <class Config>
void checkDefaults(const ParameterRegistry<Config>& registry) {
    const Config structDefaults{};
    QVERIFY(registry.defaults() == structDefaults);
    QVERIFY2(registry.validate(structDefaults).ok(),
             registry.validate(structDefaults).message().c_str());
    for (const auto& p : registry.parameters()) {
        QCOMPARE(p.get(structDefaults), p.spec.defaultValue);
        QVERIFY(p.spec.check(p.spec.defaultValue, registry.section()).ok());
        QVERIFY(!p.spec.label.empty());
        QVERIFY(!p.spec.description.empty());
        QVERIFY(!p.spec.group.empty());
        QVERIFY(registry.find(p.spec.key) == &p);
        QVERIFY(registry.findFlag(p.spec.cliFlag()) == &p);
        // Every value the getter returns, the setter stores back unchanged.
        Config copy{};
        p.set(copy, p.get(structDefaults));
        QVERIFY(copy == structDefaults);
    }
}

}  // namespace

class TestHardwareParameters : public QObject {
    Q_OBJECT

private slots:
    void defaultsAgreeWithStructs() {
        checkDefaults(acceleratorParameters());
        checkDefaults(clusterParameters());
        checkDefaults(trainingParameters());
        QCOMPARE(acceleratorParameters().parameters().size(), std::size_t(31));
        QCOMPARE(clusterParameters().parameters().size(), std::size_t(10));
        QCOMPARE(trainingParameters().parameters().size(), std::size_t(17));
    }

    // Issue 27, item 8: the default teaches what large runs do — Adam's state counts in HBM.
    void optimizerDefaultsToAdam() {
        QVERIFY(TrainingConfig{}.optimizer == Optimizer::Adam);
        const auto* spec = trainingParameters().find("optimizer");
        QVERIFY(spec);
        QCOMPARE(spec->spec.formatValue(spec->spec.defaultValue), std::string("adam"));
        QVERIFY(trainingParameters().defaults().optimizer == Optimizer::Adam);
    }

    void settersReachTheRightField() {
        AcceleratorConfig a;
        acceleratorParameters().find("tensorCoreCols")->set(a, 64);
        QCOMPARE(a.tensorCoreCols, std::int64_t(64));
        QCOMPARE(a.tensorCoreRows, std::int64_t(128));
        acceleratorParameters().find("hbmBandwidthBytesPerSecond")->set(a, 2.5e12);
        QCOMPARE(a.hbmBandwidthBytesPerSecond, 2.5e12);
        TrainingConfig t;
        trainingParameters().find("recompute")->set(t, 2);
        QVERIFY(t.recompute == Recompute::Auto);
        trainingParameters().find("optimizer")->set(t, 1);
        QVERIFY(t.optimizer == Optimizer::Adam);
        QCOMPARE(trainingParameters().find("optimizer")->get(t), 1.0);
        trainingParameters().find("recompute")->set(t, 3);
        QVERIFY(t.recompute == Recompute::Selective);
        trainingParameters().find("sequenceParallel")->set(t, 1);
        QVERIFY(t.sequenceParallel == SequenceParallel::On);
        trainingParameters().find("sequenceParallel")->set(t, 2);
        QVERIFY(t.sequenceParallel == SequenceParallel::Auto);
        trainingParameters().find("interleave")->set(t, 4);
        QCOMPARE(t.interleave, std::int64_t(4));
        acceleratorParameters().find("operatorExecution")->set(a, 1);
        QVERIFY(a.operatorExecution == OperatorExecution::Serial);
        acceleratorParameters().find("tensorCoreEfficiency")->set(a, 0.5);
        QCOMPARE(a.tensorCoreEfficiency, 0.5);
        ClusterConfig c;
        clusterParameters().find("collectiveEfficiency")->set(c, 0.75);
        QCOMPARE(c.collectiveEfficiency, 0.75);
        // ideal() restores PHAZE's execution and nothing else.
        const AcceleratorConfig ideal = a.ideal();
        QCOMPARE(ideal.tensorCoreEfficiency, 1.0);
        QVERIFY(ideal.operatorExecution == OperatorExecution::Overlapped);
        QCOMPARE(ideal.tensorCoreCols, std::int64_t(64));
        QCOMPARE(c.ideal().collectiveEfficiency, 1.0);
    }

    void keysAndFlagsAreUnique() {
        std::set<std::string> keys, flags;
        std::size_t count = 0;
        const auto collect = [&](const auto& registry) {
            for (const auto& p : registry.parameters()) {
                keys.insert(std::string(p.spec.key));
                flags.insert(p.spec.cliFlag());
                ++count;
            }
        };
        collect(acceleratorParameters());
        collect(clusterParameters());
        collect(trainingParameters());
        QCOMPARE(keys.size(), count);
        QCOMPARE(flags.size(), count);
        QCOMPARE(acceleratorParameters().find("numTensorCores")->spec.cliFlag(),
                 std::string("--num-tensor-cores"));
        QCOMPARE(acceleratorParameters().find("hbmBandwidthBytesPerSecond")->spec.cliFlag(),
                 std::string("--hbm-bandwidth-bytes-per-second"));
        QVERIFY(isParameterFlag("--devices-per-node"));
        QVERIFY(isParameterFlag("--recompute"));
        QVERIFY(!isParameterFlag("--model"));
        QVERIFY(!isParameterFlag("numTensorCores"));
    }

    void everyBoundIsEnforced() {
        checkBounds(acceleratorParameters());
        checkBounds(clusterParameters());
        checkBounds(trainingParameters());
    }

    void messagesNameKeyValueUnitAndRange() {
        const auto& acc = acceleratorParameters();
        QCOMPARE(acc.find("numTensorCores")->spec.check(0, "accelerator").message(),
                 std::string("accelerator.numTensorCores = 0 is out of range: must be an integer "
                             "in [1, 65536] (cores)"));
        QCOMPARE(acc.find("hbmCapacityBytes")->spec.check(1e30, "accelerator").message(),
                 std::string("accelerator.hbmCapacityBytes = 1e+30 is out of range: must be an "
                             "integer in [1048576, 17592186044416] (B)"));
        QCOMPARE(acc.find("bytesPerElement")->spec.check(3, "accelerator").message(),
                 std::string("accelerator.bytesPerElement = 3 is not a power of two: must be an "
                             "integer power of two in [1, 8] (B)"));
        QCOMPARE(acc.find("hbmBandwidthBytesPerSecond")->spec.check(0, "accelerator").message(),
                 std::string("accelerator.hbmBandwidthBytesPerSecond = 0 is out of range: must "
                             "be a number in [1e+06, 1e+15] (B/s)"));
        QCOMPARE(trainingParameters().find("recompute")->spec.check(4, "training").message(),
                 std::string("training.recompute = 4 is not a valid choice: must be one of off, "
                             "on, auto, selective"));
        // 0 leaves V to the placement (kInterleaveChosen); below that is out of range.
        QVERIFY(trainingParameters().find("interleave")->spec.check(0, "training").ok());
        QCOMPARE(trainingParameters().find("interleave")->spec.check(-1, "training").message(),
                 std::string("training.interleave = -1 is out of range: must be an integer in "
                             "[0, 1024] (chunks)"));
        for (double ok : {1.0, 2.0, 4.0, 8.0})
            QVERIFY(acc.find("bytesPerElement")->spec.check(ok, "accelerator").ok());
        // Non-powers of two are valid single configurations (an A100 has 108 SMs); the flag
        // only marks PHAZE's search grid.
        QVERIFY(acc.find("numTensorCores")->spec.check(108, "accelerator").ok());
        QVERIFY(acc.find("numTensorCores")->spec.searchPowerOfTwo);
        QVERIFY(acc.find("globalBufferBytes")->spec.check(40 << 20, "accelerator").ok());
        QVERIFY(!acc.find("hbmCapacityBytes")->spec.searchPowerOfTwo);
    }

    void crossFieldRules() {
        ClusterConfig c;
        c.devices = 8;
        c.devicesPerNode = 8;
        QVERIFY(clusterParameters().validate(c).ok());
        c.devicesPerNode = 16;
        const Status cluster = clusterParameters().validate(c);
        QVERIFY(!cluster.ok());
        VERIFY_CONTAINS(cluster.message(),
                        "cluster.devicesPerNode = 16 is larger than "
                        "cluster.devices = 8");
        TrainingConfig t;
        t.globalBatch = 32;
        t.microbatch = 32;
        QVERIFY(trainingParameters().validate(t).ok());
        t.microbatch = 64;
        const Status training = trainingParameters().validate(t);
        QVERIFY(!training.ok());
        VERIFY_CONTAINS(training.message(),
                        "training.microbatch = 64 is larger than "
                        "training.globalBatch = 32");
        // A batch splits into whole microbatches (Megatron refuses the rest).
        t.microbatch = 3;
        VERIFY_CONTAINS(trainingParameters().validate(t).message(),
                        "training.globalBatch = 32 is not a multiple of training.microbatch = 3");
        t.globalBatch = 33;
        QVERIFY(trainingParameters().validate(t).ok());
        AcceleratorConfig a;
        a.numVectorCores = -3;
        VERIFY_CONTAINS(acceleratorParameters().validate(a).message(),
                        "accelerator.numVectorCores = -3 is out of range");
    }

    void enumNames() {
        for (Recompute r : {Recompute::Off, Recompute::On, Recompute::Auto}) {
            Recompute back = Recompute::Off;
            QVERIFY(parseRecompute(toString(r), back));
            QVERIFY(back == r);
        }
        for (Optimizer o : {Optimizer::Sgd, Optimizer::Adam}) {
            Optimizer back = Optimizer::Sgd;
            QVERIFY(parseOptimizer(toString(o), back));
            QVERIFY(back == o);
        }
        QCOMPARE(std::string(toString(Recompute::Auto)), std::string("auto"));
        QCOMPARE(std::string(toString(Optimizer::Adam)), std::string("adam"));
        Recompute r = Recompute::On;
        QVERIFY(!parseRecompute("Off", r));
        QVERIFY(!parseRecompute("", r));
        QVERIFY(r == Recompute::On);
        Optimizer o = Optimizer::Sgd;
        QVERIFY(!parseOptimizer("lamb", o));
    }

    void valueParsingIsStrict_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("value");
        const auto row = [](const char* key, const char* text, bool ok, double value) {
            QTest::newRow(qPrintable(QString("%1=%2").arg(key, text)))
                << QString(key) << QString(text) << ok << value;
        };
        row("numTensorCores", "16", true, 16);
        row("numTensorCores", "1e3", true, 1000);
        row("numTensorCores", "108", true, 108);
        for (const char* bad : {"12abc", "", " 8", "8 ", "+8", "0x10", "nan", "inf", "-inf", "2.5",
                                "-4", "0", "1e400", "65537", "8cores", "eight"})
            row("numTensorCores", bad, false, 0);
        row("hbmCapacityBytes", "80GiB", true, 80.0 * (1ull << 30));
        row("hbmCapacityBytes", "80GB", true, 80e9);
        row("hbmCapacityBytes", "34359738368", true, 34359738368.0);
        row("hbmCapacityBytes", "1TiB", true, double(1ull << 40));
        row("hbmCapacityBytes", "1.5KiB", false, 0);  // an integer, but below 1 MiB
        row("hbmCapacityBytes", "GiB", false, 0);
        row("hbmCapacityBytes", "1e30", false, 0);
        row("hbmCapacityBytes", "80 GiB", false, 0);
        row("hbmCapacityBytes", "80gib", false, 0);
        row("globalBufferBytes", "40MiB", true, 40.0 * (1 << 20));
        row("globalBufferBytes", "1.0000001MiB", false, 0);  // not a whole number of bytes
        row("hbmBandwidthBytesPerSecond", "2.039TB/s", true, 2.039e12);
        row("hbmBandwidthBytesPerSecond", "1.2e12", true, 1.2e12);
        row("hbmBandwidthBytesPerSecond", "2TB", false, 0);
        row("hbmBandwidthBytesPerSecond", "0", false, 0);
        row("clockHz", "1.41GHz", true, 1.41e9);
        row("clockHz", "1050MHz", true, 1050e6);
        row("clockHz", "1.05e9", true, 1.05e9);
        row("clockHz", "1.05 GHz", false, 0);
        row("bytesPerElement", "4", true, 4);
        row("bytesPerElement", "3", false, 0);
    }

    void valueParsingIsStrict() {
        QFETCH(QString, key);
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(double, value);
        const auto* p = acceleratorParameters().find(key.toStdString());
        QVERIFY(p != nullptr);
        const auto parsed = parseParameterValue(p->spec, text.toStdString(), "accelerator");
        QCOMPARE(parsed.ok(), ok);
        if (ok) {
            QCOMPARE(*parsed, value);
        } else {
            VERIFY_CONTAINS(parsed.message(), "accelerator." + key.toStdString() + " = ");
            VERIFY_CONTAINS(parsed.message(), p->spec.describeRange());
        }
    }

    void choiceParsing() {
        const auto& spec = trainingParameters().find("recompute")->spec;
        QCOMPARE(*parseParameterValue(spec, "auto", "training"), 2.0);
        for (const char* bad : {"AUTO", "2", "", "maybe"}) {
            const auto parsed = parseParameterValue(spec, bad, "training");
            QVERIFY(!parsed.ok());
            VERIFY_CONTAINS(parsed.message(), "must be one of off, on, auto");
        }
    }

    void overridesReachTheOwningConfig() {
        AcceleratorConfig a;
        ClusterConfig c;
        TrainingConfig t;
        const ConfigTargets all{&a, &c, &t};
        QVERIFY(applyOverride(all, "numTensorCores=16").ok());
        QVERIFY(applyOverride(all, "cluster.devices=512").ok());
        QVERIFY(applyOverride(all, "training.microbatch=4").ok());
        QVERIFY(applyOverride(all, "optimizer=adam").ok());
        QVERIFY(applyFlag(all, "--hbm-capacity-bytes", "80GiB").ok());
        QVERIFY(applyFlag(all, "--hop-latency-seconds", "5e-6").ok());
        QVERIFY(applyFlag(all, "--recompute", "on").ok());
        QCOMPARE(a.numTensorCores, std::int64_t(16));
        QCOMPARE(a.hbmCapacityBytes, std::int64_t(80) << 30);
        QCOMPARE(c.devices, std::int64_t(512));
        QCOMPARE(c.hopLatencySeconds, 5e-6);
        QCOMPARE(t.microbatch, std::int64_t(4));
        QVERIFY(t.optimizer == Optimizer::Adam);
        QVERIFY(t.recompute == Recompute::On);
        QVERIFY(validateTargets(all).ok());
    }

    void badOverridesAreRefusedAndChangeNothing() {
        AcceleratorConfig a;
        ClusterConfig c;
        TrainingConfig t;
        const ConfigTargets all{&a, &c, &t};
        struct Case {
            const char* assignment;
            const char* mustMention;
        };
        for (const Case& k :
             {Case{"numTensorCore=16", "unknown parameter 'numTensorCore'"},
              Case{"numTensorCore=16", "accelerator: numTensorCores, "},
              Case{"numTensorCores", "expected key=value"}, Case{"=5", "expected key=value"},
              Case{"numTensorCores=12abc", "= '12abc' is not a number"},
              Case{"numTensorCores=0", "is out of range"},
              Case{"numTensorCores=", "is not a number"},
              Case{"foo.devices=2", "unknown section 'foo'"},
              Case{"accelerator.devices=2", "unknown parameter 'devices'"},
              Case{"recompute=maybe", "one of off, on, auto"}}) {
            const Status s = applyOverride(all, k.assignment);
            QVERIFY2(!s.ok(), k.assignment);
            VERIFY_CONTAINS(s.message(), k.mustMention);
            VERIFY_CONTAINS(s.message(), std::string("--set ") + k.assignment);
        }
        const Status flag = applyFlag(all, "--num-tensor-core", "4");
        QVERIFY(!flag.ok());
        VERIFY_CONTAINS(flag.message(), "unknown parameter '--num-tensor-core'");
        QVERIFY(!applyFlag(all, "-n", "4").ok());
        QVERIFY(a == AcceleratorConfig{});
        QVERIFY(c == ClusterConfig{});
        QVERIFY(t == TrainingConfig{});

        const ConfigTargets hardwareOnly{&a, &c, nullptr};
        const Status training = applyOverride(hardwareOnly, "globalBatch=8");
        QVERIFY(!training.ok());
        VERIFY_CONTAINS(training.message(), "training.globalBatch does not apply");
        VERIFY_CONTAINS(applyOverride(hardwareOnly, "nope=1").message(),
                        "valid keys are accelerator: ");
    }

    void crossFieldChecksWaitForAllOverrides() {
        AcceleratorConfig a;
        ClusterConfig c;
        const ConfigTargets targets{&a, &c, nullptr};
        QVERIFY(applyOverride(targets, "devices=2").ok());  // devicesPerNode is still 4
        const Status midway = validateTargets(targets);
        QVERIFY(!midway.ok());
        VERIFY_CONTAINS(midway.message(), "cluster.devicesPerNode = 4 is larger than");
        QVERIFY(applyOverride(targets, "devicesPerNode=2").ok());
        QVERIFY(validateTargets(targets).ok());
    }
};

QTEST_GUILESS_MAIN(TestHardwareParameters)
#include "test_hardware_parameters.moc"
