#pragma once
// The "Comparison" tab: what co-searching chip and placement buys. After a search it
// shows the four baselines of core::search::SearchBaselines side by side (reference chip + fixed
// strategy, reference chip + Tandem placement, searched chip + fixed strategy, joint optimum) —
// throughput, factor over the first available of reference + fixed / reference + placement, the
// chip, area, microbatch, recompute and plan shape — and a plain-language reading of the numbers
// (how much comes from the placement, how much from the chip, and whether the two compound).
// Before any search, setSinglePoint() compares the current point's placement with its fixed
// strategy. Unavailable entries show core's reason instead of numbers.
#include <QString>
#include <QWidget>

#include "core/hardware/accelerator_config.h"
#include "core/hardware/training_config.h"
#include "core/placement/model_placement.h"
#include "core/search/search_baselines.h"

class QLabel;
class QTableWidget;

namespace tandem::ui {

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    // Table rows; one column per compared configuration.
    enum Row {
        Throughput,
        Factor,
        TensorCores,
        VectorCores,
        GlobalBuffer,
        Hbm,
        Area,
        Microbatch,
        Recompute,
        Plan,
        Note,
        RowCount
    };

    explicit ComparisonView(QWidget* parent = nullptr);

    void setBaselines(const core::search::SearchBaselines& baselines);
    // The current point: its plan (placement.result.plan) against the model's fixed strategy
    // (placement.baseline) on `chip`; area from core's area model.
    void setSinglePoint(const core::placement::ModelPlacement& placement,
                        const core::hardware::AcceleratorConfig& chip);
    void clear();

    // What is shown, for tests and accessibility.
    QString heading() const;
    QString explanation() const;
    int columnCount() const;
    QString columnTitle(int column) const;
    QString cellText(Row row, int column) const;

private:
    struct Entry {
        QString title;
        bool available = false;
        QString message;
        double throughput = 0;
        core::hardware::AcceleratorConfig chip;
        double area = 0;  // mm²; < 0: unknown
        QString areaError;
        std::int64_t microbatch = 0;
        core::hardware::Recompute recompute = core::hardware::Recompute::Off;
        const core::placement::Plan* plan = nullptr;
    };

    static Entry fromOutcome(const QString& title, const core::search::BaselineOutcome& outcome);
    void showEntries(const std::vector<Entry>& entries, int base, const QString& factorLabel);
    QString searchExplanation(const core::search::SearchBaselines& b) const;
    QString singleExplanation(const core::placement::ModelPlacement& placement) const;

    QLabel* heading_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* explanation_ = nullptr;
};

}  // namespace tandem::ui
