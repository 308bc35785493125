#include "core/model/layer_graph.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <unordered_set>
#include <utility>

namespace tandem::core::model {

namespace {

std::string quoted(const Operator& op, std::size_t index) {
    return "operator '" + op.name + "' (index " + std::to_string(index) + ")";
}

// The backward rules that make sense for each operator class.
bool ruleFitsClass(OpClass c, BackwardRule r) {
    switch (c) {
        case OpClass::TensorCore:
            return r == BackwardRule::WeightGemm || r == BackwardRule::ActivationGemm ||
                   r == BackwardRule::None;
        case OpClass::Fused:
            return r == BackwardRule::WeightGemm || r == BackwardRule::ActivationGemm ||
                   r == BackwardRule::FusedAttention || r == BackwardRule::None;
        case OpClass::VectorCore:
            return r == BackwardRule::Elementwise || r == BackwardRule::None;
        case OpClass::Collective:
            return r == BackwardRule::NoneAfterAllReduce ||
                   r == BackwardRule::TransposedCollective || r == BackwardRule::None;
        case OpClass::Nop:
            return r == BackwardRule::AllReduceInBackward || r == BackwardRule::None;
    }
    return false;
}

std::string checkFields(const Operator& op, std::size_t index) {
    const std::pair<const char*, std::int64_t> sizes[] = {
        {"batch", op.gemm.batch},
        {"m", op.gemm.m},
        {"n", op.gemm.n},
        {"k", op.gemm.k},
        {"elements", op.elements},
        {"streamedTensors", op.streamedTensors},
        {"backwardStreamedTensors", op.backwardStreamedTensors},
        {"collectiveBytes", op.collectiveBytes},
        {"parameterBytes", op.parameterBytes},
        {"tiedParameterBytes", op.tiedParameterBytes},
        {"outputBytes", op.outputBytes},
        {"savedBytes", op.savedBytes},
        {"discardedBytes", op.discardedBytes},
        {"streamedBytes", op.streamedBytes},
    };
    for (const auto& [field, value] : sizes) {
        if (value < 0) {
            return quoted(op, index) + ": " + field + " = " + std::to_string(value) +
                   " is negative; sizes must be >= 0";
        }
    }
    if (op.groupSize < 1) {
        return quoted(op, index) + ": groupSize = " + std::to_string(op.groupSize) +
               " must be >= 1";
    }
    if (op.discardedBytes > op.savedBytes) {
        return quoted(op, index) + ": discardedBytes = " + std::to_string(op.discardedBytes) +
               " exceeds savedBytes = " + std::to_string(op.savedBytes) +
               "; selective recomputation can only drop what the operator keeps";
    }
    if (op.backwardRule == BackwardRule::TransposedCollective &&
        op.collective == CollectiveKind::AllReduce) {
        return quoted(op, index) +
               ": backward rule 'transposed_collective' needs collective 'all_gather' or "
               "'reduce_scatter' (an all-reduce has no transpose)";
    }
    const std::pair<const char*, double> cycles[] = {
        {"cyclesPerElement", op.cyclesPerElement},
        {"backwardCyclesPerElement", op.backwardCyclesPerElement},
    };
    for (const auto& [field, value] : cycles) {
        if (!std::isfinite(value) || value < 0) {
            return quoted(op, index) + ": " + field + " = " + std::to_string(value) +
                   " must be a finite number >= 0";
        }
    }
    if (!ruleFitsClass(op.opClass, op.backwardRule)) {
        return quoted(op, index) + ": backward rule '" + std::string(toString(op.backwardRule)) +
               "' does not apply to class '" + std::string(toString(op.opClass)) +
               "' (tensor_core/fused: weight_gemm, activation_gemm, none; vector_core: "
               "elementwise, none; collective: none_after_all_reduce, transposed_collective, "
               "none; nop: all_reduce_in_backward, none)";
    }
    return {};
}

bool addChecked(std::int64_t& sum, std::int64_t x) {
    return !__builtin_add_overflow(sum, x, &sum);
}

void appendField(std::string& out, std::string_view text) {
    out += std::to_string(text.size());
    out += ':';
    out += text;
}
void appendField(std::string& out, std::int64_t value) {
    out += std::to_string(value);
    out += ',';
}
void appendField(std::string& out, double value) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
    out += ',';
}

std::string makeSignature(const std::string& kind, const std::vector<Operator>& ops) {
    std::string s;
    appendField(s, kind);
    for (const Operator& op : ops) {
        s += '{';
        appendField(s, op.name);
        appendField(s, op.kind);
        appendField(s, toString(op.opClass));
        appendField(s, toString(op.backwardRule));
        for (std::int64_t v :
             {op.gemm.batch, op.gemm.m, op.gemm.n, op.gemm.k, op.elements, op.streamedTensors,
              op.backwardStreamedTensors, op.collectiveBytes, op.groupSize, op.parameterBytes,
              op.tiedParameterBytes, op.outputBytes, op.savedBytes, std::int64_t(op.sharded),
              std::int64_t(op.collective), op.discardedBytes, std::int64_t(op.selectiveRecompute)})
            appendField(s, v);
        appendField(s, op.cyclesPerElement);
        appendField(s, op.backwardCyclesPerElement);
        for (int input : op.inputs) appendField(s, std::int64_t(input));
        s += '}';
    }
    return s;
}

// A backward operator that inherits identity and sharding from its forward operator.
Operator backwardOp(const Operator& fwd, int forwardIndex, std::string suffix, OpClass c) {
    Operator op;
    op.name = "bwd." + fwd.name + suffix;
    op.kind = fwd.kind;
    op.opClass = c;
    op.sharded = fwd.sharded;
    op.forwardIndex = forwardIndex;
    return op;
}

}  // namespace

