// Messages under the set-up fields speak the form's language (issue 14, item 11): a field is
// named by the label it has on screen ("Global buffer", not "accelerator.globalBufferBytes")
// and a size through core::formatBytes ("1.00 KiB", not "1024"), whether the message comes from
// a field's own check, a rule between fields or the search space's validation; and a rule
// naming two fields marks both (the red frame), so the user sees which fields to change. The
// oracles are the texts written out here and core::formatBytes.
#include <QLabel>
#include <QSpinBox>
#include <QtTest>

#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"
#include "tests/ui/editors/editor_test_support.h"
#include "ui/editors/cluster_training_editor.h"
#include "ui/editors/field_frame.h"
#include "ui/editors/field_messages.h"
#include "ui/editors/parameter_editor.h"
#include "ui/editors/registry_values.h"
#include "ui/editors/search_space_editor.h"
#include "ui/editors/value_list_edit.h"

using namespace tandem;
using namespace editor_test;
using ui::FieldMessages;
using ui::ParameterEditor;

namespace {

QString bytes(double value) {
    return QString::fromStdString(core::formatBytes(value));
}

// No registry key or raw byte count left in a message the user reads.
bool speaksTheFormsLanguage(const QString& message) {
    for (const char* raw :
         {"accelerator.", "cluster.", "training.", "search space:", "globalBufferBytes",
          "hbmCapacityBytes", "devicesPerNode", "globalBatch", "68719476736", "1048576"})
        if (message.contains(raw)) return false;
    return true;
}

// Whether a label showing `text` is on screen under the form.
bool shown(QWidget& form, const QString& text) {
    for (QLabel* label : form.findChildren<QLabel*>())
        if (label->isVisible() && label->text() == text) return true;
    return false;
}

}  // namespace

class TestFieldMessages : public QObject {
    Q_OBJECT
private slots:
    void keysBecomeLabelsAndBytesFormattedSizes() {
        FieldMessages messages;
        const auto& registry = core::hardware::acceleratorParameters();
        for (const auto& p : registry.parameters()) messages.add(registry.section(), p.spec);
        QCOMPARE(messages.humanize("accelerator.numTensorCores needs 1048576 B"),
                 QString("Tensor cores needs 1.00 MiB"));
        QCOMPARE(messages.humanize("accelerator.globalBufferBytes = 512 is out of range: must be "
                                   "an integer in [1024, 68719476736] (B)"),
                 QString("Global buffer = 512 B is out of range: must be an integer in "
                         "[1.00 KiB, 64.0 GiB]"));
        // A bare camelCase key is a key; an ordinary word that happens to be one is left alone.
        QCOMPARE(messages.humanize("chip (numTensorCores 4, globalBufferBytes 2097152)"),
                 QString("chip (Tensor cores 4, Global buffer 2.00 MiB)"));
        QCOMPARE(messages.keysNamedIn("accelerator.tensorCoreRows and tensorCoreCols, "
                                      "accelerator.tensorCoreRows again"),
                 QStringList({"tensorCoreRows", "tensorCoreCols"}));
        // Rates and counts in billions are not byte counts.
        QCOMPARE(messages.humanize("1200 B/s, 175.0 B parameters"),
                 QString("1200 B/s, 175.0 B parameters"));
        // A rounded figure that is not exact says the exact count too.
        QCOMPARE(FieldMessages::bytesText(40.0 * 1048576 + 4096),
                 QString("40.0 MiB (41,947,136 B)"));
        QCOMPARE(FieldMessages::bytesText(1048576), QString("1.00 MiB"));
    }

    void fieldChecksNameTheLabelAndFormatSizes() {
        const auto& registry = core::hardware::acceleratorParameters();
        ParameterEditor form(registry.section(), ui::specsOf(registry));
        form.show();
        QVERIFY(!form.setValue("globalBufferBytes", 512));
        const QString glb = form.errorText("globalBufferBytes");
        QCOMPARE(glb, "Global buffer = 512 B is out of range: must be an integer in [" +
                          bytes(1024) + ", " + bytes(64.0 * 1024 * 1024 * 1024) + "]");
        QVERIFY(shown(form, glb));  // the text under the field is this one
        QVERIFY(!form.setValue("hbmCapacityBytes", 1024));
        QCOMPARE(form.errorText("hbmCapacityBytes"),
                 "HBM capacity = 1.00 KiB is out of range: must be an integer in [" +
                     bytes(1048576) + ", " + bytes(16.0 * 1024 * 1024 * 1024 * 1024) + "]");
        QVERIFY(!form.setValue("numTensorCores", 0));
        QVERIFY2(form.errorText("numTensorCores").startsWith("Tensor cores = 0 is out of range"),
                 qPrintable(form.errorText("numTensorCores")));
        for (const char* key : {"globalBufferBytes", "hbmCapacityBytes", "numTensorCores"})
            QVERIFY2(speaksTheFormsLanguage(form.errorText(key)), qPrintable(form.errorText(key)));
        // The tooltip gives the range and default in the same words.
        const QString tip = form.fieldWidget("globalBufferBytes")->toolTip();
        QVERIFY2(tip.contains("Default: " + bytes(128.0 * 1048576)), qPrintable(tip));
        QCOMPARE(form.markedFields(),
                 QStringList({"numTensorCores", "globalBufferBytes", "hbmCapacityBytes"}));
    }

