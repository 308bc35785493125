// planOnnxGraph (onnx_import_state.h): everything about an imported graph that does not depend
// on the build options.
#include <onnx/defs/schema.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <unordered_set>

#include "core/importers/onnx_import_state.h"
#include "core/importers/onnx_layer_grouper.h"

namespace tandem::core::importers {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Weight totals of absurd files must not overflow; the build rejects sizes this large anyway.
std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
    return a > std::numeric_limits<std::int64_t>::max() - b
               ? std::numeric_limits<std::int64_t>::max()
               : a + b;
}

std::string normalDomain(const std::string& domain) {
    return domain == "ai.onnx" ? "" : domain;
}

std::string describe(const onnx::NodeProto& node, int index) {
    const std::string name = node.name().empty() ? "#" + std::to_string(index) : node.name();
    return "node '" + name + "' (" + (node.domain().empty() ? "" : node.domain() + ".") +
           node.op_type() + ")";
}

// Batch-like and sequence-like names of symbolic dimensions (case-insensitive).
std::optional<SymbolRole> roleOf(std::string_view symbol) {
    const std::string s = lower(symbol);
    if (s.find("batch") != std::string::npos || s == "n" || s == "b" || s == "bs" || s == "bsz")
        return SymbolRole::Batch;
    if (s.find("seq") != std::string::npos || s.find("token") != std::string::npos || s == "s" ||
        s == "l" || s == "t" || s == "len" || s == "length" || s == "time")
        return SymbolRole::Sequence;
    return std::nullopt;
}

struct PlanError {
    std::string message;
};

class Planner {
public:
    explicit Planner(const OnnxImportState& state) : state_(state), graph_(state.model.graph()) {}

    OnnxPlan run() {
        readOpsets();
        readInputs();
        const std::vector<int> order = topologicalOrder();
        plan_.order = order;
        foldStatics(order);
        planNodes(order);
        group();
        assignWeights();
        return std::move(plan_);
    }

private:
    [[noreturn]] void fail(const std::string& message) const { throw PlanError{message}; }

    void readOpsets() {
        for (const auto& opset : state_.model.opset_import())
            opsets_[normalDomain(opset.domain())] =
                int(std::clamp<std::int64_t>(opset.version(), 0, 1 << 20));
        if (!opsets_.count(""))
            fail("the model imports no opset for the default ONNX domain (opset_import)");
    }

    void readInputs() {
        for (const auto& [name, init] : state_.initializers) {
            defined_.insert(name);
            if (init.parameter && !state_.weightAliases.count(name))
                weightIds_.emplace(name, int(weightIds_.size()));
        }
        // A tied copy is the same weight as its original: one id, counted once.
        for (const auto& [copy, original] : state_.weightAliases)
            if (const auto it = weightIds_.find(original); it != weightIds_.end())
                weightIds_.emplace(copy, it->second);
        bool first = true;
        for (const onnx::ValueInfoProto& input : graph_.input()) {
            defined_.insert(input.name());
            if (state_.initializers.count(input.name())) continue;
            const std::string where = "graph input '" + input.name() + "'";
            if (!input.type().has_tensor_type())
                fail(where +
                     " is not a tensor (sequence, map and optional inputs are not supported)");
            const auto& type = input.type().tensor_type();
            if (!type.has_shape())
                fail(where +
                     " has no shape: Tandem needs its rank and dimensions (name symbolic "
                     "dimensions like 'batch' and 'sequence')");
            for (int d = 0; d < type.shape().dim_size(); ++d) {
                const auto& dim = type.shape().dim(d);
                const std::string at = where + " dimension " + std::to_string(d);
                if (dim.has_dim_value()) {
                    if (dim.dim_value() < 1)
                        fail(at + " = " + std::to_string(dim.dim_value()) + " must be >= 1");
                    if (first && d == 0) {
                        plan_.fixedBatch = dim.dim_value();
                        plan_.fixedBatchWhere = at;
                    }
                } else if (dim.has_dim_param() && !dim.dim_param().empty()) {
                    const auto role = roleOf(dim.dim_param());
                    if (!role)
                        fail(at + " is the symbolic '" + dim.dim_param() +
                             "', which Tandem cannot bind: name batch dimensions 'batch', "
                             "'batch_size', 'N' or 'B' (bound to the microbatch) and sequence "
                             "dimensions 'sequence', 'seq_len', 'tokens', 'S' or 'T' (bound to "
                             "the sequence length)");
                    plan_.symbols[dim.dim_param()] = *role;
                    (*role == SymbolRole::Batch ? plan_.symbolicBatch : plan_.symbolicSequence) =
                        true;
                } else {
                    fail(at + " is unknown (neither a number nor a symbolic name)");
                }
            }
            if (type.shape().dim_size() > 0) first = false;
        }
        if (plan_.symbolicBatch) plan_.fixedBatchWhere.clear();
    }