std::string validateOperatorDag(const std::vector<Operator>& ops) {
    const int n = int(ops.size());
    std::vector<int> pending(ops.size(), 0);
    std::vector<std::vector<int>> consumers(ops.size());
    for (int i = 0; i < n; ++i) {
        std::unordered_set<int> seen;
        for (int input : ops[i].inputs) {
            if (input < 0 || input >= n) {
                return quoted(ops[i], i) + " has input index " + std::to_string(input) +
                       ", allowed 0.." + std::to_string(n - 1);
            }
            if (input == i) return quoted(ops[i], i) + " lists itself as an input";
            if (!seen.insert(input).second) {
                return quoted(ops[i], i) + " lists input " + std::to_string(input) + " twice";
            }
            consumers[input].push_back(i);
        }
        pending[i] = int(ops[i].inputs.size());
    }
    std::vector<int> ready;
    for (int i = 0; i < n; ++i)
        if (pending[i] == 0) ready.push_back(i);
    int done = 0;
    while (!ready.empty()) {
        const int u = ready.back();
        ready.pop_back();
        ++done;
        for (int v : consumers[u])
            if (--pending[v] == 0) ready.push_back(v);
    }
    if (done == n) return {};
    // Every operator left over still waits for an input that is also left over, so following
    // such inputs must come back to an operator already visited: that one lies on a cycle.
    int at = 0;
    while (pending[at] == 0) ++at;
    std::vector<int> visitOrder(ops.size(), -1);
    std::vector<int> path;
    while (visitOrder[at] < 0) {
        visitOrder[at] = int(path.size());
        path.push_back(at);
        for (int input : ops[at].inputs) {
            if (pending[input] > 0) {
                at = input;
                break;
            }
        }
    }
    std::string cycle;
    for (std::size_t i = std::size_t(visitOrder[at]); i < path.size(); ++i)
        cycle += "'" + ops[path[i]].name + "' <- ";
    cycle += "'" + ops[at].name + "'";
    return "operators form a cycle: " + cycle;
}

// The all-gather of Megatron's sequence-parallel f that feeds `op`, if any.
static const Operator* gatheredInput(const std::vector<Operator>& forward, const Operator& op) {
    for (int input : op.inputs) {
        const Operator& in = forward[std::size_t(input)];
        if (in.opClass == OpClass::Collective && in.collective == CollectiveKind::AllGather &&
            in.backwardRule == BackwardRule::TransposedCollective)
            return &in;
    }
    return nullptr;
}

