#pragma once
// What one iteration of a plan does on the whole cluster (energy/iteration_activity.h), from
// the layer costs of its width (docs/cost-model.md, "Energy"):
// - arithmetic and HBM traffic: every one of the N microbatches runs each stage's forward and
//   backward work (and its rerun: the whole forward for full recomputation, the attention cores
//   for selective) on each of the stage's devices, plus each device's optimizer step;
// - bytes over the links: tensor-parallel collectives (their time, hidden or not, at the
//   group's achievable bandwidth), activations and gradients between stages (each crossing
//   edge, both ways, per microbatch), and the gradient all-reduce (2(d − 1)/d of each device's
//   parameters on a ring; ZeRO-3 gathers the parameters once more: 3(d − 1)/d). A transfer is
//   inter-node when its group spans more than one node in the plan's device layout;
// - every device in use is on for the iteration's time.
#include <vector>

#include "core/common/expected.h"
#include "core/energy/iteration_activity.h"
#include "core/energy/training_cost.h"
#include "core/placement/placement_problem.h"
#include "core/placement/plan.h"

namespace tandem::core::placement {

// `optimizerStepBytes[k]`: the HBM bytes of stage k's optimizer step on one of its devices.
energy::IterationActivity iterationActivity(const Plan& plan, const PlacementProblem& problem,
                                            const std::vector<double>& optimizerStepBytes);

// Training the plan on `budget` (energy/training_cost.h) at `tokensPerSample` tokens per
// sample (the sequence length): iterations of plan.globalBatch samples, each the plan's time and
// energy on its devices in use. An error when the plan records no global batch or time.
Expected<energy::TrainingCost> planTrainingCost(const Plan& plan,
                                                const energy::TrainingBudget& budget,
                                                double tokensPerSample);

}  // namespace tandem::core::placement
