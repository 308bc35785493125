#include "core/io/schedule_json.h"

#include <map>
#include <nlohmann/json.hpp>
#include "core/common/json_document.h"

namespace tandem::core::io {

namespace {
using Json = nlohmann::ordered_json;
using schedule::Direction;

std::vector<std::size_t> selected(const model::ModelGraph& graph,
                                  const std::vector<std::size_t>& layers) {
    if (!layers.empty()) return layers;
    std::vector<std::size_t> all(graph.layers().size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
}

const std::vector<model::Operator>& operatorsOf(const model::LayerGraph& g, Direction d) {
    return d == Direction::Forward ? g.forward() : g.backward();
}

Json lanesJson(const schedule::ScheduledTask& task) {
    Json lanes = Json::array();
    for (const auto& lane : schedule::expandLanes(task.lanes)) lanes.push_back(toString(lane));
    return lanes;
}

Json directionJson(const model::LayerGraph& graph, Direction direction,
                   const schedule::LayerSchedule& s) {
    const auto& ops = operatorsOf(graph, direction);
    Json operators = Json::array();
    for (std::size_t i = 0; i < ops.size() && i < s.tasks.size(); ++i) {
        const auto& task = s.tasks[i];
        operators.push_back({{"name", ops[i].name},
                             {"class", std::string(model::toString(ops[i].opClass))},
                             {"start_s", task.startSeconds},
                             {"duration_s", task.durationSeconds},
                             {"mode", std::string(schedule::toString(task.mode))},
                             {"lanes", lanesJson(task)}});
    }
    return {{"makespan_s", s.makespanSeconds},
            {"lower_bound_s", s.lowerBoundSeconds},
            {"status", std::string(schedule::toString(s.status))},
            {"gap", s.gap},
            {"proved_by", std::string(schedule::toString(s.stats.provedBy))},
            {"operators", std::move(operators)}};
}
}  // namespace

std::string scheduleToJson(const model::ModelGraph& graph, const schedule::ModelSchedule& schedules,
                           const std::vector<std::size_t>& layers, int indent) {
    Json list = Json::array();
    for (std::size_t l : selected(graph, layers)) {
        const auto& entry = schedules.layer(l);
        list.push_back(
            {{"name", graph.layers()[l].name},
             {"forward", directionJson(*entry.graph, Direction::Forward, *entry.forward)},
             {"backward", directionJson(*entry.graph, Direction::Backward, *entry.backward)}});
    }
    return jsonText(Json{{"model", graph.name()}, {"layers", std::move(list)}}, indent);
}

std::string chromeTrace(const model::ModelGraph& graph, const schedule::ModelSchedule& schedules,
                        const std::vector<std::size_t>& layers) {
    Json events = Json::array();
    int pid = 0;
    for (std::size_t l : selected(graph, layers)) {
        const auto& entry = schedules.layer(l);
        for (Direction d : {Direction::Forward, Direction::Backward}) {
            ++pid;
            const auto& s = d == Direction::Forward ? *entry.forward : *entry.backward;
            const auto& ops = operatorsOf(*entry.graph, d);
            const std::string process =
                graph.layers()[l].name + (d == Direction::Forward ? " forward" : " backward");
            events.push_back({{"ph", "M"},
                              {"pid", pid},
                              {"name", "process_name"},
                              {"args", {{"name", process}}}});
            events.push_back({{"ph", "M"},
                              {"pid", pid},
                              {"name", "process_sort_index"},
                              {"args", {{"sort_index", pid}}}});
            // Threads: one per lane any operator starts on, numbered TCs, then VCs, then the link.
            std::map<std::pair<int, int>, int> tids;
            auto tidOf = [&](const schedule::Lane& lane) {
                const auto key = std::make_pair(int(lane.kind), lane.index);
                auto it = tids.find(key);
                if (it != tids.end()) return it->second;
                const int tid = int(lane.kind) * 1000000 + lane.index + 1;
                tids.emplace(key, tid);
                events.push_back({{"ph", "M"},
                                  {"pid", pid},
                                  {"tid", tid},
                                  {"name", "thread_name"},
                                  {"args", {{"name", toString(lane)}}}});
                return tid;
            };
            for (std::size_t i = 0; i < ops.size() && i < s.tasks.size(); ++i) {
                const auto& task = s.tasks[i];
                const auto lanes = schedule::expandLanes(task.lanes);
                const int tid = lanes.empty() ? 0 : tidOf(lanes.front());
                events.push_back({{"ph", "X"},
                                  {"pid", pid},
                                  {"tid", tid},
                                  {"name", ops[i].name},
                                  {"cat", std::string(model::toString(ops[i].opClass))},
                                  {"ts", task.startSeconds * 1e6},
                                  {"dur", task.durationSeconds * 1e6},
                                  {"args",
                                   {{"flops", ops[i].flops()},
                                    {"mode", std::string(schedule::toString(task.mode))},
                                    {"lanes", lanesJson(task)}}}});
            }
        }
    }
    return jsonText(Json{{"displayTimeUnit", "ms"}, {"traceEvents", std::move(events)}});
}

}  // namespace tandem::core::io
