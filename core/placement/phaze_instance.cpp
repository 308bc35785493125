#include "core/placement/phaze_instance.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/common/json_document.h"
#include "core/common/text_file.h"

namespace tandem::core::placement {
namespace {

using nlohmann::json;

// Reads one PHAZE file; every accessor returns false after recording the first error.
class Reader {
public:
    explicit Reader(std::string source) : source_(std::move(source)) {}
    bool failed() const { return !error_.empty(); }
    const std::string& error() const { return error_; }

    bool fail(const std::string& where, const std::string& what) {
        if (error_.empty()) error_ = source_ + ": " + where + ": " + what;
        return false;
    }
    const json* member(const json& object, const std::string& key, const std::string& where) {
        if (!object.is_object()) {
            fail(where, "expected a JSON object, found " + std::string(object.type_name()));
            return nullptr;
        }
        const auto it = object.find(key);
        if (it == object.end()) {
            fail(where + key, "missing required key");
            return nullptr;
        }
        return &*it;
    }
    // Bounded above as well, so that sums and products over the largest allowed instance stay
    // finite (a latency of 1e308 s would make every total infinite).
    bool number(const json& object, const std::string& key, const std::string& where, double& out,
                double minimum, double maximum) {
        const json* v = member(object, key, where);
        if (!v) return false;
        if (!v->is_number()) return fail(where + key, "expected a number, found " + describe(*v));
        out = v->get<double>();
        if (!std::isfinite(out) || out < minimum || out > maximum)
            return fail(where + key, "value " + describe(*v) +
                                         " out of range; allowed: a finite number in [" +
                                         shortNumber(minimum) + ", " + shortNumber(maximum) + "]");
        return true;
    }
    bool integer(const json& object, const std::string& key, const std::string& where,
                 std::int64_t& out, std::int64_t minimum, std::int64_t maximum) {
        const json* v = member(object, key, where);
        if (!v) return false;
        if (!asInteger(*v, out))
            return fail(where + key, "expected an integer, found " + describe(*v));
        if (out < minimum || out > maximum)
            return fail(where + key, "value " + std::to_string(out) + " out of range; allowed: " +
                                         std::to_string(minimum) + ".." + std::to_string(maximum));
        return true;
    }
    bool boolean(const json& object, const std::string& key, const std::string& where, bool& out) {
        const json* v = member(object, key, where);
        if (!v) return false;
        if (!v->is_boolean())
            return fail(where + key, "expected true or false, found " + describe(*v));
        out = v->get<bool>();
        return true;
    }
    static bool asInteger(const json& v, std::int64_t& out) {
        if (v.is_number_integer()) {
            if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
                return false;
            out = v.get<std::int64_t>();
            return true;
        }
        if (v.is_number_float()) {
            const double x = v.get<double>();
            if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9.0e15) {
                out = std::int64_t(x);
                return true;
            }
        }
        return false;
    }
    static std::string describe(const json& v) {
        return jsonExcerpt(v) + " (" + v.type_name() + ")";
    }
    static std::string shortNumber(double v) {
        std::ostringstream out;
        out << v;
        return out.str();
    }

private:
    std::string source_;
    std::string error_;
};

// Upper bounds of the instance's numbers: an exabyte for sizes and memory, about 32 years for a
// layer's latency. Far beyond any real instance, low enough that every total stays finite.
constexpr double kMaxBytes = 1e18;
constexpr double kMaxSeconds = 1e9;

struct RawNode {
    std::int64_t id = 0;
    LayerCost cost;
};

bool readWidth(Reader& r, const json& nodes, const json& edges, std::int64_t t,
               const std::string& key, std::vector<RawNode>& outNodes,
               std::vector<std::pair<std::int64_t, std::int64_t>>& outPairs,
               std::vector<double>& outBytes) {
    const std::string where = "nodes[\"" + key + "\"]";
    if (!nodes.is_array())
        return r.fail(where, "expected a list of nodes, found " + Reader::describe(nodes));
    std::set<std::int64_t> ids;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string at = where + "[" + std::to_string(i) + "].";
        RawNode node;
        double p = 0, a = 0, fw = 0, bw = 0;
        bool tp = false;
        if (!r.integer(nodes[i], "id", at, node.id, INT64_MIN / 2, INT64_MAX / 2) ||
            !r.number(nodes[i], "parameterSize", at, p, 0, kMaxBytes) ||
            !r.number(nodes[i], "activationSize", at, a, 0, kMaxBytes) ||
            !r.number(nodes[i], "optimalLatencyFw", at, fw, 0, kMaxSeconds) ||
            !r.number(nodes[i], "optimalLatencyBw", at, bw, 0, kMaxSeconds) ||
            !r.boolean(nodes[i], "isTensorParallelized", at, tp))
            return false;
        if (!ids.insert(node.id).second)
            return r.fail(at + "id", "duplicate node id " + std::to_string(node.id));
        if (tp && t == 1)
            return r.fail(at + "isTensorParallelized",
                          "true in the width-1 graph; allowed: false (PHAZE rejects it)");
        node.cost = LayerCost{std::to_string(node.id), fw, bw, p, a, 0.0, tp};
        outNodes.push_back(node);
    }
    const std::string ewhere = "edges[\"" + key + "\"]";
    if (!edges.is_array())
        return r.fail(ewhere, "expected a list of edges, found " + Reader::describe(edges));
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const std::string at = ewhere + "[" + std::to_string(i) + "].";
        std::int64_t from = 0, to = 0;
        double bytes = 0;
        if (!r.integer(edges[i], "sourceId", at, from, INT64_MIN / 2, INT64_MAX / 2) ||
            !r.integer(edges[i], "destId", at, to, INT64_MIN / 2, INT64_MAX / 2) ||
            !r.number(edges[i], "communicationCost", at, bytes, 0, kMaxBytes))
            return false;
        if (!ids.count(from))
            return r.fail(at + "sourceId", "unknown node id " + std::to_string(from));
        if (!ids.count(to)) return r.fail(at + "destId", "unknown node id " + std::to_string(to));
        if (from == to) return r.fail(at + "destId", "self-loop on node " + std::to_string(to));
        if (!seen.insert({from, to}).second)
            return r.fail(at + "destId", "parallel edge " + std::to_string(from) + " -> " +
                                             std::to_string(to) + " (PHAZE rejects them)");
        outPairs.push_back({from, to});
        outBytes.push_back(bytes);
    }
    return true;
}

}  // namespace

