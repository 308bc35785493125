// Rules between fields of the registry editors (issue 26): a precision the chip cannot run, and
// the overlaps Megatron-Core refuses (tensor-parallel overlap without sequence parallelism,
// parameter gather without ZeRO), are shown under the form, the fields they name are marked,
// and the set-up is not valid until a field that satisfies the rule is changed.
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include "core/hardware/parameter_registry.h"
#include "tests/ui/editors/editor_test_support.h"
#include "ui/editors/cluster_training_editor.h"
#include "ui/editors/hardware_editor.h"
#include "ui/editors/parameter_editor.h"

using namespace tandem;
using namespace editor_test;

class TestEditorRules : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // User presets are saved under this process's temporary folder, not the home folder.
        tandem::test::isolateUserFolders();
        QDir(ui::HardwareEditor::userPresetDirectory()).removeRecursively();
    }

    void precisionTheChipCannotRunIsMarked() {
        // fp8 on an A100 (no fp8 rate) and bf16 on a V100: the rule between fields is shown
        // under the form, the fields it names are marked, and the set-up is not valid; a chip
        // that can run it clears the mark (issue 26: the app marks the field).
        ui::HardwareEditor hw;
        hw.show();
        QVERIFY(hw.selectPreset("a100-80gb"));
        auto* precision = qobject_cast<QComboBox*>(hw.form()->fieldWidget("precision"));
        QVERIFY(precision);
        QCOMPARE(precision->currentText(), QString("bf16"));
        precision->setCurrentIndex(precision->findText("fp8"));
        QVERIFY(!hw.isValid());
        QVERIFY2(hw.form()->formError().contains("fp8"), qPrintable(hw.form()->formError()));
        QVERIFY(hw.form()->markedFields().contains("precision"));
        QVERIFY(hw.form()->markedFields().contains("fp8MacRatio"));
        QVERIFY(!hw.saveUserPreset("fp8-a100").isEmpty());
        auto* ratio = qobject_cast<QDoubleSpinBox*>(hw.form()->fieldWidget("fp8MacRatio"));
        typeInto(ratio, "2");
        QVERIFY(hw.isValid());
        QVERIFY(hw.form()->formError().isEmpty());
        QVERIFY(hw.accelerator().precision == core::hardware::Precision::Fp8);
        QVERIFY(hw.selectPreset("v100-32gb"));
        QCOMPARE(precision->currentText(), QString("fp16"));
        precision->setCurrentIndex(precision->findText("bf16"));
        QVERIFY(!hw.isValid());
        QVERIFY(hw.form()->markedFields().contains("bf16Supported"));
    }

    void overlapsMegatronRefusesAreMarked() {
        // --tp-comm-overlap without sequence parallelism and --overlap-param-gather without
        // ZeRO are refused as Megatron-Core refuses them; the app marks both fields (issue 26).
        ui::ClusterTrainingEditor ct;
        ct.show();
        ui::ParameterEditor* form = ct.trainingForm();
        auto* overlap = qobject_cast<QComboBox*>(form->fieldWidget("tpCommOverlap"));
        auto* sp = qobject_cast<QComboBox*>(form->fieldWidget("sequenceParallel"));
        auto* gather = qobject_cast<QComboBox*>(form->fieldWidget("overlapParamGather"));
        auto* zero = qobject_cast<QSpinBox*>(form->fieldWidget("zero"));
        QVERIFY(overlap && sp && gather && zero);
        overlap->setCurrentIndex(overlap->findText("on"));
        QVERIFY(!ct.isValid());
        QVERIFY2(form->formError().contains("Sequence parallelism = on"),
                 qPrintable(form->formError()));
        QVERIFY(form->markedFields().contains("tpCommOverlap"));
        QVERIFY(form->markedFields().contains("sequenceParallel"));
        QVERIFY(!ct.training().tpCommOverlap);  // not applied while invalid
        sp->setCurrentIndex(sp->findText("on"));
        QVERIFY(ct.isValid());
        QVERIFY(ct.training().tpCommOverlap &&
                ct.training().sequenceParallel == core::hardware::SequenceParallel::On);

        gather->setCurrentIndex(gather->findText("on"));
        QVERIFY(!ct.isValid());
        QVERIFY(form->markedFields().contains("zero"));
        typeInto(zero, "1");
        QVERIFY(ct.isValid());
        QVERIFY(ct.training().overlapParamGather);
        QCOMPARE(ct.training().zero, std::int64_t(1));

        // Megatron overlaps the transfers of interleaved 1F1B only: on with plain 1F1B is
        // refused and both fields are marked until V >= 2.
        auto* p2p = qobject_cast<QComboBox*>(form->fieldWidget("overlapP2pComm"));
        auto* interleave = qobject_cast<QSpinBox*>(form->fieldWidget("interleave"));
        QVERIFY(p2p && interleave);
        p2p->setCurrentIndex(p2p->findText("on"));
        QVERIFY(!ct.isValid());
        QVERIFY2(form->formError().contains("Interleaved stages"), qPrintable(form->formError()));
        QVERIFY(form->markedFields().contains("overlapP2pComm"));
        QVERIFY(form->markedFields().contains("interleave"));
        typeInto(interleave, "2");
        QVERIFY(ct.isValid());
        QVERIFY(ct.training().overlapP2pComm);
        QCOMPARE(ct.training().interleave, std::int64_t(2));
    }
};

QTEST_MAIN(TestEditorRules)
#include "test_editor_rules.moc"
