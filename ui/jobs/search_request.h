#pragma once
// Everything a background search needs, as one value the GUI thread hands to SearchJob::start():
// the model, the design space (whose base hardware point carries the cluster), the training
// set-up, which explorer walks the space, how many worker threads it may use, and how each
// point's layer schedules are solved. Plain data: it is copied to the search thread, so later
// edits in the window cannot change a search that already runs.
#include <string>

#include "core/hardware/training_config.h"
#include "core/model/model_source.h"
#include "core/placement/cost_model_kind.h"
#include "core/schedule/schedule_options.h"
#include "core/search/explorer.h"
#include "core/search/search_space.h"

namespace tandem::ui {

struct SearchRequest {
    core::model::ModelSourcePtr model;
    core::search::SearchSpace space = core::search::SearchSpace::phaze();
    // Global batch, sequence length (0 = the model's) and optimizer; every point sets the
    // microbatch size and recompute itself.
    core::hardware::TrainingConfig training;
    core::search::ExplorerKind explorer = core::search::ExplorerKind::Exhaustive;
    int threads = 0;  // ≤ 0: one per core
    core::placement::CostModelKind costModel = core::placement::CostModelKind::Native;
    core::schedule::ScheduleOptions scheduleOptions;
    // Also evaluate the reference chip (the space's base accelerator) on its own and derive the
    // four baselines of the Comparison view (core/search/search_baselines.h).
    bool computeBaselines = true;
};

}  // namespace tandem::ui
