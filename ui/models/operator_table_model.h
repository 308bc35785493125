#pragma once
// Table model over one layer of a ModelEstimate: one row per forward operator with its class,
// forward and backward latency on one core and on all cores, FLOPs and bytes. Sorting goes
// through a QSortFilterProxyModel, so each column exposes its raw number under Qt::UserRole.
#include <QAbstractTableModel>
#include <memory>

#include "core/estimate/model_estimate.h"
#include "core/model/model_graph.h"

namespace tandem::ui {

class OperatorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Class,
        ForwardOneCore,
        ForwardAllCores,
        BackwardOneCore,
        BackwardAllCores,
        Flops,
        Bytes,
        ColumnCount
    };

    explicit OperatorTableModel(QObject* parent = nullptr);

    // Shows `layerIndex` of `estimate`; the graph keeps the operators the estimate points to.
    void setLayer(std::shared_ptr<const core::model::ModelGraph> graph,
                  std::shared_ptr<const core::estimate::ModelEstimate> estimate, int layerIndex);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const core::estimate::LayerEstimate* layer() const;

    std::shared_ptr<const core::model::ModelGraph> graph_;
    std::shared_ptr<const core::estimate::ModelEstimate> estimate_;
    int layerIndex_ = -1;
};

}  // namespace tandem::ui
