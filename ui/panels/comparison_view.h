#pragma once
// The "Comparison" tab: what co-searching chip and placement buys. After a search it
// shows the attribution chain of core::search::SearchBaselines as columns, each freeing one
// thing over the column before (reference chip + fixed strategy → + Tandem placement → + searched
// chip → + microbatch and recompute → + HBM = joint optimum), then the searched chip with the
// fixed strategy at the same options — throughput, what changed, the step factor, the factor over
// reference + fixed, the chip, area, microbatch, recompute and plan shape — and a plain-language
// reading (comparison_text.h). When the fixed strategy fits nowhere on the reference chip there
// are no options to hold, and it shows the four baselines (reference + fixed, reference +
// placement, searched + fixed, joint) with factors over reference + placement.
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

class BreakdownChart;

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    // Table rows; one column per compared configuration.
    enum Row {
        Throughput,
        Mfu,      // model FLOPs utilisation, when the plan knows it
        Changed,  // what this column frees over the one it builds on
        Step,     // × over that column
        Factor,   // × over the first available baseline
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
    // What the breakdown chart names above its rows (the model; each row names its column).
    void setSubject(const QString& subject);
    // The current point: its plan (placement.result.plan) against the model's fixed strategy
    // (placement.baseline) on `chip`; area from core's area model.
    void setSinglePoint(const core::placement::ModelPlacement& placement,
                        const core::hardware::AcceleratorConfig& chip);
    // Two points side by side, e.g. the set-up and a design-space point: the second column says
    // what differs from the first and the factor over it.
    void setPair(const core::placement::ModelPlacement& first,
                 const core::hardware::AcceleratorConfig& firstChip, const QString& firstTitle,
                 const core::placement::ModelPlacement& second,
                 const core::hardware::AcceleratorConfig& secondChip, const QString& secondTitle);
    // A non-empty `why` says the shown search no longer answers the set-up (heading); empty
    // clears it.
    void setStale(const QString& why);
    void clear();

    // What is shown, for tests and accessibility.
    QString heading() const;
    QString explanation() const;
    int columnCount() const;
    QString columnTitle(int column) const;
    QString cellText(Row row, int column) const;
    BreakdownChart* breakdownChart() const { return breakdown_; }

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
        QString changed;
        int stepFrom = -1;  // the column this one builds on
    };

    void setHeading(const QString& text);
    static Entry fromPlacement(const QString& title, const core::placement::ModelPlacement& p,
                               const core::hardware::AcceleratorConfig& chip);
    static Entry fromOutcome(const QString& title, const core::search::BaselineOutcome& outcome);
    // What differs between two columns' points: "chip", "HBM capacity", "microbatch",
    // "recompute" (the chip's own fields, HBM apart, count as one).
    static QStringList changesBetween(const Entry& from, const Entry& to);
    void showEntries(const std::vector<Entry>& entries, int base, const QString& factorLabel);

    QLabel* heading_ = nullptr;
    QString headingText_;  // without the stale note
    QString stale_;
    QTableWidget* table_ = nullptr;
    QLabel* explanation_ = nullptr;
    BreakdownChart* breakdown_ = nullptr;  // where each column's time per batch goes
};

}  // namespace tandem::ui
