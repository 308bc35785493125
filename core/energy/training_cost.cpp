#include "core/energy/training_cost.h"

#include "core/common/units.h"

#include <cmath>

namespace tandem::core::energy {

namespace {

Status checkBudget(const TrainingBudget& budget) {
    if (!std::isfinite(budget.tokens) || !(budget.tokens > 0))
        return Error{"the token budget must be a positive, finite number of tokens (e.g. 300e9)"};
    if (!std::isfinite(budget.pricePerDeviceHour))
        return Error{"the price per device-hour must be a finite number (e.g. 2.5)"};
    return Status::success();
}

}  // namespace

Expected<TrainingCost> trainingCost(const TrainingBudget& budget, double tokensPerIteration,
                                    double secondsPerIteration, std::int64_t devicesUsed,
                                    double joulesPerIteration) {
    if (auto ok = checkBudget(budget); !ok) return Error{ok.message()};
    if (!(tokensPerIteration > 0) || !std::isfinite(tokensPerIteration))
        return Error{"the plan trains no tokens per iteration"};
    if (!(secondsPerIteration > 0) || !std::isfinite(secondsPerIteration) || devicesUsed <= 0)
        return Error{"the plan has no time per iteration or no devices"};
    TrainingCost c;
    c.iterations = budget.tokens / tokensPerIteration;
    c.seconds = c.iterations * secondsPerIteration;
    c.days = c.seconds / 86400.0;
    c.deviceHours = double(devicesUsed) * c.seconds / 3600.0;
    c.energyMegawattHours = c.iterations * joulesPerIteration / 3.6e9;
    c.hasCost = budget.hasPrice();
    c.cost = c.hasCost ? c.deviceHours * budget.pricePerDeviceHour : 0.0;
    return c;
}

std::string trainingCostText(const TrainingCost& cost, bool energyKnown,
                             std::string_view separator) {
    const std::string sep(separator);
    std::string text = formatSignificant(cost.days) + " days" + sep +
                       formatCount(cost.deviceHours) + " device-hours";
    if (energyKnown) text += sep + formatSignificant(cost.energyMegawattHours) + " MWh";
    if (cost.hasCost) text += sep + "cost " + formatCount(cost.cost);
    return text;
}

}  // namespace tandem::core::energy