    std::vector<int> topologicalOrder() {
        const int n = graph_.node_size();
        if (n == 0) fail("the graph has no nodes");
        std::unordered_map<std::string, int> producer;
        for (int i = 0; i < n; ++i) {
            const onnx::NodeProto& node = graph_.node(i);
            if (node.op_type().empty()) fail(describe(node, i) + " has no op_type");
            for (const std::string& out : node.output()) {
                if (out.empty()) continue;
                if (defined_.count(out))
                    fail(describe(node, i) + " writes '" + out +
                         "', which is already a graph input or initializer");
                auto [it, inserted] = producer.emplace(out, i);
                if (!inserted)
                    fail("tensor '" + out + "' is written by both " +
                         describe(graph_.node(it->second), it->second) + " and " +
                         describe(node, i));
            }
        }
        preds_.assign(std::size_t(n), {});
        std::vector<std::vector<int>> succ(static_cast<std::size_t>(n));
        std::vector<int> indegree(std::size_t(n), 0);
        for (int i = 0; i < n; ++i) {
            std::set<int> from;
            for (const std::string& in : graph_.node(i).input()) {
                if (in.empty() || defined_.count(in)) continue;
                const auto it = producer.find(in);
                if (it == producer.end())
                    fail(describe(graph_.node(i), i) + " reads '" + in +
                         "', which no node, initializer or graph input produces");
                from.insert(it->second);
            }
            for (int p : from) {
                succ[std::size_t(p)].push_back(i);
                ++indegree[std::size_t(i)];
            }
            preds_[std::size_t(i)].assign(from.begin(), from.end());
        }
        std::priority_queue<int, std::vector<int>, std::greater<>> ready;
        for (int i = 0; i < n; ++i)
            if (indegree[std::size_t(i)] == 0) ready.push(i);
        std::vector<int> order;
        while (!ready.empty()) {
            const int i = ready.top();
            ready.pop();
            order.push_back(i);
            for (int s : succ[std::size_t(i)])
                if (--indegree[std::size_t(s)] == 0) ready.push(s);
        }
        if (int(order.size()) < n) {
            std::string cycle;
            int listed = 0;
            for (int i = 0; i < n && listed < 5; ++i)
                if (indegree[std::size_t(i)] > 0) {
                    cycle += (listed++ ? ", " : "") + describe(graph_.node(i), i);
                }
            fail("the graph has a cycle (ONNX graphs must be acyclic); nodes on or after it: " +
                 cycle);
        }
        for (const onnx::ValueInfoProto& out : graph_.output())
            if (!defined_.count(out.name()) && !producer.count(out.name()))
                fail("graph output '" + out.name() + "' is not produced by any node");
        return order;
    }

    // Static values: initializers, Constant/Shape/Size outputs, and whatever only they feed.
    void foldStatics(const std::vector<int>& order) {
        for (const auto& [name, id] : weightIds_) weightsOf_[name] = {id};
        for (const auto& [name, init] : state_.initializers) staticTensors_.insert(name);
        isStatic_.assign(std::size_t(graph_.node_size()), false);
        for (int i : order) {
            const onnx::NodeProto& node = graph_.node(i);
            const OnnxOpInfo* info = findOnnxOp(node.domain(), node.op_type());
            bool folded = info && info->kind == OnnxOpKind::Static;
            if (!folded) {
                folded = true;
                for (const std::string& in : node.input())
                    if (!in.empty() && !staticTensors_.count(in)) folded = false;
            }
            if (!folded) continue;
            isStatic_[std::size_t(i)] = true;
            ++plan_.foldedNodes;
            std::set<int> weights;
            for (const std::string& in : node.input()) {
                const auto it = weightsOf_.find(in);
                if (it != weightsOf_.end()) weights.insert(it->second.begin(), it->second.end());
            }
            for (const std::string& out : node.output()) {
                if (out.empty()) continue;
                staticTensors_.insert(out);
                if (!weights.empty()) weightsOf_[out] = weights;
            }
        }
    }

    void planNodes(const std::vector<int>& order) {
        std::map<std::string, std::pair<int, std::string>> unknown;  // op → (count, first node)
        std::vector<int> plannedIndex(std::size_t(graph_.node_size()), -1);
        for (int i : order) {
            if (isStatic_[std::size_t(i)]) continue;
            const onnx::NodeProto& node = graph_.node(i);
            OnnxPlannedNode planned;
            planned.node = i;
            planned.info = findOnnxOp(node.domain(), node.op_type());
            verifySchema(node, i);
            if (!planned.info) {
                auto& entry =
                    unknown[(node.domain().empty() ? "" : node.domain() + ".") + node.op_type()];
                if (entry.first++ == 0) entry.second = node.name();
            }
            for (const std::string& in : node.input()) {
                const bool isStatic = in.empty() || staticTensors_.count(in) > 0;
                planned.staticInput.push_back(isStatic);
                planned.weightInput.push_back(weightsOf_.count(in) > 0);
                const auto it = producerIndex_.find(in);
                planned.producers.push_back(isStatic || it == producerIndex_.end() ? -1
                                                                                   : it->second);
            }
            plannedIndex[std::size_t(i)] = int(plan_.nodes.size());
            for (const std::string& out : node.output())
                if (!out.empty()) producerIndex_[out] = int(plan_.nodes.size());
            plan_.nodes.push_back(std::move(planned));
        }
        if (plan_.nodes.empty())
            fail("every node computes a constant; there is nothing to estimate");
        for (const auto& [op, entry] : unknown)
            plan_.unknownOperators.push_back(textExcerpt(op, kOperatorChars) + " x" +
                                             std::to_string(entry.first) + " (first: '" +
                                             textExcerpt(entry.second, kOperatorChars) + "')");
    }

