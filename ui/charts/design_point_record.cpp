#include "ui/charts/design_point_record.h"

#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"
#include "ui/charts/point_text.h"

namespace tandem::ui {

DesignPointRecord DesignPointRecord::from(const core::search::EvaluatedPoint& point,
                                          core::search::SearchObjective objective) {
    const auto& p = point.point;
    const auto& a = p.accelerator;
    DesignPointRecord r;
    r.index = p.index;
    r.areaSquareMillimetres = p.areaSquareMillimetres;
    r.throughputSamplesPerSecond = point.throughputSamplesPerSecond;
    r.objective = point.objective;
    r.baselineThroughputSamplesPerSecond = point.baselineThroughputSamplesPerSecond;
    const auto optional = core::search::optionalSearchedFields();
    for (std::size_t k = 0; k < optional.size(); ++k)
        r.optionalFields[k] = core::search::parameterOf(*optional[k]).get(a);
    r.globalBufferBytes = a.globalBufferBytes;
    r.hbmCapacityBytes = a.hbmCapacityBytes;
    r.tensorCores = std::int32_t(a.numTensorCores);
    r.tensorCoreRows = std::int32_t(a.tensorCoreRows);
    r.tensorCoreCols = std::int32_t(a.tensorCoreCols);
    r.vectorCores = std::int32_t(a.numVectorCores);
    r.vectorCoreLanes = std::int32_t(a.vectorCoreLanes);
    r.microbatchSize = std::int32_t(p.microbatchSize);
    r.recompute = p.recompute;
    r.status = point.status;
    r.normalised = !point.modelThroughputsSamplesPerSecond.empty();
    // The plan's shape is kept by every evaluator, even when the plan itself is not.
    r.tensorParallel = std::int32_t(point.planShape.tensorParallel);
    r.dataParallel = std::int32_t(point.planShape.dataParallel);
    r.stages = std::int32_t(point.planShape.stages);
    r.interleave = std::int32_t(point.planShape.interleave);
    r.zero = std::int32_t(point.planShape.zero);
    r.sequenceParallel = point.planShape.sequenceParallel;
    r.devicesUsed = std::int32_t(point.planShape.devicesUsed);
    r.joulesPerIteration = float(point.planShape.joulesPerIteration);
    r.averagePowerWatts = float(point.planShape.averagePowerWatts);
    r.objectiveKind = objective;
    if (point.plan) {
        r.interleave = std::int32_t(point.plan->interleave);
        r.zero = std::int32_t(point.plan->zero);
        r.sequenceParallel = point.plan->sequenceParallel;
        r.tensorParallel = std::int32_t(point.plan->tensorParallel);
        r.dataParallel = std::int32_t(point.plan->dataParallel);
        r.stages = std::int32_t(point.plan->stages.size());
    }
    return r;
}

bool DesignPointRecord::betterThan(const DesignPointRecord& other) const {
    if (objective != other.objective) return objective > other.objective;
    return index < other.index;
}

bool DesignPointRecord::onChip(const core::hardware::AcceleratorConfig& chip) const {
    return tensorCores == chip.numTensorCores && tensorCoreRows == chip.tensorCoreRows &&
           tensorCoreCols == chip.tensorCoreCols && vectorCores == chip.numVectorCores &&
           vectorCoreLanes == chip.vectorCoreLanes && globalBufferBytes == chip.globalBufferBytes &&
           [&] {
               const auto optional = core::search::optionalSearchedFields();
               for (std::size_t k = 0; k < optional.size(); ++k)
                   if (optionalFields[k] != core::search::parameterOf(*optional[k]).get(chip))
                       return false;
               return true;
           }();
}

QString DesignPointRecord::tooltip(const QString& message,
                                   const std::vector<std::pair<QString, double>>& models) const {
    const auto bytes = [](std::int64_t b) {
        return QString::fromStdString(core::formatBytes(double(b)));
    };
    const auto row = [](const QString& key, const QString& value) {
        return QStringLiteral("<tr><td>%1</td><td>&nbsp;%2</td></tr>").arg(key, value);
    };
    const QString statusName = QString::fromUtf8(core::search::toString(status).data());
    QString html =
        QStringLiteral("<b>Point %1</b> — %2<table>").arg(QString::number(index), statusName);
    html += row(
        QStringLiteral("Tensor cores"),
        QString::fromUtf8("%1 × %2×%3").arg(tensorCores).arg(tensorCoreRows).arg(tensorCoreCols));
    html += row(QStringLiteral("Vector cores"),
                QString::fromUtf8("%1 × %2 lanes").arg(vectorCores).arg(vectorCoreLanes));
    html += row(QStringLiteral("Global buffer"), bytes(globalBufferBytes));
    const auto optional = core::search::optionalSearchedFields();
    for (std::size_t k = 0; k < optional.size(); ++k) {
        const std::string_view label = core::search::parameterOf(*optional[k]).spec.label;
        html += row(QString::fromUtf8(label.data(), qsizetype(label.size())),
                    searchedValueText(optional[k]->key, optionalFields[k]));
    }
    html += row(QStringLiteral("HBM"), bytes(hbmCapacityBytes));
    html += row(QStringLiteral("Microbatch"),
                (microbatchSize == 1 ? QStringLiteral("1 sample")
                                     : QStringLiteral("%1 samples").arg(microbatchSize)));
    html += row(QStringLiteral("Recompute"), recomputeText(recompute));
    html += row(QStringLiteral("Area"), areaText(areaSquareMillimetres));
    if (feasible() && normalised) {
        html +=
            row(QStringLiteral("Objective"),
                QStringLiteral("<b>%1</b> of the reference chip (geometric mean over the models)")
                    .arg(objectiveText(objective)));
        for (const auto& [name, throughput] : models)
            html += row(name.toHtmlEscaped(), throughputText(throughput));
    } else if (feasible()) {
        html += row(QStringLiteral("Throughput"),
                    QStringLiteral("<b>%1</b>").arg(throughputText(throughputSamplesPerSecond)));
        if (baselineThroughputSamplesPerSecond > 0)
            html += row(QStringLiteral("Fixed strategy"),
                        throughputText(baselineThroughputSamplesPerSecond));
        if (objectiveKind != core::search::SearchObjective::Throughput) {
            const std::string_view title = core::search::objectiveTitle(objectiveKind);
            html += row(QString::fromUtf8(title.data(), qsizetype(title.size())).toHtmlEscaped(),
                        QStringLiteral("<b>%1</b>")
                            .arg(QString::fromStdString(
                                core::search::formatObjective(objectiveKind, objective))));
        }
        if (tensorParallel > 0)
            html += row(QStringLiteral("Plan"), planShapeText(tensorParallel, dataParallel, stages,
                                                              interleave, zero, sequenceParallel));
        if (joulesPerIteration > 0)
            html += row(QStringLiteral("Energy"),
                        QStringLiteral("%1 per iteration, %2 per device on %3 devices")
                            .arg(QString::fromStdString(core::formatEnergy(joulesPerIteration)),
                                 QString::fromStdString(core::formatPower(averagePowerWatts)),
                                 QString::fromStdString(core::formatCount(devicesUsed))));
    }
    html += QStringLiteral("</table>");
    if (!message.isEmpty()) html += QStringLiteral("<br><i>%1</i>").arg(message.toHtmlEscaped());
    return html;
}

}  // namespace tandem::ui