std::vector<Operator> deriveBackward(const std::vector<Operator>& forward) {
    const std::size_t n = forward.size();
    std::vector<std::vector<int>> consumers(n);
    for (std::size_t v = 0; v < n; ++v)
        for (int u : forward[v].inputs) consumers[std::size_t(u)].push_back(int(v));

    std::vector<Operator> backward;
    std::vector<std::vector<int>> exits(n);  // backward ops that produce the input gradients
    for (std::size_t i = n; i-- > 0;) {
        const Operator& fwd = forward[i];
        const int fi = int(i);
        std::set<int> predecessorSet;
        for (int v : consumers[i])
            predecessorSet.insert(exits[std::size_t(v)].begin(), exits[std::size_t(v)].end());
        std::vector<int> predecessors(predecessorSet.begin(), predecessorSet.end());
        auto emit = [&](Operator op, const std::vector<int>& inputs, bool isExit) {
            op.inputs = inputs;
            backward.push_back(std::move(op));
            if (isExit) exits[i].push_back(int(backward.size()) - 1);
            return int(backward.size()) - 1;
        };

        const bool gemmRule = fwd.backwardRule == BackwardRule::WeightGemm ||
                              fwd.backwardRule == BackwardRule::ActivationGemm;
        if (fwd.isGemm() && gemmRule) {
            std::vector<int> gemmInputs = predecessors;
            if (fwd.opClass == OpClass::Fused) {
                Operator epilogue = backwardOp(fwd, fi, ".epilogue", OpClass::VectorCore);
                epilogue.elements = fwd.elements;
                epilogue.cyclesPerElement = fwd.backwardCyclesPerElement;
                epilogue.streamedTensors = fwd.backwardStreamedTensors;
                gemmInputs = {emit(std::move(epilogue), predecessors, false)};
            }
            const bool weights = fwd.backwardRule == BackwardRule::WeightGemm;
            const GemmShape& g = fwd.gemm;
            // Input gradient: dY (m×n) · Wᵀ (n×k) → m×k, reduction over n.
            Operator first = backwardOp(fwd, fi, weights ? ".dX" : ".dA", OpClass::TensorCore);
            first.gemm = GemmShape{g.batch, g.m, g.k, g.n};
            // Weight (or second operand) gradient: Xᵀ (k×m) · dY (m×n) → k×n, reduction over m.
            Operator second = backwardOp(fwd, fi, weights ? ".dW" : ".dB", OpClass::TensorCore);
            second.gemm = GemmShape{g.batch, g.k, g.n, g.m};
            emit(std::move(first), gemmInputs, true);
            std::vector<int> secondInputs = gemmInputs;
            // Sequence parallelism keeps only this rank's shard of a gathered input: the weight
            // gradient needs it gathered again (Megatron overlaps the gather with dX; an
            // overlapping executor may too, a serial one pays it).
            if (const Operator* gather = gatheredInput(forward, fwd); weights && gather) {
                Operator regather = backwardOp(fwd, fi, ".regather", OpClass::Collective);
                regather.kind = std::string(toString(CollectiveKind::AllGather));
                regather.collective = CollectiveKind::AllGather;
                regather.collectiveBytes = gather->collectiveBytes;
                regather.groupSize = gather->groupSize;
                secondInputs.push_back(emit(std::move(regather), gemmInputs, false));
            }
            emit(std::move(second), secondInputs, !weights);
        } else if (fwd.opClass == OpClass::Fused &&
                   fwd.backwardRule == BackwardRule::FusedAttention) {
            Operator op = backwardOp(fwd, fi, "", OpClass::Fused);
            op.gemm = fwd.gemm;
            op.gemm.k = fwd.gemm.k / 2 * 5;  // 5 GEMMs of the forward's 2 (k = 2·head dim)
            op.elements = fwd.elements;
            op.cyclesPerElement = fwd.backwardCyclesPerElement;
            op.streamedBytes = 2 * fwd.streamedBytes;
            emit(std::move(op), predecessors, true);
        } else if (fwd.opClass == OpClass::VectorCore &&
                   fwd.backwardRule == BackwardRule::Elementwise) {
            Operator op = backwardOp(fwd, fi, "", OpClass::VectorCore);
            op.elements = fwd.elements;
            op.cyclesPerElement = fwd.backwardCyclesPerElement;
            op.streamedTensors = fwd.backwardStreamedTensors;
            emit(std::move(op), predecessors, true);
        } else if (fwd.backwardRule == BackwardRule::AllReduceInBackward ||
                   fwd.backwardRule == BackwardRule::TransposedCollective) {
            Operator op = backwardOp(fwd, fi, "", OpClass::Collective);
            op.collectiveBytes = fwd.collectiveBytes;
            op.groupSize = fwd.groupSize;
            op.collective = fwd.backwardRule == BackwardRule::TransposedCollective
                                ? transposed(fwd.collective)
                                : CollectiveKind::AllReduce;
            if (fwd.backwardRule == BackwardRule::TransposedCollective)
                op.kind = std::string(toString(op.collective));
            emit(std::move(op), predecessors, true);
        } else {
            // None, NoneAfterAllReduce: nothing to compute, but precedence must pass through.
            emit(backwardOp(fwd, fi, "", OpClass::Nop), predecessors, true);
        }
    }
    return backward;
}

