#pragma once
// The "Layers" table: one row per layer of the model graph at the plan's tensor-
// parallel width t — name, kind, pipeline stage (from the plan), forward and backward time of
// one microbatch (the layer schedules' makespans), parameter and activation bytes per device
// (what the placement solver accounted), and how well the layer was scheduled (optimal, or the
// gap to the best bound). Input: one ModelPlacement (placement/model_placement.h); when nothing
// fits, the smallest width is shown without stages. Sorting goes through a QSortFilterProxyModel,
// so every column exposes its raw value under Qt::UserRole (seconds, bytes, stage index, gap;
// the layer's position in the model for the name column).
#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "core/placement/model_placement.h"

namespace tandem::ui {

class LayerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Kind,
        Stage,
        Forward,
        Backward,
        Parameters,
        Activations,
        Schedule,
        ColumnCount
    };

    explicit LayerTableModel(QObject* parent = nullptr);

    // Shows the layers of `placement` at result.plan's t (null clears the table).
    void setPlacement(std::shared_ptr<const core::placement::ModelPlacement> placement);
    void clear() { setPlacement(nullptr); }

    // The width shown (0 when empty) and whether stages come from a plan.
    std::int64_t tensorParallel() const {
        return width_ ? width_->graph->options().tensorParallel : 0;
    }
    bool hasPlan() const { return placement_ && placement_->result.plan.has_value(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant raw(int row, int column) const;
    QString display(int row, int column) const;
    QString scheduleText(int row) const;
    QString scheduleTooltip(int row) const;

    std::shared_ptr<const core::placement::ModelPlacement> placement_;
    const core::placement::WidthInput* width_ = nullptr;
    const core::placement::LayerCostSet* costs_ = nullptr;
    std::vector<int> stageOfLayer_;  // −1: no plan
};

}  // namespace tandem::ui
