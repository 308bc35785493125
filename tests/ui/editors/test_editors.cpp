// The parameter-registry editors: generated from the registry they show its defaults, labels,
// units and ranges; an invalid entry is marked with its reason and never reaches the struct; the
// area bar turns red over the budget; editor → struct → editor round trips are exact; user
// presets are saved and listed. Each editor is grabbed at dock width for a visual check.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <fstream>

#include "core/common/units.h"
#include "core/hardware/cluster_presets.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/preset_library.h"
#include "tests/ui/editors/editor_test_support.h"
#include "ui/editors/area_readout.h"
#include "ui/editors/cluster_training_editor.h"
#include "ui/editors/hardware_editor.h"
#include "ui/editors/parameter_editor.h"
#include "ui/editors/registry_values.h"

using namespace tandem;
using namespace editor_test;
using ui::ParameterEditor;

class TestEditors : public QObject {
    Q_OBJECT
private slots:
    // Item 10: PHAZE's flat link and DGX A100 nodes are named clusters; the list follows edits.
    void clusterPresetsAreListedAndFollowEdits() {
        tandem::ui::ClusterTrainingEditor editor;
        QComboBox* list = editor.clusterPresets();
        QVERIFY(list->count() >= 3);
        QCOMPARE(list->currentText(), QString("PHAZE flat link (4 GiB/s)"));  // the defaults
        QSignalSpy changed(&editor, &tandem::ui::ClusterTrainingEditor::valuesChanged);
        const int dgx = list->findData(QString("dgx-a100"));
        QVERIFY(dgx >= 0);
        list->setCurrentIndex(dgx);
        emit list->activated(dgx);
        QCOMPARE(changed.count(), 1);
        QVERIFY(editor.cluster() == tandem::core::hardware::findClusterPreset("dgx-a100")->cluster);
        QVERIFY(list->itemData(dgx, Qt::ToolTipRole).toString().contains("25 GB/s"));
        QVERIFY(editor.clusterForm()->setValue("devices", 512));
        QCOMPARE(list->currentText(), QString("Custom"));
        editor.setCluster(tandem::core::hardware::ClusterConfig{});
        QCOMPARE(list->currentData().toString(), QString("phaze-flat"));
    }
    void initTestCase() {
        // User presets are saved under this process's temporary folder, not the home folder.
        tandem::test::isolateUserFolders();
        QVERIFY(ui::HardwareEditor::userPresetDirectory().startsWith(tandem::test::outputDir()));
        QDir(ui::HardwareEditor::userPresetDirectory()).removeRecursively();
    }

    void showsRegistryDefaults() {
        const auto& registry = core::hardware::acceleratorParameters();
        ParameterEditor editor(registry.section(), ui::specsOf(registry));
        QCOMPARE(editor.values().size(), registry.parameters().size());
        for (const auto& p : registry.parameters()) {
            QCOMPARE(editor.value(p.spec.key), p.spec.defaultValue);
            QWidget* w = editor.fieldWidget(p.spec.key);
            QVERIFY(w);
            // The allowed range, sizes as formatted sizes ("[1.00 KiB, 64.0 GiB]").
            if (p.spec.unit == "B")
                QVERIFY(w->toolTip().contains(
                    QString::fromStdString("[" + core::formatBytes(p.spec.minValue) + ", " +
                                           core::formatBytes(p.spec.maxValue) + "]")));
            else
                QVERIFY(w->toolTip().contains(
                    QString::fromStdString(p.spec.describeRange()).toHtmlEscaped()));
            QVERIFY(editor.errorText(p.spec.key).isEmpty());
        }
        QVERIFY(ui::configFrom(registry, editor.values()) == registry.defaults());
        // Display units: 32 GiB of HBM, 128 MiB of buffer, 1.2 TB/s, 1.05 GHz, 8 cores.
        auto* hbm = qobject_cast<QDoubleSpinBox*>(editor.fieldWidget("hbmCapacityBytes"));
        QVERIFY(hbm);
        QCOMPARE(hbm->suffix(), QString(" GiB"));
        QCOMPARE(hbm->value(), 32.0);
        auto* glb = qobject_cast<QDoubleSpinBox*>(editor.fieldWidget("globalBufferBytes"));
        QCOMPARE(glb->suffix(), QString(" MiB"));
        QCOMPARE(glb->value(), 128.0);
        auto* bw = qobject_cast<QDoubleSpinBox*>(editor.fieldWidget("hbmBandwidthBytesPerSecond"));
        QCOMPARE(bw->suffix(), QString(" GB/s"));
        QCOMPARE(bw->value(), 1200.0);
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(editor.fieldWidget("clockHz"))->value(), 1.05);
        auto* tc = qobject_cast<QSpinBox*>(editor.fieldWidget("numTensorCores"));
        QCOMPARE(tc->value(), 8);
        QCOMPARE(tc->suffix(), QString(" cores"));
        // The advanced field starts hidden behind the "Advanced" toggle.
        editor.show();
        QVERIFY(!editor.fieldWidget("bytesPerElement")->isVisible());
        editor.setAdvancedVisible(true);
        QVERIFY(editor.fieldWidget("bytesPerElement")->isVisible());