Expected<PhazeInstance> parsePhazeInstance(const std::string& text, const std::string& source) {
    auto parsed = parseJsonDocument(text, source, "a PHAZE DP instance (a JSON object)");
    if (!parsed) return Error{parsed.error()};
    const json& root = *parsed;
    Reader r(source);
    PhazeInstance instance;
    PlacementProblem& problem = instance.problem;
    double memory = 0, bandwidth = 0;
    std::int64_t devices = 0, microbatches = 0;
    bool recompute = false;
    if (!r.number(root, "maxMemoryPerDevice", "", memory, 1e-9, kMaxBytes) ||
        !r.integer(root, "maxDevices", "", devices, 1, 10000) ||
        !r.number(root, "bandwidth", "", bandwidth, 1e-9, kMaxBytes) ||
        !r.integer(root, "mbsInBatch", "", microbatches, 1, INT64_MAX / 4) ||
        !r.boolean(root, "activationRecomputation", "", recompute) ||
        !r.integer(root, "fixedPP", "", instance.fixed.pipelineStages, INT64_MIN / 4,
                   INT64_MAX / 4) ||
        !r.integer(root, "fixedTMPC", "", instance.fixed.tensorParallel, INT64_MIN / 4,
                   INT64_MAX / 4) ||
        !r.integer(root, "fixedDP", "", instance.fixed.dataParallel, INT64_MIN / 4,
                   INT64_MAX / 4) ||
        !r.integer(root, "numTransformerLayers", "", instance.fixed.transformerLayers,
                   INT64_MIN / 4, INT64_MAX / 4))
        return Error{r.error()};
    const json* optimizer = r.member(root, "optimizerAlgorithm", "");
    if (!optimizer) return Error{r.error()};
    if (!optimizer->is_string() || (*optimizer != "SGD" && *optimizer != "Adam"))
        return Error{source + ": optimizerAlgorithm: value " + Reader::describe(*optimizer) +
                     " not allowed; allowed: \"SGD\" or \"Adam\""};
    const json* nodes = r.member(root, "nodes", "");
    const json* edges = nodes ? r.member(root, "edges", "") : nullptr;
    if (!nodes || !edges) return Error{r.error()};
    if (!nodes->is_object() || nodes->empty())
        return Error{source +
                     ": nodes: expected an object keyed by tensor-parallel width with at "
                     "least one width, found " +
                     Reader::describe(*nodes)};
    if (!edges->is_object())
        return Error{source + ": edges: expected an object keyed by tensor-parallel width, found " +
                     Reader::describe(*edges)};

    std::map<std::int64_t, std::string> widthKeys;  // numeric order
    for (const auto& [key, value] : nodes->items()) {
        std::int64_t t = 0;
        std::size_t used = 0;
        try {
            t = std::stoll(key, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != key.size() || key.empty() || t < 1 || t > 10000)
            return Error{source + ": nodes: width key \"" + key +
                         "\" is not an integer in 1..10000"};
        widthKeys[t] = key;
        if (!edges->contains(key))
            return Error{source + ": edges[\"" + key + "\"]: missing (nodes lists width " + key +
                         ")"};
    }
    for (const auto& [key, value] : edges->items())
        if (!nodes->contains(key))
            return Error{source + ": edges[\"" + key + "\"]: width " + key + " has no nodes"};

    std::map<std::int64_t, std::size_t> indexOfId;
    for (const auto& [t, key] : widthKeys) {
        std::vector<RawNode> raw;
        std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
        std::vector<double> bytes;
        if (!readWidth(r, (*nodes)[key], (*edges)[key], t, key, raw, pairs, bytes))
            return Error{r.error()};
        LayerCostSet set;
        set.tensorParallel = t;
        std::vector<int> listed;
        if (indexOfId.empty()) {  // the smallest width fixes the layer order
            for (const RawNode& node : raw) {
                indexOfId[node.id] = instance.nodeIds.size();
                instance.nodeIds.push_back(node.id);
            }
        }
        if (raw.size() != instance.nodeIds.size())
            return Error{source + ": nodes[\"" + key + "\"]: " + std::to_string(raw.size()) +
                         " nodes, but the smallest width has " +
                         std::to_string(instance.nodeIds.size()) + "; node ids must match"};
        set.layers.resize(raw.size());
        for (const RawNode& node : raw) {
            const auto it = indexOfId.find(node.id);
            if (it == indexOfId.end())
                return Error{source + ": nodes[\"" + key + "\"]: node id " +
                             std::to_string(node.id) + " is not in the smallest width's graph"};
            set.layers[it->second] = node.cost;
            listed.push_back(int(it->second));
        }
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            const int from = int(indexOfId[pairs[k].first]), to = int(indexOfId[pairs[k].second]);
            set.edges.push_back({from, to, bytes[k]});
            set.layers[std::size_t(to)].stashBytesRecompute += bytes[k];
        }
        if (t == instance.fixed.tensorParallel) instance.fixed.sourceOrder = listed;
        problem.widths.push_back(std::move(set));
    }

    problem.cluster.devices = devices;
    problem.cluster.devicesPerNode = devices;
    problem.cluster.intraNodeBandwidthBytesPerSecond = bandwidth;
    problem.cluster.interNodeBandwidthBytesPerSecond = bandwidth;
    problem.cluster.hopLatencySeconds = 0;
    problem.training.globalBatch = microbatches;
    problem.training.microbatch = 1;
    problem.training.recompute = recompute ? hardware::Recompute::On : hardware::Recompute::Off;
    problem.training.optimizer =
        *optimizer == "Adam" ? hardware::Optimizer::Adam : hardware::Optimizer::Sgd;
    problem.hbmCapacityBytes = memory;
    if (Status status = problem.validate(); !status)
        return Error{source + ": " + status.message() + " (layer names are PHAZE node ids)"};
    return instance;
}