    void ruleBetweenFieldsMarksTheFieldsItNames() {
        ui::ClusterTrainingEditor ct;
        ct.show();
        ParameterEditor* cluster = ct.clusterForm();
        QVERIFY(cluster->markedFields().isEmpty());
        QSignalSpy validity(cluster, &ParameterEditor::validityChanged);
        typeInto(qobject_cast<QSpinBox*>(cluster->fieldWidget("devicesPerNode")), "2048");
        QCOMPARE(validity.count(), 1);
        QCOMPARE(cluster->formError(),
                 QString("Devices per node = 2048 is larger than Devices = 1024: must be an "
                         "integer in [1, devices] (devices)"));
        QVERIFY(shown(ct, cluster->formError()));
        // Both fields the rule names are marked, though each holds a valid value of its own.
        QCOMPARE(cluster->markedFields(), QStringList({"devices", "devicesPerNode"}));
        for (const char* key : {"devices", "devicesPerNode"}) {
            QVERIFY(cluster->fieldWidget(key)->property("invalid").toBool());
            auto* frame = qobject_cast<ui::FieldFrame*>(cluster->fieldWidget(key)->parentWidget());
            QVERIFY(frame && frame->isInvalid());
            QVERIFY(cluster->errorText(key).isEmpty());
            QVERIFY(cluster->fieldWidget(key)->toolTip().contains("is larger than"));
        }
        QVERIFY(!cluster->fieldWidget("intraNodeBandwidthBytesPerSecond")
                     ->property("invalid")
                     .toBool());
        // Raising the devices satisfies the rule: both marks go, the edit is applied.
        typeInto(qobject_cast<QSpinBox*>(cluster->fieldWidget("devices")), "4096");
        QVERIFY(cluster->formError().isEmpty());
        QCOMPARE(validity.count(), 2);
        QVERIFY(cluster->markedFields().isEmpty());
        QCOMPARE(ct.cluster().devicesPerNode, std::int64_t(2048));
        QVERIFY(!cluster->fieldWidget("devices")->property("invalid").toBool());

        ParameterEditor* training = ct.trainingForm();
        typeInto(qobject_cast<QSpinBox*>(training->fieldWidget("microbatch")), "8192");
        QCOMPARE(training->markedFields(), QStringList({"globalBatch", "microbatch"}));
        QVERIFY2(training->formError().startsWith(
                     "Microbatch = 8192 is larger than Global batch = 4096"),
                 qPrintable(training->formError()));
        // An invalid entry in a field the rule does not name adds its own mark.
        typeInto(qobject_cast<QSpinBox*>(training->fieldWidget("interleave")), "2000");
        QCOMPARE(training->markedFields(),
                 QStringList({"globalBatch", "microbatch", "interleave"}));
        typeInto(qobject_cast<QSpinBox*>(training->fieldWidget("interleave")), "1");
        // A global batch that does not split into microbatches marks both, and says why.
        typeInto(qobject_cast<QSpinBox*>(training->fieldWidget("microbatch")), "3");
        QCOMPARE(training->markedFields(), QStringList({"globalBatch", "microbatch"}));
        QVERIFY2(training->formError().startsWith(
                     "Global batch = 4096 is not a multiple of Microbatch = 3"),
                 qPrintable(training->formError()));
        typeInto(qobject_cast<QSpinBox*>(training->fieldWidget("microbatch")), "8");
        QVERIFY(training->markedFields().isEmpty());
        QVERIFY(ct.isValid());
    }

    void searchSpaceMessagesNameTheLists() {
        ui::SearchSpaceEditor editor;
        pasteList(editor.listEdit("hbmCapacityBytes"), "32GiB, 1KiB");
        QVERIFY(!editor.isValid());
        QCOMPARE(editor.problem(), "HBM sizes = 1.00 KiB is out of range: must be an integer in [" +
                                       bytes(1048576) + ", " +
                                       bytes(16.0 * 1024 * 1024 * 1024 * 1024) + "]");
        QVERIFY(editor.listEdit("hbmCapacityBytes")->property("invalid").toBool());
        pasteList(editor.listEdit("hbmCapacityBytes"), "32GiB, 64GiB, 32GiB");
        QVERIFY2(
            editor.problem().startsWith("HBM sizes lists " + bytes(32.0 * (1 << 30)) + " twice"),
            qPrintable(editor.problem()));
        QVERIFY(editor.listEdit("hbmCapacityBytes")->property("invalid").toBool());
        QVERIFY(speaksTheFormsLanguage(editor.problem()));
        pasteList(editor.listEdit("hbmCapacityBytes"), "32GiB");
        QVERIFY(editor.isValid());
        pasteList(editor.listEdit("globalBufferBytes"), "2MiB, 2MiB");
        QVERIFY2(
            editor.problem().startsWith("Global buffer lists " + bytes(2.0 * 1048576) + " twice"),
            qPrintable(editor.problem()));
        QVERIFY(editor.listEdit("globalBufferBytes")->property("invalid").toBool());
        QVERIFY(!editor.listEdit("hbmCapacityBytes")->property("invalid").toBool());
    }
};

QTEST_MAIN(TestFieldMessages)
#include "test_field_messages.moc"
