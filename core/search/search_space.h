#pragma once
// The design space of an architecture search (ARCHITECTURE.md §2.9): a value list for each
// searched accelerator field (kSearchedFields below), the fixed fields (bytes per element, the
// efficiencies, the cluster, and the clock and HBM bandwidth unless they list values) from a base
// hardware point, the area window, and the per-chip options a point adds
// (HBM capacity, microbatch size, recompute) plus an optional override of the tensor-parallel
// widths the placement may choose from. phaze() reproduces PHAZE's space exactly
// (the PHAZE paper): 29,360 chips in the area window, × 4 microbatch sizes × 3 HBM sizes × 2
// recompute settings. Vector-core width "tied to the TC width" is read as vectorCoreLanes =
// tensorCoreCols: in our output-stationary array (estimate/gemm_cost_model.h) the columns are
// the n dimension, so a tile drains one cols-wide output row per cycle and a vector core of as
// many lanes consumes it at the same rate (the fused-epilogue pairing PHAZE's tie serves). The
// count does not depend on this reading: area depends on rows·cols only, and swapping rows and
// cols maps one reading's chips one-to-one onto the other's. JSON: search_space_json.cpp.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/hardware/area_model.h"
#include "core/hardware/hardware_point.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/training_config.h"
#include "core/model/model_source.h"
#include "core/search/chip_configuration.h"

namespace tandem::core::search {

enum class VectorLanesRule {
    TiedToTensorCoreCols,  // PHAZE: vectorCoreLanes = tensorCoreCols; the lanes list is unused
    Free,                  // vectorCoreLanes takes each value of its own list
};

struct SearchedField;

struct SearchSpace {
    std::string name;              // "phaze" for the preset; free text for user spaces
    hardware::HardwarePoint base;  // every accelerator field not searched, and the cluster

    // Searched accelerator fields, enumerated in list order (the first field varies slowest).
    std::vector<std::int64_t> numTensorCores;
    std::vector<std::int64_t> tensorCoreRows;
    std::vector<std::int64_t> tensorCoreCols;
    std::vector<std::int64_t> numVectorCores;
    VectorLanesRule vectorLanes = VectorLanesRule::TiedToTensorCoreCols;
    std::vector<std::int64_t> vectorCoreLanes;  // must be empty unless vectorLanes == Free
    std::vector<std::int64_t> globalBufferBytes;
    // Optional searched fields: empty (PHAZE's space) keeps the base's value on every chip.
    std::vector<std::int64_t> clockHz;
    std::vector<std::int64_t> hbmBandwidthBytesPerSecond;

    // A chip is kept if minAreaFraction·budget ≤ area ≤ budget; the lower bound is waived for a
    // chip with one tensor core or one vector core (PHAZE's rule, AreaModel::inPhazeAreaWindow).
    double areaBudgetSquareMillimetres = hardware::AreaModel::kReferenceAreaSquareMillimetres;
    double minAreaFraction = hardware::AreaModel::kMinAreaFraction;
    bool allowAreaExtrapolation = false;  // sizes outside the area tables are errors unless set

    // Per-chip options; a search point is one chip × one value of each.
    std::vector<std::int64_t> hbmCapacityBytes;
    std::vector<std::int64_t> microbatchSizes;
    std::vector<hardware::Recompute> recompute;
    // Widths the placement chooses t from; empty: each model's own tensorParallelWidths().
    std::vector<std::int64_t> tensorParallelWidths;

    bool operator==(const SearchSpace&) const = default;

    // True when the chips of this space take more than one value of a field or a value other
    // than the base's: a required field always, an optional one when its list is not empty.
    bool searches(const SearchedField& field) const;

    // PHAZE's space on the TPUv4-like base: numTensorCores, numVectorCores 1…4096, tensor-core
    // rows and cols 2…256 (powers of two), lanes tied to cols, GLB 2…128 MiB, the reference-chip
    // budget with the 0.3 minimum fraction, HBM 32, 64 and 80 GiB (PHAZE's "GB" are 2^30 bytes:
    // its instances state 16 GiB as 17179869184), microbatch sizes 1, 2, 4, 8, recompute off and
    // on, and each model's own widths (the zoo files carry PHAZE's per-model t lists).
    static SearchSpace phaze();

