#pragma once
// What `tandem-cli place` prints as text: a plan (its stages in a table, where the time goes,
// MFU, energy and power, and with a token budget what training takes), a placement against the
// model's fixed baseline, one given strategy, and what the placement chose for the settings left to
// it (auto).
#include <ostream>
#include <string>

#include "core/hardware/training_config.h"
#include "core/io/placement_json.h"
#include "core/model/model_source.h"
#include "core/placement/model_placement.h"
#include "core/placement/strategy_evaluation.h"

namespace tandem::cli {

// One plan under `title`, its layers named from `problem`.
void printPlan(std::ostream& out, const char* title, const core::placement::Plan& plan,
               const core::placement::PlacementProblem& problem,
               const core::io::BudgetContext* budget = nullptr);
// "  energy: 8.41 MJ per iteration (…), 274 W per device on average" and, with a budget, a line
// saying what training on it takes.
void printPlanEnergy(std::ostream& out, const core::placement::Plan& plan,
                     const core::io::BudgetContext* budget);
// "V = 2, ZeRO 1, sequence parallelism on": what a resolved training runs with.
std::string choiceText(const core::hardware::TrainingConfig& training);
// `place --strategy`: the strategy's header line and its plan (or why it does not fit).
void printStrategy(std::ostream& out, const core::model::ModelSource& model,
                   const core::placement::ModelPlacementRequest& request,
                   const core::placement::StrategyEvaluation& evaluation,
                   const core::io::BudgetContext* budget = nullptr);
// `place`: Tandem's placement, what it chose, and the model's fixed baseline with the speed-up.
void printPlacement(std::ostream& out, const core::model::ModelSource& model,
                    const std::string& hardwareName,
                    const core::placement::ModelPlacementRequest& request,
                    const core::placement::ModelPlacement& placement,
                    const core::io::BudgetContext* budget = nullptr);

}  // namespace tandem::cli
