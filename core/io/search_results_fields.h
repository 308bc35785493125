#pragma once
// Internal to the search-results reader (search_results_reader.h): the typed readers that turn
// the small JSON trees of a results file — one points[] entry at a time, a plan, a model's
// baselines — into core values. Every failure throws ReadError with the source, the place and
// what was expected ("results.json: points[12].microbatch: expected an integer, found string
// \"two\""); parseSearchReportJson catches it, so nothing throws past core/io.
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/placement/plan.h"
#include "core/search/evaluated_point.h"
#include "core/search/search_baselines.h"

namespace tandem::core::io::results_json {

inline constexpr std::int64_t kMinInteger = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kMaxInteger = std::numeric_limits<std::int64_t>::max();
inline constexpr double kLowestNumber = std::numeric_limits<double>::lowest();

struct ReadError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `where` is the place of the object ("results.json: points[3]"); a missing member is an error.
const nlohmann::json& member(const nlohmann::json& object, std::string_view key,
                             const std::string& where);
void requireObject(const nlohmann::json& value, const std::string& where);
void requireArray(const nlohmann::json& value, const std::string& where);

// Values at `where` (the place of the value itself). Integers accept any integral JSON number
// in [min, max]; numbers are finite (JSON has no NaN or infinity) and at least `min`.
std::int64_t integerValue(const nlohmann::json& value, const std::string& where,
                          std::int64_t min = kMinInteger, std::int64_t max = kMaxInteger);
double numberValue(const nlohmann::json& value, const std::string& where,
                   double min = kLowestNumber);
bool booleanValue(const nlohmann::json& value, const std::string& where);
std::string stringValue(const nlohmann::json& value, const std::string& where);

// The same for a member `key` of `object`.
std::int64_t integer(const nlohmann::json& object, std::string_view key, const std::string& where,
                     std::int64_t min = kMinInteger, std::int64_t max = kMaxInteger);
double number(const nlohmann::json& object, std::string_view key, const std::string& where,
              double min = kLowestNumber);
bool boolean(const nlohmann::json& object, std::string_view key, const std::string& where);
std::string string(const nlohmann::json& object, std::string_view key, const std::string& where);

// One model's layer names, rebuilt from the names its plans give (search_results_reader.h):
// a name gets the next index the first time it is seen; a number is an index as it stands.
class LayerNames {
public:
    int indexOf(const nlohmann::json& entry, const std::string& where);
    const std::vector<std::string>& names() const { return names_; }

private:
    std::vector<std::string> names_;
    std::unordered_map<std::string, int> index_;
};

// A point as the writer's point fields give it ("hardware", "area_mm2", "microbatch",
// "recompute", "hbm_bytes", optionally "index" and "chip_index"): the searched accelerator
// fields and the HBM capacity are set, the others keep their defaults for the caller to fill
// from "base_hardware"; index and chipIndex are −1 unless the point carries them.
search::SearchPoint searchPointFromJson(const nlohmann::json& object, const std::string& where);

// A points[] entry. `objective` is NaN unless the entry has "objective" (multi-model).
search::EvaluatedPoint evaluatedPointFromJson(const nlohmann::json& object,
                                              const std::string& where);

// A plan in placement_json's form; JSON null gives a null pointer.
std::shared_ptr<const placement::Plan> planFromJson(const nlohmann::json& value,
                                                    const std::string& where, LayerNames& layers);

// The outcomes of `b` in baselineKey order (0 referenceFixed … 7 sameHbm), writable.
std::array<search::BaselineOutcome*, search::kBaselineCount> outcomesOf(search::SearchBaselines& b);

// One model's "baselines" object: every outcome of baselineKey(0 … kBaselineCount − 1). Points
// are as searchPointFromJson reads them; referenceInSpace and partial are left to the caller.
search::SearchBaselines baselinesFromJson(const nlohmann::json& object, const std::string& where,
                                          LayerNames& layers);

}  // namespace tandem::core::io::results_json
