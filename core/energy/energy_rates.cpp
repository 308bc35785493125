#include "core/energy/energy_rates.h"

#include <cmath>

#include "core/hardware/area_model.h"

namespace tandem::core::energy {

namespace {

constexpr double kPico = 1e-12;

// The die the static power is paid on: the description's, else the area model's (extrapolated
// past its tables for a custom chip rather than left unpriced).
double dieArea(const hardware::AcceleratorConfig& a) {
    if (a.dieAreaSquareMillimetres > 0) return a.dieAreaSquareMillimetres;
    const auto modelled = hardware::AreaModel(true).areaSquareMillimetres(a);
    return modelled && std::isfinite(*modelled) ? *modelled : 0.0;
}

}  // namespace

EnergyRates EnergyRates::of(const hardware::AcceleratorConfig& a,
                            const hardware::ClusterConfig& cluster) {
    EnergyRates rates;
    const double tileRows = double(a.tensorCoreRows) * double(a.tensorCoreTileFolds);
    const double tileCols = double(a.tensorCoreCols) * double(a.tensorCoreTileFolds);
    const double operandBytesPerMac =
        tileRows > 0 && tileCols > 0 ? double(a.bytesPerElement) * (1.0 / tileRows + 1.0 / tileCols)
                                     : 0.0;
    const double mac = a.macEnergyPicojoules *
                       (a.precision == hardware::Precision::Fp8 ? a.fp8MacEnergyFraction : 1.0);
    // A MAC is two FLOPs.
    rates.joulesPerGemmFlop =
        0.5 * (mac + operandBytesPerMac * a.globalBufferEnergyPicojoulesPerByte) * kPico;
    rates.joulesPerOtherFlop = 0.5 * a.macEnergyPicojoules * kPico;
    rates.joulesPerHbmByte =
        (a.hbmEnergyPicojoulesPerByte + a.globalBufferEnergyPicojoulesPerByte) * kPico;
    rates.joulesPerIntraNodeByte = cluster.intraNodeLinkEnergyPicojoulesPerByte * kPico;
    rates.joulesPerInterNodeByte = cluster.interNodeLinkEnergyPicojoulesPerByte * kPico;
    rates.dieAreaSquareMillimetres = dieArea(a);
    rates.staticWattsPerDevice =
        a.staticPowerWattsPerSquareMillimetre * rates.dieAreaSquareMillimetres;
    return rates;
}

}  // namespace tandem::core::energy
