#pragma once
// The plain-language readings under the Comparison tab's table: for a search, the attribution
// chain of core::search::SearchBaselines read step by step (each factor frees one thing and says
// which), whether chip and placement compound, and the caveats (partial results, a reference chip
// outside the space); for a single point, its plan against the fixed strategy part by part.
// Rich text (HTML), numbers through point_text.h so they read as in the table.
#include <QString>

#include "core/placement/model_placement.h"
#include "core/search/search_baselines.h"

namespace tandem::ui {

QString searchComparisonText(const core::search::SearchBaselines& baselines);
QString singlePointComparisonText(const core::placement::ModelPlacement& placement);

// "32 GiB HBM, microbatch 2, recompute on": the per-chip options a chain step holds.
QString heldOptionsText(const core::search::SearchPoint& point);

}  // namespace tandem::ui
