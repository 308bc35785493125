#include "ui/charts/point_text.h"

#include <QStringList>
#include <cmath>

#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

QString searchedValueText(std::string_view key, double value) {
    const auto* field = core::hardware::acceleratorParameters().find(key);
    const std::string_view unit = field ? field->spec.unit : std::string_view();
    if (unit == "B") return text(core::formatBytes(value));
    if (unit == "B/s") return text(core::formatRate(value, "B"));
    if (unit == "Hz") return text(core::formatFrequency(value));
    const QString number = text(core::hardware::formatNumber(value));
    return unit.empty() ? number
                        : number + " " + QString::fromUtf8(unit.data(), qsizetype(unit.size()));
}

QString throughputText(double samplesPerSecond) {
    return text(core::formatThroughput(samplesPerSecond));
}

QString objectiveText(double objective) {
    return factorText(objective);
}

QString modelThroughputsText(const std::vector<std::pair<QString, double>>& models) {
    QStringList parts;
    for (const auto& [name, throughput] : models)
        parts << QStringLiteral("%1 %2").arg(name, throughputText(throughput));
    return parts.join(QString::fromUtf8(" · "));
}

QString areaText(double squareMillimetres) {
    return text(core::formatFixed(squareMillimetres, 2)) + QString::fromUtf8(" mm²");
}

QString factorText(double factor) {
    if (!std::isfinite(factor) || factor <= 0) return QString::fromUtf8("—");
    return QString::fromUtf8("×") + text(core::formatFixed(factor, factor >= 100 ? 0 : 2));
}

QString tensorCoresText(const core::hardware::AcceleratorConfig& chip) {
    return QString::fromUtf8("%1 × %2×%3")
        .arg(chip.numTensorCores)
        .arg(chip.tensorCoreRows)
        .arg(chip.tensorCoreCols);
}

QString vectorCoresText(const core::hardware::AcceleratorConfig& chip) {
    return QString::fromUtf8("%1 × %2 lanes").arg(chip.numVectorCores).arg(chip.vectorCoreLanes);
}

QString chipText(const core::hardware::AcceleratorConfig& chip) {
    return QString::fromUtf8("%1 TC × %2×%3 · %4 VC × %5 lanes · GLB %6 · HBM %7")
        .arg(chip.numTensorCores)
        .arg(chip.tensorCoreRows)
        .arg(chip.tensorCoreCols)
        .arg(chip.numVectorCores)
        .arg(chip.vectorCoreLanes)
        .arg(text(core::formatBytes(double(chip.globalBufferBytes))),
             text(core::formatBytes(double(chip.hbmCapacityBytes))));
}

QString countText(std::int64_t n, const QString& singular, const QString& plural) {
    return QString::fromStdString(core::countText(n, singular.toStdString(), plural.toStdString()));
}

QString planShapeText(std::int64_t t, std::int64_t d, std::int64_t stages, std::int64_t interleave,
                      std::int64_t zero, bool sequenceParallel) {
    QString text = QString::fromUtf8("t = %1 · d = %2 · %3")
                       .arg(t)
                       .arg(d)
                       .arg(countText(stages, QStringLiteral("stage"), QStringLiteral("stages")));
    if (interleave > 1) text += QString::fromUtf8(" · V = %1").arg(interleave);
    if (zero > 0) text += QString::fromUtf8(" · ZeRO %1").arg(zero);
    if (sequenceParallel) text += QString::fromUtf8(" · sequence parallel");
    return text;
}

QString planShapeText(const core::placement::Plan& plan) {
    return planShapeText(plan.tensorParallel, plan.dataParallel, std::int64_t(plan.stages.size()));
}

QString planChoicesText(const core::placement::Plan& plan) {
    QStringList parts;
    if (plan.interleave > 1) parts << QString::fromUtf8("V = %1").arg(plan.interleave);
    if (plan.zero > 0) parts << QString::fromUtf8("ZeRO %1").arg(plan.zero);
    if (plan.sequenceParallel) parts << QStringLiteral("sequence parallel");
    const auto stages = qsizetype(plan.stages.size());
    qsizetype full = 0, selective = 0;
    for (const auto& stage : plan.stages) {
        full += stage.recompute ? 1 : 0;
        selective += stage.selectiveRecompute ? 1 : 0;
    }
    const auto share = [stages](qsizetype n) {
        return n == stages ? QString()
                           : QString::fromUtf8(" on %1 of %2 stages").arg(n).arg(stages);
    };
    if (full == 0 && selective == 0) parts << QStringLiteral("no recomputation");
    if (full > 0) parts << QStringLiteral("full recomputation") + share(full);
    if (selective > 0) parts << QStringLiteral("selective recomputation") + share(selective);
    return parts.join(QString::fromUtf8(" · "));
}

QString recomputeText(core::hardware::Recompute recompute) {
    return QString::fromUtf8(core::hardware::toString(recompute).data(),
                             qsizetype(core::hardware::toString(recompute).size()));
}

}  // namespace tandem::ui