    // {min, 2·min, …, max}; empty unless 1 ≤ min ≤ max are powers of two.
    static std::vector<std::int64_t> powersOfTwo(std::int64_t min, std::int64_t max);

    // Every field and list against the parameter registry and the rules above; the message
    // names the field, the entry, the value and the allowed range.
    Status validate() const;

    // The chips in the area window, in enumeration order (chip index = position). Validates
    // first; an area-table error names the chip; an empty window is an error.
    Expected<std::vector<ChipConfiguration>> enumerateChips() const;

    // tensorParallelWidths if given, else the model's own.
    std::vector<std::int64_t> widthsFor(const model::ModelSource& model) const;

    // JSON (search_space_json.cpp). The document is
    //   {"format": "tandem-search-space", "version": 1, "name": ..., "base": <hardware object or
    //    preset name>, "accelerator": {"numTensorCores": [..] or {"powersOfTwo": {"min": a,
    //    "max": b}}, ..., "vectorCoreLanes": "tensorCoreCols" or a list}, "areaBudget…": ...}
    // with every key named as the field above. Keys left out take the phaze() value, so a file
    // states only how it differs from PHAZE. `sourceName` prefixes every message.
    std::string toJson() const;
    static Expected<SearchSpace> parseJson(std::string_view text, std::string_view sourceName);
    static Expected<SearchSpace> loadFile(const std::filesystem::path& path);
    Status saveFile(const std::filesystem::path& path) const;  // validates, writes atomically
};

// One searched accelerator field (ARCHITECTURE.md §6.2): the parameter registry's key of an
// AcceleratorConfig field and the space's list of its values. Everything that handles searched
// fields — validation, enumeration, the space and results JSON, the reference chip, the project
// fingerprint, the editor, the chart's records and colouring — loops over kSearchedFields, so a
// new searched dimension is one list in SearchSpace and one entry below.
struct SearchedField {
    std::string_view key;                            // "numTensorCores", "clockHz", …
    std::vector<std::int64_t> SearchSpace::*values;  // the space's list
    // PHAZE's six fields are required: every space lists values. An optional field with an empty
    // list is not searched, and results files write its value only where it differs from the
    // base's (so PHAZE's results stay as they were).
    bool optional = false;
};

// In enumeration order: the first field varies slowest. vectorCoreLanes follows
// SearchSpace::vectorLanes (tied: the chip's tensorCoreCols, its list unused).
inline constexpr SearchedField kSearchedFields[] = {
    {"numTensorCores", &SearchSpace::numTensorCores},
    {"tensorCoreRows", &SearchSpace::tensorCoreRows},
    {"tensorCoreCols", &SearchSpace::tensorCoreCols},
    {"numVectorCores", &SearchSpace::numVectorCores},
    {"vectorCoreLanes", &SearchSpace::vectorCoreLanes},
    {"globalBufferBytes", &SearchSpace::globalBufferBytes},
    {"clockHz", &SearchSpace::clockHz, true},
    {"hbmBandwidthBytesPerSecond", &SearchSpace::hbmBandwidthBytesPerSecond, true},
};

inline constexpr std::size_t kOptionalSearchedFieldCount =
    std::size_t(std::count_if(std::begin(kSearchedFields), std::end(kSearchedFields),
                              [](const SearchedField& f) { return f.optional; }));

// The parameter registry's record of a searched field (its get/set and spec), looked up once:
// the results writer and reader call it for every point.
const hardware::Parameter<hardware::AcceleratorConfig>& parameterOf(const SearchedField& field);

// The optional fields alone, in table order (the chart keeps one value of each per point).
std::span<const SearchedField* const> optionalSearchedFields();

std::string_view toString(VectorLanesRule rule);  // "tensorCoreCols", "free"

}  // namespace tandem::core::search
