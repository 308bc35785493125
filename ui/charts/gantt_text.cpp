#include "ui/charts/gantt_text.h"

#include <QObject>
#include <QStringList>

#include "core/common/units.h"

namespace tandem::ui {

namespace sch = core::schedule;
using core::model::OpClass;

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

QColor ganttMixedColour() {
    return QColor(0x8e, 0x8e, 0x8e);
}

QColor ganttClassColour(OpClass c) {
    switch (c) {
        case OpClass::TensorCore:
            return QColor(0x3b, 0x6e, 0xb4);  // blue
        case OpClass::VectorCore:
            return QColor(0xe0, 0x8a, 0x2c);  // orange
        case OpClass::Fused:
            return QColor(0x8b, 0x5c, 0xb8);  // purple
        case OpClass::Collective:
            return QColor(0x3a, 0x9a, 0x5b);  // green
        case OpClass::Nop:
            break;
    }
    return QColor(0x90, 0x90, 0x90);
}

QString ganttClassName(OpClass c) {
    switch (c) {
        case OpClass::TensorCore:
            return QObject::tr("GEMM (tensor core)");
        case OpClass::VectorCore:
            return QObject::tr("Vector (vector core)");
        case OpClass::Fused:
            return QObject::tr("Fused GEMM + vector");
        case OpClass::Collective:
            return QObject::tr("Collective (link)");
        case OpClass::Nop:
            break;
    }
    return QObject::tr("No-op");
}

namespace {
QString modeName(sch::TaskMode mode, OpClass c) {
    if (mode == sch::TaskMode::IntraOpParallel)
        return QObject::tr("intra-operator parallel on every core");
    if (c == OpClass::Collective) return QObject::tr("on the link");
    if (c == OpClass::Fused) return QObject::tr("one tensor core + one vector core");
    return QObject::tr("one core");
}

QString laneList(const std::vector<sch::LaneRange>& lanes) {
    QStringList parts;
    for (const auto& r : lanes) {
        const QString kind = r.kind == sch::LaneKind::TensorCore   ? "TC"
                             : r.kind == sch::LaneKind::VectorCore ? "VC"
                                                                   : "Link";
        if (r.kind == sch::LaneKind::Link)
            parts << kind;
        else if (r.count == 1)
            parts << QString("%1 %2").arg(kind).arg(r.first);
        else
            parts << QString("%1 %2–%3").arg(kind).arg(r.first).arg(r.first + r.count - 1);
    }
    return parts.join(", ");
}
}  // namespace

QString ganttBarDescription(const sch::GanttLayout& layout, int barIndex) {
    const auto& bar = layout.bars()[std::size_t(barIndex)];
    const auto& info = layout.tasks()[std::size_t(bar.task)];
    const auto& task = layout.scheduled()[std::size_t(bar.task)];
    const double duration = bar.endSeconds - bar.startSeconds;
    QString text = QString("<b>%1</b><br>%2 — %3")
                       .arg(qs(info.name).toHtmlEscaped(), ganttClassName(info.opClass),
                            modeName(bar.mode, info.opClass));
    text += QObject::tr("<br>Start: %1<br>Duration: %2<br>End: %3")
                .arg(qs(core::formatSeconds(bar.startSeconds)), qs(core::formatSeconds(duration)),
                     qs(core::formatSeconds(bar.endSeconds)));
    if (info.flops > 0) {
        text += QObject::tr("<br>FLOPs: %1 (%2)")
                    .arg(qs(core::formatFlops(info.flops)),
                         qs(core::formatRate(info.flops / duration, "FLOP")));
    } else {
        text += QObject::tr("<br>FLOPs: none (communication)");
    }
    if (info.collectiveBytes > 0) {
        const QString what = info.collective == core::model::CollectiveKind::AllGather
                                 ? QObject::tr("All-gather")
                             : info.collective == core::model::CollectiveKind::ReduceScatter
                                 ? QObject::tr("Reduce-scatter")
                                 : QObject::tr("All-reduce");
        text += QObject::tr("<br>%1: %2 (%3)")
                    .arg(what, qs(core::formatBytes(info.collectiveBytes)),
                         qs(core::formatRate(info.collectiveBytes / duration, "B")));
    }
    text += QObject::tr("<br>Holds: %1").arg(laneList(task.lanes));
    return text;
}

}  // namespace tandem::ui
