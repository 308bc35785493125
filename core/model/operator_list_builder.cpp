#include "core/model/operator_list_builder.h"

#include <utility>

namespace tandem::core::model {

int OperatorListBuilder::append(Operator op, std::vector<int> inputs) {
    op.inputs = std::move(inputs);
    ops_.push_back(std::move(op));
    return int(ops_.size()) - 1;
}

int OperatorListBuilder::linear(std::string name, std::vector<int> inputs, std::int64_t m,
                                std::int64_t n, std::int64_t k) {
    Operator op;
    op.name = std::move(name);
    op.kind = "linear";
    op.opClass = OpClass::TensorCore;
    op.gemm = GemmShape{1, m, n, k};
    op.outputBytes = math_.mul({m, n, dims_.e});
    op.backwardRule = BackwardRule::WeightGemm;
    return append(std::move(op), std::move(inputs));
}

int OperatorListBuilder::bmm(std::string name, std::vector<int> inputs, std::int64_t batch,
                             std::int64_t m, std::int64_t n, std::int64_t k) {
    Operator op;
    op.name = std::move(name);
    op.kind = "bmm";
    op.opClass = OpClass::TensorCore;
    op.gemm = GemmShape{batch, m, n, k};
    op.outputBytes = math_.mul({batch, m, n, dims_.e});
    op.backwardRule = BackwardRule::ActivationGemm;
    return append(std::move(op), std::move(inputs));
}

int OperatorListBuilder::vector(std::string name, std::string kind, const VectorOpCost& cost,
                                std::vector<int> inputs, std::int64_t elements) {
    Operator op;
    op.name = std::move(name);
    op.kind = std::move(kind);
    op.opClass = OpClass::VectorCore;
    op.elements = elements;
    op.cyclesPerElement = cost.forwardCyclesPerElement;
    op.backwardCyclesPerElement = cost.backwardCyclesPerElement;
    op.streamedTensors = cost.forwardStreamedTensors;
    op.backwardStreamedTensors = cost.backwardStreamedTensors;
    op.outputBytes = bytes(elements);
    op.backwardRule = BackwardRule::Elementwise;
    return append(std::move(op), std::move(inputs));
}

int OperatorListBuilder::megatronF(std::string name, std::vector<int> inputs,
                                   std::int64_t elements) {
    Operator op;
    op.name = std::move(name);
    op.collectiveBytes = bytes(elements);
    op.groupSize = dims_.t;
    if (dims_.sp) {
        op.kind = "all_gather";
        op.opClass = OpClass::Collective;
        op.collective = CollectiveKind::AllGather;
        op.outputBytes = op.collectiveBytes;
        op.backwardRule = BackwardRule::TransposedCollective;
    } else {
        op.kind = "identity";
        op.opClass = OpClass::Nop;
        op.backwardRule = BackwardRule::AllReduceInBackward;
    }
    return append(std::move(op), std::move(inputs));
}

int OperatorListBuilder::forwardAllReduce(std::string name, std::vector<int> inputs,
                                          std::int64_t bytes) {
    Operator op;
    op.name = std::move(name);
    op.opClass = OpClass::Collective;
    op.kind = "all_reduce";
    op.collectiveBytes = bytes;
    op.groupSize = dims_.t;
    op.outputBytes = bytes;
    op.backwardRule = BackwardRule::NoneAfterAllReduce;
    return append(std::move(op), std::move(inputs));
}

int OperatorListBuilder::megatronG(std::string name, std::vector<int> inputs,
                                   std::int64_t elements) {
    Operator op;
    op.name = std::move(name);
    op.opClass = OpClass::Collective;
    op.collectiveBytes = bytes(elements);
    op.groupSize = dims_.t;
    if (dims_.sp) {
        op.kind = "reduce_scatter";
        op.collective = CollectiveKind::ReduceScatter;
        op.outputBytes = bytes(dims_.sequenceShard(elements));
        op.backwardRule = BackwardRule::TransposedCollective;
    } else {
        op.kind = "all_reduce";
        op.outputBytes = op.collectiveBytes;
        op.backwardRule = BackwardRule::NoneAfterAllReduce;
    }
    return append(std::move(op), std::move(inputs));
}

}  // namespace tandem::core::model
