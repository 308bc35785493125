#pragma once
// Checks on search points read back from a results file or a shard (tandem-cli merge), so an
// edited or damaged file is refused instead of merged (ARCHITECTURE.md §4.6):
// - storedPointInconsistency: what one stored point contradicts in itself — a feasible point
//   needs a positive throughput, objective and plan shape whose time per batch gives that
//   throughput (single model: globalBatch / timePerBatch, computed as the solver does, so bit for
//   bit) and whose figures give its objective (search_objective.h); any other status carries
//   zeros; a plan uses at least one device per stage and no more
//   devices than the cluster has.
// - storedPointDifference: what differs between a stored point and the same point evaluated
//   again. Evaluations are pure functions of the point and numbers are stored in their shortest
//   round-trip form, so an unedited point re-derives bit for bit; any difference is an edit, a
//   damaged file or another Tandem version.
// Both return an empty string when there is nothing to say.
#include <cstdint>
#include <string>

#include "core/search/evaluated_point.h"
#include "core/search/search_objective.h"

namespace tandem::core::search {

std::string storedPointInconsistency(const EvaluatedPoint& point, std::int64_t globalBatch,
                                     std::int64_t clusterDevices, SearchObjective objective);

std::string storedPointDifference(const EvaluatedPoint& stored, const EvaluatedPoint& derived);

}  // namespace tandem::core::search
