#pragma once
// What limits a chip (issue 27 item 14): for one placement request, each hardware parameter —
// every integer or real field of the accelerator and the cluster (registry order), but the
// cluster's size (devices, devices per node: that is scaling) and fields restricted to powers of
// two — is moved down and up by a fraction (±10 % by default) and the model placed again
// (placeModel(), V, ZeRO and recompute chosen as the request says). Each side gives the
// throughput and the energy per sample of the new best plan, as a change against the
// unperturbed point. An integer field moves to the nearest integer at least one away; a side
// the registry's range or the cross-field rules refuse is not evaluated and says why (never a
// silent clamp). The entries come back ordered by their largest change in throughput (ties:
// energy), so a tornado chart can draw them top-down. Evaluations run one after another on the
// calling thread; `control` is polled between them and reports progress in evaluations.
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/placement/model_placement.h"

namespace tandem::core::search {

struct SensitivitySide {
    double value = 0;        // the parameter's value on this side
    bool evaluated = false;  // false: refused (see note) or cancelled
    bool fits = false;       // a plan fits at this value
    double throughputSamplesPerSecond = 0;
    double joulesPerSample = 0;  // 0 when nothing fits or the energy is not known
    std::string note;            // why not evaluated, or why nothing fits
};

struct SensitivityEntry {
    std::string section;  // "accelerator" or "cluster"
    std::string key;      // registry key, e.g. "hbmBandwidthBytesPerSecond"
    std::string label;    // "HBM bandwidth"
    std::string unit;     // registry display unit
    double base = 0;
    SensitivitySide low, high;
    // Relative change over the base point (−0.05 = 5 % less); 0 when the side is not evaluated;
    // a throughput change of −1 (−100 %) when nothing fits at that value.
    double throughputChange(const SensitivitySide& side) const;
    double energyChange(const SensitivitySide& side) const;
    double baseThroughput = 0;
    double baseJoulesPerSample = 0;
};

struct SensitivityResult {
    double fraction = 0.1;
    double baseThroughputSamplesPerSecond = 0;
    double baseJoulesPerSample = 0;
    std::vector<SensitivityEntry> entries;  // by impact, largest first
    bool cancelled = false;                 // the entries hold what finished
};

// The parameters analyseSensitivity() moves, as (section, key).
std::vector<std::pair<std::string, std::string>> sensitivityParameters();

// Errors: a fraction outside (0, 0.9], the base point itself failing to place (its message), or
// nothing fitting at the base (no change can be measured against it).
Expected<SensitivityResult> analyseSensitivity(const placement::ModelPlacementRequest& request,
                                               double fraction = 0.1,
                                               RunControl* control = nullptr);

}  // namespace tandem::core::search
