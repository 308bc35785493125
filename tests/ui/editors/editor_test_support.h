#pragma once
// Helpers shared by the editor tests: user-like input (typing into spin boxes, typing or pasting
// lists), a brute-force chip count independent of SearchSpace::enumerateChips, waiting for the
// search space editor's background count, and grabbing an editor at dock width (into the test's
// temporary output folder).
#include <QAbstractSpinBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QLayout>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>

#include "core/hardware/area_model.h"
#include "core/search/search_space.h"
#include "tests/ui/test_output_dir.h"
#include "ui/editors/search_space_editor.h"

namespace editor_test {

using tandem::core::hardware::AcceleratorConfig;
using tandem::core::hardware::AreaModel;
using tandem::core::search::SearchSpace;
namespace ui = tandem::ui;

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

// Types `text` into a spin box as a user would and commits it with Enter.
inline void typeInto(QAbstractSpinBox* box, const QString& text) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Return);
}

// Replaces the whole list in one user edit, as a paste does (typing applies every valid
// prefix on the way: "1, 3x" passes through the valid "1, 3").
inline void pasteList(QLineEdit* edit, const QString& text) {
    QGuiApplication::clipboard()->setText(text);
    edit->setFocus();
    edit->selectAll();
    edit->paste();
}

inline void typeList(QLineEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

// Brute force over the lists, independent of SearchSpace::enumerateChips: every combination,
// lanes tied to columns, kept when inside PHAZE's area window.
inline std::int64_t bruteForceChips(const SearchSpace& s) {
    const AreaModel model;
    std::int64_t kept = 0;
    for (auto tc : s.numTensorCores)
        for (auto rows : s.tensorCoreRows)
            for (auto cols : s.tensorCoreCols)
                for (auto vc : s.numVectorCores)
                    for (auto glb : s.globalBufferBytes) {
                        AcceleratorConfig c;
                        c.numTensorCores = tc;
                        c.tensorCoreRows = rows;
                        c.tensorCoreCols = cols;
                        c.numVectorCores = vc;
                        c.vectorCoreLanes = cols;
                        c.globalBufferBytes = glb;
                        const auto area = model.areaSquareMillimetres(c);
                        if (!area.ok()) return -1;
                        const bool waived = tc == 1 || vc == 1;
                        if (*area <= s.areaBudgetSquareMillimetres &&
                            (waived || *area >= s.minAreaFraction * s.areaBudgetSquareMillimetres))
                            ++kept;
                    }
    return kept;
}

// The first line where two spaces' JSON differs, for failure messages.
inline QString firstDifference(const SearchSpace& a, const SearchSpace& b) {
    const QStringList x = QString::fromStdString(a.toJson()).split('\n');
    const QStringList y = QString::fromStdString(b.toJson()).split('\n');
    for (qsizetype i = 0; i < std::min(x.size(), y.size()); ++i)
        if (x[i] != y[i]) return QString("line %1: %2 vs %3").arg(i).arg(x[i], y[i]);
    return "same JSON";
}

#define COMPARE_SPACES(actual, expected) \
    QVERIFY2((actual) == (expected), qPrintable(firstDifference((actual), (expected))))

inline bool waitForCount(ui::SearchSpaceEditor& editor) {
    if (!editor.isCounting()) return true;
    QSignalSpy spy(&editor, &ui::SearchSpaceEditor::countsUpdated);
    return spy.wait(60000);
}

// Lays `editor` out alone at dock width, checks it fits, and saves a picture of it whole as
// `file` in the test's output folder.
inline void grabAtDockWidth(QWidget* editor, const QString& file, int width = 320) {
    editor->setParent(nullptr);
    editor->layout()->activate();
    QVERIFY2(
        editor->minimumSizeHint().width() <= width,
        qPrintable(QString("%1 needs %2 px").arg(file).arg(editor->minimumSizeHint().width())));
    const int height =
        editor->hasHeightForWidth() ? editor->heightForWidth(width) : editor->sizeHint().height();
    editor->resize(width, std::max(height, editor->minimumSizeHint().height()));
    editor->show();
    QVERIFY(QTest::qWaitForWindowExposed(editor));
    QVERIFY(editor->grab().save(tandem::test::outputPath(file)));
}

}  // namespace editor_test
