#pragma once
// The words and colours of the Gantt chart, kept apart from the drawing: one colour and one name
// per operator class (shared by the bars and the legend, so they always agree) and the hover
// text of a bar — name, class, mode, start, duration, end, FLOPs and achieved rate, bytes
// all-reduced, the cores it holds — with every number in units from core/common/units.h.
#include <QColor>
#include <QString>

#include "core/schedule/gantt_layout.h"

namespace tandem::ui {

QColor ganttClassColour(core::model::OpClass opClass);
QColor ganttMixedColour();  // a rectangle standing for several sub-pixel operators
QString ganttClassName(core::model::OpClass opClass);
// Rich text for bar `barIndex` of `layout` (which must be a valid index).
QString ganttBarDescription(const core::schedule::GanttLayout& layout, int barIndex);

}  // namespace tandem::ui