Expected<std::shared_ptr<const LayerGraph>> LayerGraph::create(std::string kind,
                                                               std::vector<Operator> forward) {
    const std::string where = "layer graph '" + kind + "'";
    if (kind.empty()) return Error{"layer graph: kind is empty"};
    if (forward.empty()) return Error{where + " has no operators"};
    std::unordered_set<std::string> names;
    for (std::size_t i = 0; i < forward.size(); ++i) {
        const Operator& op = forward[i];
        if (op.name.empty()) {
            return Error{where + ": operator at index " + std::to_string(i) + " has no name"};
        }
        if (!names.insert(op.name).second) {
            return Error{where + ": operator name '" + op.name + "' is used twice"};
        }
        if (std::string problem = checkFields(op, i); !problem.empty()) {
            return Error{where + ": " + problem};
        }
    }
    if (std::string problem = validateOperatorDag(forward); !problem.empty()) {
        return Error{where + ": " + problem};
    }
    for (std::size_t i = 0; i < forward.size(); ++i) {
        for (int input : forward[i].inputs) {
            if (std::size_t(input) > i) {
                return Error{where + ": " + quoted(forward[i], i) + " takes input " +
                             std::to_string(input) + " ('" + forward[std::size_t(input)].name +
                             "'), which comes after it; operators must be in topological order"};
            }
        }
    }

    auto graph = std::shared_ptr<LayerGraph>(new LayerGraph());
    for (const Operator& op : forward) {
        if (!addChecked(graph->parameterBytes_, op.parameterBytes) ||
            !addChecked(graph->tiedParameterBytes_, op.tiedParameterBytes) ||
            !addChecked(graph->savedBytes_, op.savedBytes) ||
            !addChecked(graph->discardedBytes_, op.discardedBytes)) {
            return Error{where +
                         ": the sum of parameter, tied-parameter or saved bytes "
                         "overflows 64-bit integers"};
        }
        graph->forwardFlops_ += op.flops();
        if (op.isGemm()) graph->forwardGemmFlops_ += op.gemm.flops();
    }
    graph->backward_ = deriveBackward(forward);
    for (const Operator& op : graph->backward_) {
        graph->backwardFlops_ += op.flops();
        if (op.isGemm()) graph->backwardGemmFlops_ += op.gemm.flops();
    }
    graph->signature_ = makeSignature(kind, forward);
    graph->kind_ = std::move(kind);
    graph->forward_ = std::move(forward);
    return std::shared_ptr<const LayerGraph>(std::move(graph));
}

std::int64_t LayerGraph::parameterBytes() const {
    return parameterBytes_;
}
std::int64_t LayerGraph::tiedParameterBytes() const {
    return tiedParameterBytes_;
}
std::int64_t LayerGraph::savedBytes() const {
    return savedBytes_;
}
std::int64_t LayerGraph::selectiveSavedBytes() const {
    return savedBytes_ - discardedBytes_;
}
double LayerGraph::forwardFlops() const {
    return forwardFlops_;
}
double LayerGraph::backwardFlops() const {
    return backwardFlops_;
}
double LayerGraph::forwardGemmFlops() const {
    return forwardGemmFlops_;
}
double LayerGraph::backwardGemmFlops() const {
    return backwardGemmFlops_;
}

}  // namespace tandem::core::model
