#pragma once
// Joules of one training iteration and the average power of a device (docs/cost-model.md,
// "Energy"): the activity of the iteration (iteration_activity.h) priced at the chip's and the
// cluster's rates (energy_rates.h), plus the static power of every device in use for the whole
// iteration.
#include <string>

#include "core/energy/energy_rates.h"
#include "core/energy/iteration_activity.h"

namespace tandem::core::energy {

struct EnergyEstimate {
    bool known = false;        // false: no activity recorded (e.g. a plan read from a file)
    double computeJoules = 0;  // arithmetic, with the GEMMs' operand streams
    double memoryJoules = 0;   // HBM traffic
    double networkJoules = 0;  // bytes over the links
    double staticJoules = 0;   // leakage and clocking of the devices in use
    double totalJoules() const {
        return computeJoules + memoryJoules + networkJoules + staticJoules;
    }
    double averagePowerWatts = 0;  // per device in use: total / (devices · seconds)
    bool operator==(const EnergyEstimate&) const = default;
};

EnergyEstimate estimateEnergy(const IterationActivity& activity, const EnergyRates& rates);

// "compute 76 %, HBM 6 %, links 0 %, static 18 %": each part's share of the total, as the CLI,
// the Summary and the report show it.
std::string energySharesText(const EnergyEstimate& energy);

}  // namespace tandem::core::energy
