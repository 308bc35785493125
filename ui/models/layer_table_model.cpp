#include "ui/models/layer_table_model.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

#include "core/common/units.h"

namespace tandem::ui {

namespace {
QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

bool optimal(const core::schedule::LayerSchedule& s) {
    return s.status == core::schedule::ScheduleStatus::Optimal;
}
}  // namespace

LayerTableModel::LayerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayerTableModel::setPlacement(
    std::shared_ptr<const core::placement::ModelPlacement> placement) {
    beginResetModel();
    placement_ = std::move(placement);
    width_ = nullptr;
    costs_ = nullptr;
    stageOfLayer_.clear();
    if (placement_ && !placement_->widths.empty()) {
        const auto& plan = placement_->result.plan;
        // Without a plan there is no t to prefer; the smallest width is the first listed.
        width_ = &placement_->widths.front();
        if (plan)
            for (const auto& w : placement_->widths)
                if (w.graph && w.graph->options().tensorParallel == plan->tensorParallel)
                    width_ = &w;
        if (!width_->graph || !width_->schedules) {
            width_ = nullptr;
        } else {
            costs_ = placement_->problem.width(width_->graph->options().tensorParallel);
            stageOfLayer_.assign(width_->graph->layers().size(), -1);
            if (plan)
                for (std::size_t s = 0; s < plan->stages.size(); ++s)
                    for (int layer : plan->stages[s].layers)
                        if (layer >= 0 && std::size_t(layer) < stageOfLayer_.size())
                            stageOfLayer_[std::size_t(layer)] = int(s);
        }
    }
    endResetModel();
}

int LayerTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !width_) return 0;
    return int(width_->graph->layers().size());
}

int LayerTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LayerTableModel::raw(int row, int column) const {
    const auto i = std::size_t(row);
    const auto& layer = width_->graph->layers()[i];
    const auto& schedules = *width_->schedules;
    const core::placement::LayerCost* cost =
        costs_ && i < costs_->layers.size() ? &costs_->layers[i] : nullptr;
    switch (column) {
        case Name:
            return QString::fromStdString(layer.name);
        case Kind:
            return QString::fromStdString(layer.graph->kind());
        case Stage:
            return stageOfLayer_[i];
        case Forward:
            return schedules.forwardSeconds(i);
        case Backward:
            return schedules.backwardSeconds(i);
        case Parameters:
            return cost ? cost->parameterBytes : double(layer.graph->parameterBytes());
        case Activations:
            return cost ? cost->activationBytes : double(layer.graph->savedBytes());
        case Schedule: {
            const auto& u = schedules.layer(i);
            return std::max(u.forward->gap, u.backward->gap);
        }
        default:
            return {};
    }
}

QString LayerTableModel::scheduleText(int row) const {
    const auto& u = width_->schedules->layer(std::size_t(row));
    if (optimal(*u.forward) && optimal(*u.backward)) return tr("optimal");
    const auto& worse = u.forward->gap >= u.backward->gap ? *u.forward : *u.backward;
    return tr("gap %1 % (%2)")
        .arg(QString::fromStdString(core::formatFixed(100.0 * worse.gap, 2)),
             text(core::schedule::toString(worse.status)));
}

QString LayerTableModel::scheduleTooltip(int row) const {
    const auto& u = width_->schedules->layer(std::size_t(row));
    const auto describe = [](const core::schedule::LayerSchedule& s) {
        QString line = QStringLiteral("%1, makespan %2, bound %3")
                           .arg(text(core::schedule::toString(s.status)),
                                QString::fromStdString(core::formatSeconds(s.makespanSeconds)),
                                QString::fromStdString(core::formatSeconds(s.lowerBoundSeconds)));
        if (s.status == core::schedule::ScheduleStatus::Optimal)
            line += QStringLiteral(" (proved by %1)")
                        .arg(text(core::schedule::toString(s.stats.provedBy)));
        else
            line += QStringLiteral(", gap %1 %")
                        .arg(QString::fromStdString(core::formatFixed(100.0 * s.gap, 2)));
        return line;
    };
    return tr("Forward: %1\nBackward: %2").arg(describe(*u.forward), describe(*u.backward));
}

QString LayerTableModel::display(int row, int column) const {
    const QVariant value = raw(row, column);
    switch (column) {
        case Name:
        case Kind:
            return value.toString();
        case Stage:
            return value.toInt() < 0 ? QString::fromUtf8("—") : value.toString();
        case Forward:
        case Backward:
            return QString::fromStdString(core::formatSeconds(value.toDouble()));
        case Parameters:
        case Activations:
            return QString::fromStdString(core::formatBytes(value.toDouble()));
        case Schedule:
            return scheduleText(row);
        default:
            return {};
    }
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const {
    if (!width_ || !index.isValid() || index.row() < 0 || index.row() >= rowCount() ||
        index.column() < 0 || index.column() >= ColumnCount)
        return {};
    const int row = index.row(), column = index.column();
    switch (role) {
        case Qt::DisplayRole:
            return display(row, column);
        // The layer column sorts in model order (layer.2 before layer.10), not alphabetically.
        case Qt::UserRole:
            return column == Name ? QVariant(row) : raw(row, column);
        case Qt::TextAlignmentRole:
            if (column >= Stage && column != Schedule)
                return int(Qt::AlignRight | Qt::AlignVCenter);
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            if (column == Schedule && raw(row, column).toDouble() > 0)
                return QBrush(QColor(176, 96, 0));  // not proven optimal: draw the eye
            return {};
        case Qt::ToolTipRole:
            if (column == Schedule) return scheduleTooltip(row);
            if (column == Stage && stageOfLayer_[std::size_t(row)] < 0)
                return tr("No plan fits, so the layer has no stage");
            return QStringLiteral("%1 (%2): %3")
                .arg(raw(row, Name).toString(), raw(row, Kind).toString(), display(row, column));
        default:
            return {};
    }
}

QVariant LayerTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kTitles[ColumnCount] = {
        "Layer", "Kind", "Stage", "Forward", "Backward", "Parameters", "Activations", "Schedule"};
    static const char* const kTips[ColumnCount] = {
        "Layer name in the model graph",
        "Layer kind (transformer, embedding, head, …)",
        "Pipeline stage of the plan (0 = first)",
        "Forward time of one microbatch on one device: the layer schedule's makespan",
        "Backward time of one microbatch on one device: the layer schedule's makespan",
        "Weights held by one device of the stage (one tensor-parallel shard)",
        "Activations one microbatch keeps for the backward pass, per device",
        "Layer schedule quality: optimal, or the relative gap to the best lower bound"};
    if (role == Qt::DisplayRole) return QString::fromUtf8(kTitles[section]);
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

}  // namespace tandem::ui