    void verifySchema(const onnx::NodeProto& node, int index) const {
        const std::string domain = normalDomain(node.domain());
        const auto opset = opsets_.find(domain);
        if (opset == opsets_.end()) return;  // a custom domain without an import: unknown op
        const onnx::OpSchema* schema =
            onnx::OpSchemaRegistry::Schema(node.op_type(), opset->second, domain);
        if (!schema) return;
        try {
            schema->Verify(node);
        } catch (const std::exception& e) {
            fail(describe(node, index) + " does not match its ONNX schema: " + e.what());
        }
    }

    void group() {
        std::vector<std::string> names;
        std::vector<std::vector<int>> preds;
        for (const OnnxPlannedNode& p : plan_.nodes) {
            names.push_back(graph_.node(p.node).name());
            std::set<int> from;
            for (int producer : p.producers)
                if (producer >= 0) from.insert(producer);
            preds.emplace_back(from.begin(), from.end());
        }
        LayerGrouping grouping = groupOnnxLayers(names, preds, graph_.name());
        for (GroupedLayer& g : grouping.layers) {
            OnnxPlannedLayer layer{std::move(g.name), std::move(g.kind), std::move(g.members)};
            std::set<std::string> used;
            for (int member : layer.nodes) {
                OnnxPlannedNode& p = plan_.nodes[std::size_t(member)];
                p.layer = int(plan_.layers.size());
                const onnx::NodeProto& node = graph_.node(p.node);
                std::string name = node.name();
                if (!g.prefix.empty() && name.compare(0, g.prefix.size(), g.prefix) == 0)
                    name = name.substr(g.prefix.size());
                const std::size_t start = name.find_first_not_of("/._");
                name = start == std::string::npos ? "" : name.substr(start);
                if (name.empty()) name = node.op_type();
                std::string unique = name;
                for (int k = 2; !used.insert(unique).second; ++k)
                    unique = name + "#" + std::to_string(k);
                p.name = unique;
            }
            plan_.layers.push_back(std::move(layer));
        }
    }

    // The first operator (in topological order) that uses a weight owns it; other layers that
    // use it again (tied embeddings) hold a copy, counted once in the model's totals.
    void assignWeights() {
        std::unordered_map<int, int> ownerLayer;
        std::set<std::pair<int, int>> tiedIn;  // (layer, weight)
        std::vector<std::int64_t> elements(weightIds_.size(), 0);
        for (const auto& [name, id] : weightIds_)
            elements[std::size_t(id)] = state_.initializers.at(name).elements;
        for (OnnxPlannedNode& p : plan_.nodes) {
            const onnx::NodeProto& node = graph_.node(p.node);
            std::set<int> used;
            for (const std::string& in : node.input()) {
                const auto it = weightsOf_.find(in);
                if (it != weightsOf_.end()) used.insert(it->second.begin(), it->second.end());
            }
            for (int w : used) {
                const auto [it, first] = ownerLayer.emplace(w, p.layer);
                if (first)
                    p.ownedParameterElements =
                        saturatingAdd(p.ownedParameterElements, elements[std::size_t(w)]);
                else if (it->second != p.layer && tiedIn.emplace(p.layer, w).second)
                    p.tiedParameterElements =
                        saturatingAdd(p.tiedParameterElements, elements[std::size_t(w)]);
            }
        }
    }

    const OnnxImportState& state_;
    const onnx::GraphProto& graph_;
    OnnxPlan plan_;
    std::map<std::string, int> opsets_;
    std::unordered_set<std::string> defined_;  // graph inputs and initializers
    std::map<std::string, int> weightIds_;     // ordered: deterministic ids
    std::unordered_map<std::string, std::set<int>> weightsOf_;
    std::unordered_set<std::string> staticTensors_;
    std::vector<bool> isStatic_;
    std::vector<std::vector<int>> preds_;
    std::unordered_map<std::string, int> producerIndex_;  // tensor → planned node
};

}  // namespace

Expected<OnnxPlan> planOnnxGraph(const OnnxImportState& state) {
    try {
        return Planner(state).run();
    } catch (const PlanError& e) {
        return Error{state.sourceName + ": " + e.message};
    } catch (const std::exception& e) {
        return Error{state.sourceName + ": cannot analyse the ONNX graph: " + e.what()};
    }
}

}  // namespace tandem::core::importers
