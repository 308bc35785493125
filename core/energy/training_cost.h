#pragma once
// Time, device-hours, energy and money to train on a token budget (docs/cost-model.md,
// "Time to train"): iterations = tokens / (global batch · sequence length), each taking the
// plan's time per batch on its devices in use and its joules. The budget need not be a whole
// number of iterations: the last one is counted by its share, as Narayanan et al. (2021) count
// end-to-end training time (8TP / nX).
#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/expected.h"

namespace tandem::core::energy {

struct TrainingBudget {
    double tokens = 0;               // tokens to train on (> 0)
    double pricePerDeviceHour = -1;  // currency per device-hour; < 0: no price given
    bool hasPrice() const { return pricePerDeviceHour >= 0; }
};

struct TrainingCost {
    double iterations = 0;
    double seconds = 0;
    double days = 0;
    double deviceHours = 0;
    double energyMegawattHours = 0;  // 0 when the plan's energy is not known
    double cost = 0;                 // deviceHours · price; 0 without a price
    bool hasCost = false;
};

// "45.2 days, 1.11 M device-hours, 119 MWh, cost 2.22 M" (MWh when the energy is known, the
// cost when priced), the parts joined by `separator`: as the CLI, the Summary and the report
// show a training cost.
std::string trainingCostText(const TrainingCost& cost, bool energyKnown,
                             std::string_view separator = ", ");

// Errors: tokens or price not finite, tokens ≤ 0, a non-positive tokens per iteration or time.
Expected<TrainingCost> trainingCost(const TrainingBudget& budget, double tokensPerIteration,
                                    double secondsPerIteration, std::int64_t devicesUsed,
                                    double joulesPerIteration);

}  // namespace tandem::core::energy
