#pragma once
// A small helper the model builders use to append operators to one layer's forward list: it
// fills the fields every operator of a kind has (GEMM shape and backward rule for a linear,
// cycles and streamed tensors for a vector op, bytes and group size for Megatron's f and g),
// routes every size product through CheckedArithmetic, and hands out indices for wiring inputs.
// Builders then set what differs per operator (parameters, saved bytes, sharding) via at().
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model/checked_arithmetic.h"
#include "core/model/operator.h"
#include "core/model/vector_op_costs.h"

namespace tandem::core::model {

// Resolved build options: microbatch b, sequence length s, tensor-parallel width t, bytes per
// element e.
struct BuildDims {
    std::int64_t b = 1;
    std::int64_t s = 1;
    std::int64_t t = 1;
    std::int64_t e = 2;
    // Sequence parallelism (Korthikanti et al. 2022): outside the tensor-parallel regions the
    // tokens are split over the t devices, so norms, dropout, bias and residual adds work on
    // 1/t of them; Megatron's f becomes an all-gather and g a reduce-scatter.
    bool sp = false;
    bool flash = false;            // FlashAttention: one fused kernel per attention core
    bool softmaxShapeRule = true;  // BuildOptions::softmaxShapeRule
    // The tokens one device holds outside the tensor-parallel regions.
    std::int64_t sequenceShard(std::int64_t tokens) const { return sp ? tokens / t : tokens; }
};

class OperatorListBuilder {
public:
    OperatorListBuilder(CheckedArithmetic& math, const BuildDims& dims)
        : math_(math), dims_(dims) {}

    // Y (m×n) = X (m×k) · W (k×n): a TensorCore WeightGemm, output m·n elements.
    int linear(std::string name, std::vector<int> inputs, std::int64_t m, std::int64_t n,
               std::int64_t k);
    // A batched product of two activations (attention): an ActivationGemm.
    int bmm(std::string name, std::vector<int> inputs, std::int64_t batch, std::int64_t m,
            std::int64_t n, std::int64_t k);
    // An element-wise / reduction vector op over `elements`, output of the same size.
    int vector(std::string name, std::string kind, const VectorOpCost& cost,
               std::vector<int> inputs, std::int64_t elements);
    // Megatron's f: identity forward, all-reduce of `elements` gradients backward over t. With
    // sequence parallelism: an all-gather of the `elements` forward, a reduce-scatter backward.
    int megatronF(std::string name, std::vector<int> inputs, std::int64_t elements);
    // Megatron's g: all-reduce of `elements` activations forward over t, identity backward.
    // With sequence parallelism: a reduce-scatter forward, an all-gather backward.
    int megatronG(std::string name, std::vector<int> inputs, std::int64_t elements);
    // An all-reduce over t of `bytes` that only the forward pass needs (statistics such as the
    // maxima of a vocabulary-parallel softmax): no backward operator.
    int forwardAllReduce(std::string name, std::vector<int> inputs, std::int64_t bytes);

    Operator& at(int index) { return ops_[std::size_t(index)]; }
    std::int64_t bytes(std::int64_t elements) { return math_.mul({elements, dims_.e}); }
    CheckedArithmetic& math() { return math_; }
    const BuildDims& dims() const { return dims_; }
    std::vector<Operator> take() { return std::move(ops_); }

private:
    int append(Operator op, std::vector<int> inputs);
    CheckedArithmetic& math_;
    BuildDims dims_;
    std::vector<Operator> ops_;
};

// The inputs list of an operator fed by `index`, or by the layer's own input when index < 0.
inline std::vector<int> from(int index) {
    return index < 0 ? std::vector<int>{} : std::vector<int>{index};
}

}  // namespace tandem::core::model
