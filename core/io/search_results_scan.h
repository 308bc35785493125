#pragma once
// Internal to the search-results reader (search_results_reader.h): one streaming pass over the
// text with nlohmann's SAX parser. Each points[] entry is built as a small tree, converted with
// evaluatedPointFromJson and dropped, so a 700,000-point file never exists as one JSON tree;
// the other top-level members the reader uses (kScannedKeys) are kept as trees, unknown ones
// are skipped without being stored. The scan refuses what parseJsonDocument refuses (an empty
// file, invalid JSON, nesting deeper than kMaxJsonDepth, duplicate keys, numbers no double
// holds) and a "format" of another file type, as soon as it is read.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/common/expected.h"
#include "core/search/evaluated_point.h"

namespace tandem::core::io::results_json {

inline constexpr std::string_view kFormat = "tandem-search-results";

// The top-level members kept as trees (everything the writer writes but "points").
inline constexpr const char* kScannedKeys[] = {
    "format",    "version",         "models",  "explorer",  "threads",   "base_hardware",
    "pareto",    "pareto_by_hbm",   "best",    "plans",     "baselines", "reference_in_space",
    "evaluated", "points_in_space", "skipped", "cancelled", "elapsed_s", "run",
    "objective"};

// Appends the points to `points` (file order) and sets `members` to an object holding the
// kScannedKeys present. Errors start with "<source>: ".
Status scanSearchResults(std::string_view text, std::string_view source,
                         std::vector<search::EvaluatedPoint>& points, nlohmann::json& members);

// What to say about a file whose "format" is `format` (not kFormat): which Tandem file it is.
std::string otherFormatMessage(std::string_view format);

}  // namespace tandem::core::io::results_json
