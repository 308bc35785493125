#pragma once
// The "Search space" section of the set-up dock: a value list per searched accelerator field
// (core::search::kSearchedFields; ValueListEdit: "1..4096", "2MiB..128MiB"; an optional field
// such as the clock may stay empty, keeping the base's value), vector lanes tied to the tensor-core
// columns or listed, the area window (budget in mm², minimum fraction), the per-chip options (HBM
// sizes, microbatch sizes, recompute settings, tensor-parallel widths), the explorer and its thread
// count, and a "PHAZE space" reset. Every edit is checked with SearchSpace::validate(); an
// invalid space is not applied (space() keeps the last valid one) and the message is shown in
// the form's words (labels, formatted sizes), with the field it names marked. The number of chips
// and points the space implies is counted live off the GUI thread (SearchSpaceCounter), stale
// counts dropped, and shown at the top of the section, above the lists, so it is in view while
// any list is edited.
#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

#include "core/hardware/hardware_point.h"
#include "core/search/explorer.h"
#include "core/search/search_objective.h"
#include "core/search/search_space.h"
#include "ui/editors/field_messages.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;

namespace tandem::ui {

class SearchRunOptions;
class SearchSpaceCounter;
class ValueListEdit;

class SearchSpaceEditor : public QWidget {
    Q_OBJECT
public:
    explicit SearchSpaceEditor(QWidget* parent = nullptr);

    // The last space that passed validate().
    const core::search::SearchSpace& space() const { return space_; }
    // Shows `space` (even an invalid one, marked); emits nothing but recounts.
    void setSpace(const core::search::SearchSpace& space);
    // The fixed accelerator fields and the cluster the searched chips start from.
    void setBase(const core::hardware::HardwarePoint& base);
    void resetToPhaze();

    core::search::ExplorerKind explorer() const;
    void setExplorer(core::search::ExplorerKind kind);
    core::search::SearchObjective objective() const;
    void setObjective(core::search::SearchObjective objective);
    // 0: one thread per core.
    int threads() const;
    void setThreads(int threads);

    // True when the shown space is valid and its enumeration did not fail.
    bool isValid() const;
    // The validation or enumeration message as shown (labels, not keys); empty when valid.
    QString problem() const { return problem_; }

    // Counts of the current space; -1 while counting or when the space is invalid.
    std::int64_t chipCount() const;
    std::int64_t pointCount() const;
    bool isCounting() const;
    QString countText() const;
    // Wall time of the last finished count, seconds.
    double lastCountSeconds() const;

    ValueListEdit* listEdit(const QString& key) const;

signals:
    // After an edit that changed the (valid) space, explorer or thread count.
    void valuesChanged();
    // The counts for the current space arrived (or its enumeration failed).
    void countsUpdated();
    void areaBudgetChanged(double squareMillimetres);

private:
    QWidget* buildLists();
    QWidget* buildWindow();
    QWidget* buildOptions();
    void showSpace(const core::search::SearchSpace& space);
    ValueListEdit* fieldList(std::vector<std::int64_t> core::search::SearchSpace::*values) const;
    void showBaseValues();  // an optional field's empty list says which value the chips keep
    core::search::SearchSpace fromWidgets() const;
    void edited();
    void check(bool emitChange);
    // `message` in core's words (keys, bytes): shown in the form's, the field it names marked.
    void markProblem(const QString& message);
    QString inFormWords(const QString& message) const;
    void showCounts();

    core::search::SearchSpace space_;
    std::vector<ValueListEdit*> lists_;
    // One list per searched accelerator field, in core::search::kSearchedFields' order.
    std::vector<ValueListEdit*> fieldLists_;
    ValueListEdit* hbm_ = nullptr;
    ValueListEdit* microbatch_ = nullptr;
    ValueListEdit* widths_ = nullptr;
    QCheckBox* tiedLanes_ = nullptr;
    QDoubleSpinBox* budget_ = nullptr;
    QDoubleSpinBox* minFraction_ = nullptr;
    QCheckBox* extrapolate_ = nullptr;
    std::vector<QCheckBox*> recompute_;
    SearchRunOptions* run_ = nullptr;
    QLabel* problemLabel_ = nullptr;
    QLabel* countLabel_ = nullptr;

    QString problem_;
    SearchSpaceCounter* counter_ = nullptr;
    FieldMessages messages_;  // validate()'s keys → the labels shown here
    // The exact values behind the rounded figures the spin boxes show.
    double budgetShown_ = 0;
    double fractionShown_ = 0;
    bool showing_ = false;
};

}  // namespace tandem::ui
