// The search space editor: it counts PHAZE's 29,360 chips and 704,640 points off the GUI
// thread (checked against a brute-force count), marks invalid lists with the core's message
// and keeps the last valid space, drops stale counts, and round-trips a space exactly.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <fstream>

#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/search/explorer.h"
#include "tests/ui/editors/editor_test_support.h"
#include "ui/editors/search_space_editor.h"
#include "ui/editors/value_list_edit.h"

using namespace tandem;
using namespace editor_test;

class TestSearchSpaceEditor : public QObject {
    Q_OBJECT
private slots:
    void searchSpaceCountsPhaze() {
        ui::SearchSpaceEditor editor;
        QVERIFY(waitForCount(editor));
        QCOMPARE(editor.chipCount(), std::int64_t(29360));
        QCOMPARE(editor.pointCount(), std::int64_t(704640));
        qInfo("PHAZE space counted in %.1f ms (off the GUI thread)",
              editor.lastCountSeconds() * 1e3);
        const SearchSpace phaze = SearchSpace::phaze();
        QCOMPARE(bruteForceChips(phaze), std::int64_t(29360));
        QCOMPARE(editor.pointCount(),
                 editor.chipCount() *
                     std::int64_t(phaze.microbatchSizes.size() * phaze.recompute.size() *
                                  phaze.hbmCapacityBytes.size()));
        QVERIFY(editor.countText().contains("29,360 chips"));
        QVERIFY(editor.countText().contains("704,640 points"));
        COMPARE_SPACES(editor.space(), phaze);
        // Tensor-parallel widths (GPT-3's own, or four given explicitly) are chosen inside each
        // point's placement: they do not multiply the points.
        const auto gpt3 = core::model::zooModel("gpt3-175b");
        QVERIFY(gpt3.ok());
        QCOMPARE(phaze.widthsFor(**gpt3), (std::vector<std::int64_t>{4, 8}));
        typeList(editor.listEdit("tensorParallelWidths"), "1, 2, 4, 8");
        QVERIFY(waitForCount(editor));
        QCOMPARE(editor.space().tensorParallelWidths, (std::vector<std::int64_t>{1, 2, 4, 8}));
        QCOMPARE(editor.pointCount(), std::int64_t(704640));
        typeList(editor.listEdit("tensorParallelWidths"), "");
        QVERIFY(waitForCount(editor));
        COMPARE_SPACES(editor.space(), phaze);
        QVERIFY(editor.explorer() == core::search::ExplorerKind::Exhaustive);
        for (core::search::ExplorerKind kind : core::search::kExplorerKinds) {
            editor.setExplorer(kind);
            QVERIFY(editor.explorer() == kind);
        }

        // Edits recount; only the latest space's count is reported.
        ui::ValueListEdit* tcs = editor.listEdit("numTensorCores");
        QVERIFY(tcs);
        typeList(tcs, "1, 2, 4");
        typeList(tcs, "1..64");
        QVERIFY(waitForCount(editor));
        SearchSpace expected = phaze;
        expected.name = "custom";
        expected.numTensorCores = SearchSpace::powersOfTwo(1, 64);
        COMPARE_SPACES(editor.space(), expected);
        QCOMPARE(editor.chipCount(), bruteForceChips(expected));
        QCOMPARE(editor.pointCount(), bruteForceChips(expected) * 24);

        // Invalid lists: marked with validate()'s message, space unchanged, no count.
        pasteList(tcs, "1, 3x");
        QCOMPARE(tcs->text(), QString("1, 3x"));
        QVERIFY(!editor.isValid());
        QVERIFY2(editor.problem().contains("Tensor cores = '3x'"), qPrintable(editor.problem()));
        QVERIFY(tcs->property("invalid").toBool());
        COMPARE_SPACES(editor.space(), expected);
        QCOMPARE(editor.chipCount(), std::int64_t(-1));
        typeList(tcs, "2, 2");
        QVERIFY2(editor.problem().contains("Tensor cores lists 2 twice"),
                 qPrintable(editor.problem()));
        QVERIFY(tcs->property("invalid").toBool());
        ui::ValueListEdit* mbs = editor.listEdit("microbatchSizes");
        typeList(tcs, "1..64");
        QVERIFY(editor.isValid());
        QVERIFY(!tcs->property("invalid").toBool());
        typeList(mbs, "");
        QVERIFY(editor.problem().contains("Microbatch sizes is empty"));
        QVERIFY(mbs->property("invalid").toBool());
        typeList(mbs, "1, 2, 4, 8");
        QVERIFY(editor.isValid());

        // An empty area window is reported by the enumeration.
        auto* budget = editor.findChild<QDoubleSpinBox*>("areaBudgetSquareMillimetres");
        auto* window = editor.findChild<QDoubleSpinBox*>("minAreaFraction");
        QVERIFY(budget && window);
        typeInto(budget, "0");
        QVERIFY(editor.problem().contains("Area budget = 0 is out of range"));
        QVERIFY(budget->property("invalid").toBool());
        typeInto(budget, "278.83");
        QVERIFY(editor.isValid());

        // Reset to PHAZE's space.
        QSignalSpy changed(&editor, &ui::SearchSpaceEditor::valuesChanged);
        editor.resetToPhaze();
        COMPARE_SPACES(editor.space(), phaze);
        QCOMPARE(changed.count(), 1);
        QVERIFY(waitForCount(editor));
        QCOMPARE(editor.pointCount(), std::int64_t(704640));
    }
    void searchSpaceRoundTrip() {
        auto point = *core::hardware::PresetLibrary::preset("a100-like");
        SearchSpace space = SearchSpace::phaze();
        space.name = "mine";
        space.base = point;
        space.numTensorCores = {4, 8, 16};
        space.tensorCoreRows = {64, 128};
        space.vectorLanes = core::search::VectorLanesRule::Free;
        space.vectorCoreLanes = {64, 256};
        space.globalBufferBytes = {3 * kMiB, 40 * kMiB};
        space.areaBudgetSquareMillimetres = 812.5;
        space.minAreaFraction = 0.3333;
        space.allowAreaExtrapolation = true;
        space.hbmCapacityBytes = {40 * kGiB, 80 * kGiB};
        space.microbatchSizes = {1, 3};
        space.recompute = {core::hardware::Recompute::Off, core::hardware::Recompute::Auto};
        space.tensorParallelWidths = {1, 2, 8};
        space.clockHz = {1'410'000'000, 765'000'000};
        QVERIFY(space.validate().ok());
        ui::SearchSpaceEditor editor;
        editor.setSpace(space);
        QVERIFY2(editor.isValid(), qPrintable(editor.problem()));
        COMPARE_SPACES(editor.space(), space);
        QCOMPARE(editor.listEdit("globalBufferBytes")->text(), QString("3MiB, 40MiB"));
        // Issue 27, item 5: a short run of powers of two is written out; a long one is a..b.
        QCOMPARE(editor.listEdit("numTensorCores")->text(), QString("4, 8, 16"));
        ui::SearchSpaceEditor phaze;
        phaze.setSpace(core::search::SearchSpace::phaze());
        QCOMPARE(phaze.listEdit("numTensorCores")->text(), QString("1..4096"));
        QCOMPARE(phaze.listEdit("microbatchSizes")->text(), QString("1, 2, 4, 8"));
        QCOMPARE(editor.listEdit("clockHz")->text(), QString("1410MHz, 765MHz"));
        // HBM bandwidth is not searched: its empty list names the base's value.
        QCOMPARE(editor.listEdit("hbmBandwidthBytesPerSecond")->text(), QString());
        QVERIFY2(
            editor.listEdit("hbmBandwidthBytesPerSecond")->placeholderText().contains("2039GB/s"),
            qPrintable(editor.listEdit("hbmBandwidthBytesPerSecond")->placeholderText()));
        ui::SearchSpaceEditor editor2;
        editor2.setSpace(editor.space());
        QVERIFY(editor2.space() == space);
        QVERIFY(waitForCount(editor2));

        // Text → list: ranges and unit suffixes, parsed by the core.
        auto* glb = editor.listEdit("globalBufferBytes");
        typeList(glb, "2MiB..8MiB, 1GiB");
        QVERIFY(editor.isValid());
        QCOMPARE(editor.space().globalBufferBytes,
                 (std::vector<std::int64_t>{2 * kMiB, 4 * kMiB, 8 * kMiB, kGiB}));
        typeList(glb, "3MiB..8MiB");
        QVERIFY(editor.problem().contains("is not a range"));
        typeList(glb, "2MiB");

        // Clock and HBM bandwidth take their units; emptied, the chips keep the base's value.
        typeList(editor.listEdit("hbmBandwidthBytesPerSecond"), "1TB/s, 2039GB/s");
        QVERIFY2(editor.isValid(), qPrintable(editor.problem()));
        QCOMPARE(editor.space().hbmBandwidthBytesPerSecond,
                 (std::vector<std::int64_t>{1'000'000'000'000, 2'039'000'000'000}));
        typeList(editor.listEdit("clockHz"), "");
        QVERIFY(editor.isValid());
        QVERIFY(editor.space().clockHz.empty());
        typeList(editor.listEdit("clockHz"), "2kHz");
        QVERIFY(!editor.isValid());
        QVERIFY2(editor.problem().contains("Clock"), qPrintable(editor.problem()));
    }

    void countHeadsTheSection() {
        // The chips-and-points count is the section's first line, above every value list, so it
        // is in view in the set-up dock without scrolling (issue 14, item 11).
        ui::SearchSpaceEditor editor;
        editor.resize(320, editor.heightForWidth(320) > 0 ? editor.heightForWidth(320) : 1200);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        auto* count = editor.findChild<QLabel*>("searchCount");
        QVERIFY(count && count->isVisible());
        const int countBottom = count->mapTo(&editor, QPoint(0, count->height())).y();
        const auto lists = editor.findChildren<ui::ValueListEdit*>();
        // One per searched accelerator field, and the HBM sizes, microbatch sizes and TP widths.
        QCOMPARE(lists.size(), qsizetype(std::size(core::search::kSearchedFields) + 3));
        for (ui::ValueListEdit* list : lists)
            QVERIFY2(countBottom <= list->mapTo(&editor, QPoint(0, 0)).y(),
                     qPrintable(list->objectName()));
        for (QGroupBox* group : editor.findChildren<QGroupBox*>())
            QVERIFY2(countBottom <= group->mapTo(&editor, QPoint(0, 0)).y(),
                     qPrintable(group->title()));
        // It still counts there.
        QVERIFY(waitForCount(editor));
        QVERIFY(count->text().contains("29,360 chips"));
    }

    void screenshotsAtDockWidth() {
        auto* search = new ui::SearchSpaceEditor;
        QVERIFY(waitForCount(*search));
        grabAtDockWidth(search, "edit_search.png");
        search->listEdit("numTensorCores")->setText("1, 3x");
        emit search->listEdit("numTensorCores")->textEdited("1, 3x");
        grabAtDockWidth(search, "edit_search_invalid.png");
        delete search;
    }
};

QTEST_MAIN(TestSearchSpaceEditor)
#include "test_search_space_editor.moc"
