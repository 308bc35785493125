#include "ui/models/operator_table_model.h"

#include "core/common/units.h"

namespace tandem::ui {

OperatorTableModel::OperatorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OperatorTableModel::setLayer(std::shared_ptr<const core::model::ModelGraph> graph,
                                  std::shared_ptr<const core::estimate::ModelEstimate> estimate,
                                  int layerIndex) {
    beginResetModel();
    graph_ = std::move(graph);
    estimate_ = std::move(estimate);
    layerIndex_ = layerIndex;
    endResetModel();
}

const core::estimate::LayerEstimate* OperatorTableModel::layer() const {
    if (!estimate_ || layerIndex_ < 0 || std::size_t(layerIndex_) >= estimate_->layers.size())
        return nullptr;
    return &estimate_->layers[std::size_t(layerIndex_)];
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) return 0;
    const auto* l = layer();
    return l ? int(l->operators.size()) : 0;
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const {
    const auto* l = layer();
    if (!l || !index.isValid() || index.row() >= int(l->operators.size())) return {};
    const auto& entry = l->operators[std::size_t(index.row())];
    const auto& op = *entry.op;
    double raw = 0;
    switch (index.column()) {
        case ForwardOneCore:
            raw = entry.forward.oneCoreSeconds;
            break;
        case ForwardAllCores:
            raw = entry.forward.allCoresSeconds;
            break;
        case BackwardOneCore:
            raw = entry.backward.oneCoreSeconds;
            break;
        case BackwardAllCores:
            raw = entry.backward.allCoresSeconds;
            break;
        case Flops:
            raw = entry.forward.flops;
            break;
        case Bytes:
            raw = entry.forward.bytes;
            break;
        default:
            break;
    }
    if (role == Qt::UserRole) {
        if (index.column() == Name) return QString::fromStdString(op.name);
        if (index.column() == Class)
            return QString::fromUtf8(core::model::toString(op.opClass).data());
        return raw;
    }
    if (role == Qt::TextAlignmentRole && index.column() >= ForwardOneCore)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        return QStringLiteral("%1 (%2)").arg(QString::fromStdString(op.name),
                                             QString::fromStdString(op.kind));
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Name:
            return QString::fromStdString(op.name);
        case Class:
            return QString::fromUtf8(core::model::toString(op.opClass).data());
        case Flops:
            return QString::fromStdString(core::formatFlops(raw));
        case Bytes:
            return QString::fromStdString(core::formatBytes(raw));
        default:
            return QString::fromStdString(core::formatSeconds(raw));
    }
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kTitles[ColumnCount] = {
        "Operator",    "Class",          "Fwd, 1 core", "Fwd, all cores",
        "Bwd, 1 core", "Bwd, all cores", "Fwd FLOPs",   "Fwd HBM bytes"};
    return section >= 0 && section < ColumnCount ? QString::fromUtf8(kTitles[section]) : QVariant();
}

}  // namespace tandem::ui
