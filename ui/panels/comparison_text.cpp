#include "ui/panels/comparison_text.h"

#include <QObject>
#include <QStringList>

#include "core/common/units.h"
#include "ui/charts/point_text.h"

namespace tandem::ui {

namespace {
QString tr(const char* text) {
    return QObject::tr(text);
}
QString html(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}
QString bytes(std::int64_t b) {
    return QString::fromStdString(core::formatBytes(double(b)));
}
double ratio(double a, double b) {
    return a > 0 && b > 0 ? a / b : 0.0;
}
double throughputOf(const core::search::BaselineOutcome& o) {
    return o.available ? o.throughputSamplesPerSecond : 0.0;
}

// The chain from the reference chip with the fixed strategy to the joint optimum, one freedom
// per sentence.
QStringList chainSentences(const core::search::SearchBaselines& b) {
    const double rf = throughputOf(b.referenceFixed), placed = throughputOf(b.placementOnly),
                 chip = throughputOf(b.chipAndPlacement), hbm = throughputOf(b.sameHbm),
                 joint = throughputOf(b.joint), chipAlone = throughputOf(b.chipOnly);
    const auto& o = b.referenceFixed.point;
    QStringList parts;
    parts << tr("Step by step from the reference chip with the fixed strategy (%1 at %2), each "
                "factor freeing one thing:")
                 .arg(throughputText(rf), heldOptionsText(o).toHtmlEscaped());
    QStringList steps;
    const auto step = [&](double from, double to, const QString& what,
                          const core::search::BaselineOutcome& outcome) {
        if (to > 0 && from > 0)
            steps << tr("%1 <b>%2</b>").arg(what, factorText(ratio(to, from)));
        else if (!outcome.available)
            steps << tr("%1 — not available (%2)").arg(what, html(outcome.message));
    };
    step(rf, placed, tr("Tandem's placement on the same chip and options:"), b.placementOnly);
    step(placed, chip, tr("the searched chip, same options:"), b.chipAndPlacement);
    step(
        chip, hbm,
        tr("microbatch and recompute chosen for it, same %1 HBM:").arg(bytes(o.hbmCapacityBytes())),
        b.sameHbm);
    step(hbm, joint,
         tr("HBM capacity chosen too (%1):").arg(bytes(b.joint.point.hbmCapacityBytes())), b.joint);
    parts << steps.join(QStringLiteral("; ")) + QLatin1Char('.');
    parts << tr("Together: <b>%1</b>.").arg(factorText(ratio(joint, rf)));

    // Chip and placement each alone at the same options, against both together.
    const double placementFactor = ratio(placed, rf), chipFactor = ratio(chipAlone, rf),
                 both = ratio(chip, rf);
    if (chipFactor > 0) {
        QString text = tr("The searched chip alone, with the fixed strategy at the same options: "
                          "<b>%1</b>.")
                           .arg(factorText(chipFactor));
        if (placementFactor > 0 && both > 0) {
            const double product = placementFactor * chipFactor;
            text +=
                tr(" Chip and placement together at those options give %1").arg(factorText(both));
            if (both > product * 1.02)
                text += tr(", more than the two alone multiply to (%1): the searched chip pays "
                           "off only with a placement made for it, so chip and placement "
                           "reinforce each other.")
                            .arg(factorText(product));
            else if (both < product / 1.02)
                text += tr(", less than the two alone multiply to (%1): part of what the chip "
                           "gains, the placement would have found anyway.")
                            .arg(factorText(product));
            else
                text += tr(", about the product of the two (%1): the gains are independent.")
                            .arg(factorText(product));
        }
        parts << text;
    } else if (!b.chipOnly.available) {
        parts << tr("The fixed strategy fits on no searched chip at the same options (%1).")
                     .arg(html(b.chipOnly.message));
    }
    return parts;
}
}  // namespace

QString heldOptionsText(const core::search::SearchPoint& point) {
    return tr("%1 HBM, microbatch %2, recompute %3")
        .arg(bytes(point.hbmCapacityBytes()))
        .arg(point.microbatchSize)
        .arg(recomputeText(point.recompute));
}

QString searchComparisonText(const core::search::SearchBaselines& b) {
    QStringList parts;
    const double j = throughputOf(b.joint);
    if (j <= 0) {
        parts << tr("<b>No point of the search fits</b>: %1").arg(html(b.joint.message));
        return parts.join(QStringLiteral(" "));
    }
    if (b.referenceFixed.available) {
        parts << chainSentences(b);
    } else {
        parts << tr("The fixed strategy does not fit on the reference chip (%1), so there is no "
                    "fixed-strategy baseline to compare with.")
                     .arg(html(b.referenceFixed.message));
        if (const double rp = throughputOf(b.referencePlaced); rp > 0)
            parts << (b.partial ? tr("Over the reference chip with Tandem's placement (%1), "
                                     "the best point so far is <b>%2</b>.")
                                : tr("Over the reference chip with Tandem's placement (%1), "
                                     "the joint optimum is <b>%2</b>."))
                         .arg(heldOptionsText(b.referencePlaced.point).toHtmlEscaped(),
                              factorText(ratio(j, rp)));
    }
    if (b.partial)
        parts << tr(
            "<i>Partial results: the search was cancelled, so these baselines cover only "
            "the points it evaluated; a full search may find better ones.</i>");
    if (!b.referenceInSpace)
        parts << tr(
            "<i>The reference chip lies outside the searched space (budget or lists), so "
            "the best point may fall below a reference baseline.</i>");
    return parts.join(QStringLiteral(" "));
}

namespace {

// What the placement chose for V and the ZeRO stage left to it, and against what.
QString placementChoiceText(const core::placement::ModelPlacement& p) {
    const core::placement::PlacementChoice& c = *p.choice;
    const core::placement::Plan& plan = *p.result.plan;
    QString text;
    if (c.sequenceParallelChosen)
        text += tr(" The search placed the model without and with sequence parallelism "
                   "and kept the faster: <b>sequence parallelism %1</b>.")
                    .arg(plan.sequenceParallel ? tr("on") : tr("off"));
    if (!c.interleaveChosen && !c.zeroChosen) return text;
    QStringList left;
    if (c.interleaveChosen) left << tr("the interleaving V");
    if (c.zeroChosen) left << tr("the ZeRO stage");
    const QString what = left.join(tr(" and "));
    const QString seconds = QString::fromStdString(core::formatSeconds(plan.timePerBatchSeconds));
    const QString plain =
        c.plainSecondsPerBatch > 0
            ? tr("%1 for the best partition with V = 1 and ZeRO 0")
                  .arg(QString::fromStdString(core::formatSeconds(c.plainSecondsPerBatch)))
            : tr("nothing fitting with V = 1 and ZeRO 0");
    if (c.strategy)
        return text + tr(" The search chose %1: <b>V = %2, ZeRO %3</b>, with P,T,D = %4 in "
                         "stages of equal layer counts (Megatron's interleaved schedule needs "
                         "them), %5 per batch against %6; %7 strategies priced.")
                          .arg(what, QString::number(plan.interleave), QString::number(plan.zero),
                               QString::fromStdString(core::placement::strategyText(*c.strategy)),
                               seconds, plain, QString::number(c.strategiesPriced));
    return text + tr(" The search chose %1: V = 1 and ZeRO 0, the partition search's "
                     "plan; none of the %2 strategies of equal stages with other values "
                     "is faster.")
                      .arg(what, QString::number(c.strategiesPriced));
}

}  // namespace

QString singlePointComparisonText(const core::placement::ModelPlacement& p) {
    const auto* placed = p.result.plan ? &*p.result.plan : nullptr;
    const auto* fixed =
        p.baseline && p.baseline->fits && p.baseline->plan ? &*p.baseline->plan : nullptr;
    const auto percent = [](double f) {
        return QString::fromStdString(core::formatFixed(100.0 * f, 0)) + QStringLiteral(" %");
    };
    if (!placed)
        return tr("<b>Nothing fits on this chip</b>: %1").arg(html(p.result.infeasibleReason));
    const QString shape = planShapeText(*placed) + QStringLiteral("; ") + planChoicesText(*placed);
    QString text = (p.fixedStrategy ? tr("Your fixed strategy (%1) reaches <b>%2</b>")
                                    : tr("Tandem's placement (%1) reaches <b>%2</b>"))
                       .arg(shape, throughputText(placed->throughputSamplesPerSecond));
    if (!fixed) {
        const QString why = p.baseline ? QString::fromStdString(p.baseline->reason)
                                       : tr("the model names no fixed strategy");
        return text +
               tr("; the fixed strategy does not run on this chip: %1.").arg(why.toHtmlEscaped()) +
               (p.choice ? placementChoiceText(p) : QString());
    }
    text += tr(", <b>%1</b> the fixed Megatron strategy (%2, %3), on the same chip, HBM, "
               "microbatch and recompute.")
                .arg(factorText(ratio(placed->throughputSamplesPerSecond,
                                      fixed->throughputSamplesPerSecond)),
                     planShapeText(*fixed) + QStringLiteral("; ") + planChoicesText(*fixed),
                     throughputText(fixed->throughputSamplesPerSecond));
    const auto seconds = [](double v) { return QString::fromStdString(core::formatSeconds(v)); };
    // Time per batch = m × the slowest stage + the others' fill and drain + gradient sync: name
    // each part for both.
    text += tr(" A batch takes %1 against %2: %3 microbatches per pipeline through a slowest "
               "stage of %4 (fixed: %5 × %6), the pipeline idles %7 of the time (fixed: %8), "
               "and the gradient all-reduce takes %9 (fixed: %10).")
                .arg(seconds(placed->timePerBatchSeconds), seconds(fixed->timePerBatchSeconds),
                     QString::number(placed->microbatchesPerPipeline),
                     seconds(placed->maxStageLoadSeconds),
                     QString::number(fixed->microbatchesPerPipeline),
                     seconds(fixed->maxStageLoadSeconds), percent(placed->bubbleFraction),
                     percent(fixed->bubbleFraction), seconds(placed->syncSeconds))
                .arg(seconds(fixed->syncSeconds));
    if (p.choice) text += placementChoiceText(p);
    return text;
}

}  // namespace tandem::ui
