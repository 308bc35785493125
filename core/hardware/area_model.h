#pragma once
// Silicon area of an accelerator from PHAZE's 22 nm tables (PHAZE, ICML 2024, and its public
// code; ARCHITECTURE.md §2.8; a copy is tests/data/reference/phaze-area-tables.md):
//   area = numTensorCores · TC(rows·cols) + numVectorCores · VC(lanes) + GLB(bytes)   [µm²]
// A value that is a table point is returned exactly as tabulated, so the reference chip
// (8 TC of 128×128, 2 VC of 128 lanes, 128 MiB GLB) is exactly 278,826,676 µm². Between two
// table points x0 < x < x1 the area is interpolated log–log,
//   log A(x) = log A(x0) + (log x − log x0) / (log x1 − log x0) · (log A(x1) − log A(x0)),
// i.e. a power law through the two neighbours: it is exact on both of them, strictly increasing
// because every table is, and natural for tables sampled at powers of two (an A100-like 40 MiB
// buffer falls between 32 and 64 MiB). A value outside a table is an error naming the component,
// the value and the table range, unless the model is built with extrapolation allowed; then the
// power law of the two nearest points is extended past the end.
#include <cstdint>
#include <span>

#include "core/common/expected.h"
#include "core/hardware/accelerator_config.h"

namespace tandem::core::hardware {

struct AreaTablePoint {
    double size;  // PEs per tensor core, lanes per vector core, or GLB bytes
    double areaSquareMicrometres;
};

struct AreaBreakdown {
    double tensorCoresSquareMicrometres = 0;  // all tensor cores together
    double vectorCoresSquareMicrometres = 0;  // all vector cores together
    double globalBufferSquareMicrometres = 0;
    double totalSquareMicrometres() const {
        return tensorCoresSquareMicrometres + vectorCoresSquareMicrometres +
               globalBufferSquareMicrometres;
    }
    // Division (not multiplication by 1e-6) keeps the result correctly rounded, so the reference
    // chip compares equal to kReferenceAreaSquareMillimetres.
    double totalSquareMillimetres() const { return totalSquareMicrometres() / 1e6; }
};

class AreaModel {
public:
    // The area budget of PHAZE's search: the TPUv4-like reference chip, in mm².
    static constexpr double kReferenceAreaSquareMillimetres = 278.826676;
    // PHAZE keeps a configuration only if its area is at least this fraction of the budget
    // (waived when numTensorCores == 1 or numVectorCores == 1).
    static constexpr double kMinAreaFraction = 0.3;

    explicit AreaModel(bool allowExtrapolation = false) : allowExtrapolation_(allowExtrapolation) {}
    bool allowsExtrapolation() const { return allowExtrapolation_; }

    Expected<AreaBreakdown> breakdown(const AcceleratorConfig& config) const;
    Expected<double> areaSquareMillimetres(const AcceleratorConfig& config) const;
    Expected<double> areaSquareMicrometres(const AcceleratorConfig& config) const;

    // One component, µm².
    Expected<double> tensorCoreSquareMicrometres(double processingElements) const;
    Expected<double> vectorCoreSquareMicrometres(double lanes) const;
    Expected<double> globalBufferSquareMicrometres(double bytes) const;

    // PHAZE's area window: minFraction·budget ≤ area ≤ budget, the lower bound waived for a
    // chip with a single tensor core or a single vector core.
    static bool inPhazeAreaWindow(const AcceleratorConfig& config, double areaSquareMillimetres,
                                  double budgetSquareMillimetres = kReferenceAreaSquareMillimetres,
                                  double minFraction = kMinAreaFraction);

    static std::span<const AreaTablePoint> tensorCoreTable();    // size = PEs (rows·cols)
    static std::span<const AreaTablePoint> vectorCoreTable();    // size = lanes
    static std::span<const AreaTablePoint> globalBufferTable();  // size = bytes

private:
    bool allowExtrapolation_ = false;
};

}  // namespace tandem::core::hardware