Expected<PhazeInstance> loadPhazeInstance(const std::string& path) {
    // The same checked reader as every other format: a regular file of at most 64 MiB (PHAZE's
    // own instances are tens of KiB), so /dev/zero, a FIFO or a sparse 10 GB file is refused.
    auto text = readTextFile(path);
    if (!text) return Error{text.error()};
    return parsePhazeInstance(*text, path);
}

Expected<PhazeOutput> solvePhazeInstance(const PhazeInstance& instance, RunControl* control) {
    const auto started = std::chrono::steady_clock::now();
    PhazeOutput output;
    SolverOptions options;
    options.costModel = CostModelKind::PhazeCompat;
    auto placement = PlacementSolver(options).solve(instance.problem, control);
    if (!placement) return placement.error();
    output.placement = std::move(*placement);
    auto fixed =
        evaluateFixedStrategy(instance.problem, instance.fixed, CostModelKind::PhazeCompat);
    if (!fixed) return fixed.error();
    output.fixed = std::move(*fixed);
    output.solveSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return output;
}

std::string formatPhazeOutput(const PhazeInstance& instance, const PhazeOutput& output) {
    json out = json::object();
    const auto& plan = output.placement.plan;
    out["dataParallelDegree"] = plan ? json(plan->dataParallel) : json(nullptr);
    out["finalTimePerBatch"] = plan ? json(plan->timePerBatchSeconds) : json(nullptr);
    out["tensorParallelDegree"] = plan ? json(plan->tensorParallel) : json(nullptr);
    out["fixedStrategyTimePerBatch"] =
        output.fixed.fits ? json(output.fixed.plan->timePerBatchSeconds) : json(nullptr);
    if (!output.fixed.fits) out["fixedStrategyError"] = output.fixed.reason;
    if (!plan) out["infeasibleReason"] = output.placement.infeasibleReason;
    json stages = json::array();
    if (plan)
        for (const StagePlan& stage : plan->stages) {
            json ids = json::array();
            for (int layer : stage.layers) ids.push_back(instance.nodeIds[std::size_t(layer)]);
            stages.push_back(json{{"devicesForStage", stage.devices}, {"nodes", ids}});
        }
    out["stages"] = stages;
    out["solve_seconds"] = output.solveSeconds;
    return jsonText(out, 4);
}

}  // namespace tandem::core::placement
