#pragma once
// JSON views of a model's layer schedules. scheduleToJson is what `tandem-cli schedule --json`
// prints: {layers: [{name, forward: S, backward: S}]} with S = {makespan_s, lower_bound_s,
// status, gap, proved_by, operators: [{name, class, start_s, duration_s, mode, lanes}]}.
// chromeTrace writes the Chrome trace-event format (Perfetto, chrome://tracing): one process
// per layer direction, one thread per lane, one complete event ("ph": "X") per operator on its
// first lane, microsecond ts/dur, args with FLOPs, mode and every lane it holds.
#include <string>
#include <vector>

#include "core/model/model_graph.h"
#include "core/schedule/model_schedule.h"

namespace tandem::core::io {

// `layers` selects layer indices of `graph` to include; empty means all of them.
std::string scheduleToJson(const model::ModelGraph& graph, const schedule::ModelSchedule& schedules,
                           const std::vector<std::size_t>& layers = {}, int indent = 2);

std::string chromeTrace(const model::ModelGraph& graph, const schedule::ModelSchedule& schedules,
                        const std::vector<std::size_t>& layers = {});

}  // namespace tandem::core::io