        ui::ClusterTrainingEditor ct;
        QVERIFY(ct.cluster() == core::hardware::clusterParameters().defaults());
        QVERIFY(ct.training() == core::hardware::trainingParameters().defaults());
        auto* recompute = qobject_cast<QComboBox*>(ct.trainingForm()->fieldWidget("recompute"));
        QVERIFY(recompute);
        const auto& choices = core::hardware::trainingParameters().find("recompute")->spec.choices;
        QCOMPARE(recompute->count(), int(choices.size()));
        for (int i = 0; i < recompute->count(); ++i)
            QCOMPARE(recompute->itemText(i), QString::fromStdString(std::string(choices[i])));
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(
                     ct.clusterForm()->fieldWidget("intraNodeBandwidthBytesPerSecond"))
                     ->suffix(),
                 QString(" GB/s"));

        ui::HardwareEditor hw;
        QVERIFY(hw.accelerator() ==
                core::hardware::PresetLibrary::preset("tpuv4-like")->accelerator);
    }

    void invalidValuesAreMarkedAndNotApplied() {
        ui::ClusterTrainingEditor ct;
        ct.show();
        QSignalSpy changed(&ct, &ui::ClusterTrainingEditor::valuesChanged);
        auto* devices = qobject_cast<QSpinBox*>(ct.clusterForm()->fieldWidget("devices"));
        QVERIFY(devices);
        typeInto(devices, "2000000");  // the registry allows at most 1,000,000
        QCOMPARE(ct.cluster().devices, std::int64_t(1024));
        QCOMPARE(changed.count(), 0);
        const QString error = ct.clusterForm()->errorText("devices");
        QVERIFY2(error.contains("Devices = 2000000 is out of range"), qPrintable(error));
        QVERIFY(error.contains("[1, 1000000]"));
        QVERIFY(devices->property("invalid").toBool());
        QVERIFY(devices->toolTip().contains("out of range"));
        QVERIFY(!ct.isValid());
        // The reason is on screen, not only in the tooltip.
        bool shown = false;
        for (QLabel* label : ct.findChildren<QLabel*>())
            shown = shown || (label->isVisible() && label->text() == error);
        QVERIFY(shown);

        typeInto(devices, "512");
        QCOMPARE(ct.cluster().devices, std::int64_t(512));
        QCOMPARE(changed.count(), 1);
        QVERIFY(!devices->property("invalid").toBool());
        QVERIFY(ct.clusterForm()->errorText("devices").isEmpty());
        QVERIFY(ct.isValid());

        // A rule between fields: more devices per node than devices.
        auto* perNode = qobject_cast<QSpinBox*>(ct.clusterForm()->fieldWidget("devicesPerNode"));
        typeInto(perNode, "1024");
        QCOMPARE(ct.cluster().devicesPerNode, std::int64_t(4));
        QVERIFY2(ct.clusterForm()->formError().contains(
                     "Devices per node = 1024 is larger than Devices = 512"),
                 qPrintable(ct.clusterForm()->formError()));
        QVERIFY(!ct.isValid());
        QCOMPARE(changed.count(), 1);
        typeInto(perNode, "8");
        QCOMPARE(ct.cluster().devicesPerNode, std::int64_t(8));
        QVERIFY(ct.clusterForm()->formError().isEmpty());

        // Microbatch above the global batch; a choice; byte sizes in GiB keep exact bytes.
        auto* micro = qobject_cast<QSpinBox*>(ct.trainingForm()->fieldWidget("microbatch"));
        typeInto(micro, "8192");
        QCOMPARE(ct.training().microbatch, std::int64_t(1));
        QVERIFY(ct.trainingForm()->formError().contains(
            "Microbatch = 8192 is larger than Global batch = 4096"));
        typeInto(micro, "4");
        QCOMPARE(ct.training().microbatch, std::int64_t(4));

        ui::HardwareEditor hw;
        hw.show();
        auto* hbm = qobject_cast<QDoubleSpinBox*>(hw.form()->fieldWidget("hbmCapacityBytes"));
        typeInto(hbm, "80");
        QCOMPARE(hw.accelerator().hbmCapacityBytes, 80 * kGiB);
        typeInto(hbm, "0.5");  // a decimal GiB figure becomes whole bytes
        QCOMPARE(hw.accelerator().hbmCapacityBytes, kGiB / 2);
        auto* bpe = qobject_cast<QSpinBox*>(hw.form()->fieldWidget("bytesPerElement"));
        typeInto(bpe, "3");
        QCOMPARE(hw.accelerator().bytesPerElement, std::int64_t(2));
        QVERIFY(hw.form()->errorText("bytesPerElement").contains("is not a power of two"));
        QVERIFY(bpe->isVisible());  // the collapsed "Advanced" section opened to show it
        auto* bw =
            qobject_cast<QDoubleSpinBox*>(hw.form()->fieldWidget("hbmBandwidthBytesPerSecond"));
        typeInto(bw, "0");
        QCOMPARE(hw.accelerator().hbmBandwidthBytesPerSecond, 1.2e12);
        QVERIFY(hw.form()->errorText("hbmBandwidthBytesPerSecond").contains("is out of range"));
        QVERIFY(!hw.isValid());
        QVERIFY(!hw.saveUserPreset("broken").isEmpty());
    }

    void sequenceLengthZeroReadsModelDefault() {
        // 0 means "the model's own": the field says so, not "0 tokens" (issue 14, item 11).
        ui::ClusterTrainingEditor ct;
        ct.show();
        auto* seq = qobject_cast<QSpinBox*>(ct.trainingForm()->fieldWidget("sequenceLength"));
        QVERIFY(seq);
        QCOMPARE(ct.training().sequenceLength, std::int64_t(0));
        QCOMPARE(seq->text(), QString("model default"));
        ct.setModelSequenceLength(2048);  // the loaded model's, once the owner knows it
        QCOMPARE(seq->text(), QString("model default (2048)"));
        QCOMPARE(ct.training().sequenceLength, std::int64_t(0));
        typeInto(seq, "512");
        QCOMPARE(ct.training().sequenceLength, std::int64_t(512));
        QCOMPARE(seq->text(), QString("512 tokens"));
        core::hardware::TrainingConfig training = ct.training();
        training.sequenceLength = 0;
        ct.setTraining(training);
        QCOMPARE(seq->text(), QString("model default (2048)"));
        QCOMPARE(ct.training().sequenceLength, std::int64_t(0));
        ct.setModelSequenceLength(0);  // a model without one
        QCOMPARE(seq->text(), QString("model default"));
        QVERIFY(ct.isValid());
    }

    void areaBarTurnsRedOverBudget() {
        ui::HardwareEditor hw;
        ui::AreaReadout* area = hw.areaReadout();
        QCOMPARE(area->areaSquareMillimetres(), AreaModel::kReferenceAreaSquareMillimetres);
        QVERIFY(!area->overBudget());
        QVERIFY(area->text().contains("278.83 mm²"));
        QCOMPARE(area->bar()->value(), 1000);
        QVERIFY(!area->bar()->styleSheet().contains("#c62828"));

        // Oracle: doubling the tensor cores adds eight 128×128 cores from the area table.
        double tcArea = -1;
        for (const auto& point : AreaModel::tensorCoreTable())
            if (point.size == 128.0 * 128.0) tcArea = point.areaSquareMicrometres;
        QVERIFY(tcArea > 0);
        QVERIFY(hw.form()->setValue("numTensorCores", 16));
        QCOMPARE(area->areaSquareMillimetres(),
                 (AreaModel::kReferenceAreaSquareMillimetres * 1e6 + 8 * tcArea) / 1e6);
        QVERIFY(area->overBudget());
        QVERIFY(area->property("overBudget").toBool());
        QVERIFY(area->bar()->styleSheet().contains("#c62828"));
        QVERIFY2(area->barText().contains("over budget by 103.19 mm²"),
                 qPrintable(area->barText()));

        // A larger budget brings it back under.
        hw.setAreaBudget(1000);
        QVERIFY(!area->overBudget());
        QVERIFY2(area->barText().contains("38.2 % of budget"), qPrintable(area->barText()));
        QVERIFY(area->bar()->value() < 1000);

        // A size outside the area tables is explained, not guessed.
        QVERIFY(hw.form()->setValue("tensorCoreRows", 4096));
        QVERIFY(hw.form()->setValue("tensorCoreCols", 4096));
        QVERIFY(!area->hasArea());
        QVERIFY2(area->text().startsWith("Area unknown"), qPrintable(area->text()));
        QVERIFY(!area->bar()->isEnabled());
        hw.setAllowAreaExtrapolation(true);
        QVERIFY(area->hasArea());
    }
    void roundTrips() {
        // Hardware with values that the display rounds (40 MiB + 4 KiB, 4 GiB/s).
        auto point = *core::hardware::PresetLibrary::preset("a100-like");
        point.accelerator.globalBufferBytes = 40 * kMiB + 4096;
        point.accelerator.hbmBandwidthBytesPerSecond = 1.5550001e12;
        point.accelerator.bytesPerElement = 4;
        point.cluster.devices = 96;
        ui::HardwareEditor hw;
        hw.setHardware(point);
        // Values kept exactly; it no longer claims to be the a100-like preset.
        auto expected = point;
        expected.name = "a100-like (modified)";
        expected.description = "The a100-like preset with edited accelerator parameters";
        QVERIFY(hw.hardware() == expected);
        ui::HardwareEditor hw2;
        hw2.setHardware(hw.hardware());
        QVERIFY(hw2.hardware() == expected);

        core::hardware::ClusterConfig cluster;
        cluster.devices = 96;
        cluster.devicesPerNode = 8;
        cluster.intraNodeBandwidthBytesPerSecond = 300e9;
        cluster.interNodeBandwidthBytesPerSecond = 25e9;
        cluster.hopLatencySeconds = 1.5e-6;
        core::hardware::TrainingConfig training;
        training.globalBatch = 1536;
        training.microbatch = 2;
        training.sequenceLength = 4096;
        training.recompute = core::hardware::Recompute::Auto;
        training.optimizer = core::hardware::Optimizer::Adam;
        ui::ClusterTrainingEditor ct;
        ct.setCluster(cluster);
        ct.setTraining(training);
        QVERIFY(ct.cluster() == cluster);
        QVERIFY(ct.training() == training);
        QCOMPARE(
            qobject_cast<QComboBox*>(ct.trainingForm()->fieldWidget("optimizer"))->currentText(),
            QString("adam"));
    }

    void userPresets() {
        ui::HardwareEditor hw;
        QSignalSpy applied(&hw, &ui::HardwareEditor::presetApplied);
        QVERIFY(hw.presetNames().contains("tpuv4-like"));
        QVERIFY(hw.presetNames().contains("a100-like"));
        QVERIFY(hw.selectPreset("a100-like"));
        const auto a100 = *core::hardware::PresetLibrary::preset("a100-like");
        QVERIFY(hw.hardware() == a100);
        QCOMPARE(applied.count(), 1);
        QVERIFY(applied.at(0).at(0).value<core::hardware::HardwarePoint>().cluster == a100.cluster);
        QVERIFY(!hw.selectPreset("no-such-chip"));

        QVERIFY(hw.form()->setValue("numTensorCores", 64));
        QVERIFY(!hw.saveUserPreset("../escape").isEmpty());
        QVERIFY(hw.saveUserPreset("tpuv4-like").contains("built-in"));
        const QString error = hw.saveUserPreset("my chip");
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString file =
            QDir(ui::HardwareEditor::userPresetDirectory()).filePath("my chip.json");
        const auto saved = core::hardware::loadHardwareFile(file.toStdString());
        QVERIFY(saved.ok());
        QCOMPARE(saved->accelerator.numTensorCores, std::int64_t(64));
        QVERIFY(saved->cluster == a100.cluster);
        QCOMPARE(saved->name, std::string("my chip"));

        // A broken file in the folder is listed but cannot be chosen.
        std::ofstream(
            QDir(ui::HardwareEditor::userPresetDirectory()).filePath("broken.json").toStdString())
            << "{\"format\": \"tandem-hardware\"";
        ui::HardwareEditor fresh;
        QVERIFY(fresh.presetNames().contains("my chip"));
        QVERIFY(fresh.presetNames().contains("broken"));
        QVERIFY(fresh.selectPreset("my chip"));
        QCOMPARE(fresh.accelerator().numTensorCores, std::int64_t(64));
        auto* chooser = fresh.findChild<QComboBox*>("presetChooser");
        const int broken = chooser->findData("broken");
        QVERIFY(broken >= 0);
        QVERIFY(chooser->itemData(broken, Qt::ToolTipRole).toString().contains("invalid JSON"));
    }
    void editedPresetIsNamedModified() {
        // An edited preset is no longer that preset, everywhere its name shows: the point (what
        // the status bar, projects and exports use) and the chooser.
        ui::HardwareEditor hw;
        auto* chooser = hw.findChild<QComboBox*>("presetChooser");
        QVERIFY(chooser);
        QVERIFY(hw.selectPreset("tpuv4-like"));
        const auto preset = *core::hardware::PresetLibrary::preset("tpuv4-like");
        QCOMPARE(hw.hardware().name, std::string("tpuv4-like"));
        QCOMPARE(chooser->currentData().toString(), QString("tpuv4-like"));
        QVERIFY(hw.form()->setValue("numTensorCores", 16));
        QCOMPARE(hw.hardware().name, std::string("tpuv4-like (modified)"));
        QVERIFY(hw.hardware().description != preset.description);
        QVERIFY2(hw.hardware().description.find("edited") != std::string::npos,
                 hw.hardware().description.c_str());
        QCOMPARE(chooser->currentIndex(), -1);
        // The chooser says so in the same words (issue 27, item 5: it said "(custom)").
        QCOMPARE(chooser->placeholderText(), QString("tpuv4-like (modified)"));
        // Reopened (a saved project's hardware): still modified, no preset selected.
        ui::HardwareEditor reopened;
        reopened.setHardware(hw.hardware());
        QCOMPARE(reopened.hardware().name, std::string("tpuv4-like (modified)"));
        QCOMPARE(reopened.findChild<QComboBox*>("presetChooser")->currentIndex(), -1);
        QCOMPARE(reopened.findChild<QComboBox*>("presetChooser")->placeholderText(),
                 QString("tpuv4-like (modified)"));
        QCOMPARE(reopened.accelerator().numTensorCores, std::int64_t(16));
        // A file that claims the preset's name with other values is shown as modified too.
        auto claimed = preset;
        claimed.accelerator.hbmCapacityBytes *= 2;
        reopened.setHardware(claimed);
        QCOMPARE(reopened.hardware().name, std::string("tpuv4-like (modified)"));
        // Undoing the edit makes it the preset again.
        QVERIFY(hw.form()->setValue("numTensorCores", 8));
        QCOMPARE(hw.hardware().name, std::string("tpuv4-like"));
        QCOMPARE(hw.hardware().description, preset.description);
        QCOMPARE(chooser->currentData().toString(), QString("tpuv4-like"));
        // Saved as a user preset, it takes that name and says what it was based on.
        QVERIFY(hw.form()->setValue("numTensorCores", 32));
        const QString error = hw.saveUserPreset("wide chip");
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(hw.hardware().name, std::string("wide chip"));
        QCOMPARE(hw.hardware().description, std::string("User preset based on tpuv4-like"));
        QCOMPARE(chooser->currentData().toString(), QString("wide chip"));
    }

    void realFieldsKeepTheirFractions() {
        // A spin box rounds what it holds to its decimals: a real field shows its fractional
        // digits (tpuv4-like's 85 % main loop, 0.07 W/mm²) and takes a fractional entry.
        ui::HardwareEditor hw;
        const auto text = [&](const char* key) {
            auto* box = qobject_cast<QDoubleSpinBox*>(hw.form()->fieldWidget(key));
            return box ? box->text() : QString("(no spin box)");
        };
        QCOMPARE(text("tensorCoreEfficiency"), QString("0.85 fraction"));
        QCOMPARE(text("staticPowerWattsPerSquareMillimetre"), QString("0.07 W/mm2"));
        QCOMPARE(text("hbmEnergyPicojoulesPerByte"), QString("31.2 pJ/B"));
        auto* rate =
            qobject_cast<QDoubleSpinBox*>(hw.form()->fieldWidget("specialFunctionOpsPerCycle"));
        QVERIFY(rate);
        rate->setValue(0.5);
        QCOMPARE(hw.form()->value("specialFunctionOpsPerCycle"), 0.5);
        QCOMPARE(hw.hardware().accelerator.specialFunctionOpsPerCycle, 0.5);
        // Fractions step by hundredths.
        auto* efficiency = qobject_cast<QDoubleSpinBox*>(hw.form()->fieldWidget("hbmEfficiency"));
        QVERIFY(efficiency);
        QCOMPARE(efficiency->singleStep(), 0.01);
    }

    void screenshotsAtDockWidth() {
        auto* hw = new ui::HardwareEditor;
        hw->form()->setAdvancedVisible(true);
        grabAtDockWidth(hw, "edit_hardware.png");
        QVERIFY(hw->form()->setValue("numTensorCores", 16));
        auto* tc = qobject_cast<QSpinBox*>(hw->form()->fieldWidget("numVectorCores"));
        tc->setValue(0);
        grabAtDockWidth(hw, "edit_hardware_invalid.png");
        delete hw;

        auto* ct = new ui::ClusterTrainingEditor;
        ct->clusterForm()->setAdvancedVisible(true);
        ct->setModelSequenceLength(131072);  // "model default (131072)" is not cut off
        qobject_cast<QSpinBox*>(ct->clusterForm()->fieldWidget("devicesPerNode"))->setValue(4096);
        grabAtDockWidth(ct, "edit_cluster_training.png");
        auto* seq = ct->trainingForm()->fieldWidget("sequenceLength")->findChild<QLineEdit*>();
        QVERIFY(seq);
        QVERIFY2(seq->fontMetrics().horizontalAdvance(seq->text()) <= seq->width(),
                 qPrintable(QString("%1 in %2 px").arg(seq->text()).arg(seq->width())));
        delete ct;
    }
};

QTEST_MAIN(TestEditors)
#include "test_editors.moc"
