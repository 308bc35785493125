#include "core/importers/onnx_operator_mapper.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace tandem::core::importers {

namespace {

namespace c = model::vector_op_costs;
using model::BackwardRule;
using model::OpClass;
using model::Operator;

struct MapError {
    std::string message;
};

class Mapper {
public:
    Mapper(const OnnxImportState& state, const OnnxPlannedNode& planned, const OnnxShapes& shapes,
           std::int64_t bytesPerElement)
        : planned_(planned),
          node_(state.model.graph().node(planned.node)),
          shapes_(shapes),
          e_(bytesPerElement) {}

    Operator run() {
        op_.name = planned_.name;
        const OnnxOpInfo& info = planned_.info ? *planned_.info : unknownOnnxOp();
        op_.kind = planned_.info ? std::string(info.tandemKind) : "unknown:" + node_.op_type();
        switch (info.kind) {
            case OnnxOpKind::MatMul:
                matMul();
                break;
            case OnnxOpKind::Gemm:
                gemm();
                break;
            case OnnxOpKind::Conv:
                conv(false);
                break;
            case OnnxOpKind::ConvTranspose:
                conv(true);
                break;
            case OnnxOpKind::Gather:
                if (planned_.weightInput.empty() || !planned_.weightInput[0])
                    nop();
                else
                    vector(info);
                break;
            case OnnxOpKind::Vector:
                vector(info);
                break;
            case OnnxOpKind::Nop:
            case OnnxOpKind::Static:
                nop();
                break;
        }
        return op_;
    }

private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw MapError{"node '" + node_.name() + "' (" + node_.op_type() + "): " + problem};
    }

    static std::int64_t mul(std::int64_t a, std::int64_t b) {
        if (a != 0 && b > std::numeric_limits<std::int64_t>::max() / a)
            throw MapError{"a size overflows 64-bit integers"};
        return a * b;
    }
    static std::int64_t product(const std::vector<std::int64_t>& dims, std::size_t from,
                                std::size_t to) {
        std::int64_t p = 1;
        for (std::size_t i = from; i < to && i < dims.size(); ++i) p = mul(p, dims[i]);
        return p;
    }

    const OnnxTensorShape* find(const std::string& name) const {
        const auto it = shapes_.find(name);
        return it == shapes_.end() ? nullptr : &it->second;
    }
    const OnnxTensorShape& input(int i) const {
        if (i >= node_.input_size() || node_.input(i).empty())
            fail("input " + std::to_string(i) + " is missing");
        const OnnxTensorShape* shape = find(node_.input(i));
        if (!shape)
            fail("the shape of its input " + std::to_string(i) + " '" + node_.input(i) +
                 "' could not be inferred");
        return *shape;
    }
    const OnnxTensorShape& output(int i) const {
        if (i >= node_.output_size() || node_.output(i).empty())
            fail("output " + std::to_string(i) + " is missing");
        const OnnxTensorShape* shape = find(node_.output(i));
        if (!shape) fail("the shape of its output '" + node_.output(i) + "' could not be inferred");
        return *shape;
    }
    std::int64_t bytes(const OnnxTensorShape& s) const {
        return mul(s.elements, onnxElementBytes(s.dataType, e_));
    }
    std::int64_t attribute(const std::string& name, std::int64_t fallback) const {
        for (const auto& a : node_.attribute())
            if (a.name() == name) return a.i();
        return fallback;
    }
    bool constantInput(int i) const {
        return i < int(planned_.staticInput.size()) && planned_.staticInput[std::size_t(i)];
    }

    std::int64_t outputBytes() const {
        std::int64_t sum = 0;
        for (int i = 0; i < node_.output_size(); ++i)
            if (!node_.output(i).empty()) sum += bytes(output(i));
        return sum;
    }
    std::int64_t dynamicInputBytes() const {
        std::int64_t sum = 0;
        for (int i = 0; i < node_.input_size(); ++i)
            if (!node_.input(i).empty() && !constantInput(i)) sum += bytes(input(i));
        return sum;
    }

    void setGemm(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k,
                 bool weightOperand) {
        op_.opClass = OpClass::TensorCore;
        op_.gemm = {batch, m, n, k};
        (void)mul(mul(mul(batch, m), n), k);  // the FLOP count must stay representable
        op_.backwardRule = weightOperand ? BackwardRule::WeightGemm : BackwardRule::ActivationGemm;
        op_.outputBytes = outputBytes();
        op_.savedBytes = dynamicInputBytes();
    }

    void matMul() {
        std::vector<std::int64_t> a = input(0).dims, b = input(1).dims;
        if (a.empty() || b.empty()) fail("MatMul operands must have rank >= 1");
        if (a.size() == 1) a.insert(a.begin(), 1);
        if (b.size() == 1) b.push_back(1);
        const std::size_t ra = a.size(), rb = b.size();
        const std::int64_t kA = a[ra - 1], kB = b[rb - 2];
        if (kA != kB)
            fail("inner dimensions differ: " + std::to_string(kA) + " vs " + std::to_string(kB));
        const bool weight = constantInput(0) || constantInput(1);
        if (rb == 2) {
            setGemm(1, product(a, 0, ra - 1), b[1], kA, weight);
        } else {
            std::int64_t batch = 1;
            const std::size_t lead = std::max(ra, rb) - 2;
            for (std::size_t i = 0; i < lead; ++i) {
                const std::int64_t da = i + ra >= lead + 2 ? a[i + ra - lead - 2] : 1;
                const std::int64_t db = i + rb >= lead + 2 ? b[i + rb - lead - 2] : 1;
                if (da != db && da != 1 && db != 1)
                    fail("batch dimensions " + std::to_string(da) + " and " + std::to_string(db) +
                         " do not broadcast");
                batch = mul(batch, std::max(da, db));
            }
            setGemm(batch, a[ra - 2], b[rb - 1], kA, weight);
        }
        if (!weight)
            op_.kind = "matmul";
        else
            op_.kind = "linear";
    }

    void gemm() {
        const auto& a = input(0).dims;
        const auto& b = input(1).dims;
        if (a.size() != 2 || b.size() != 2) fail("Gemm operands must be 2-D");
        const bool ta = attribute("transA", 0) != 0, tb = attribute("transB", 0) != 0;
        const std::int64_t m = ta ? a[1] : a[0], k = ta ? a[0] : a[1];
        const std::int64_t kb = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
        if (k != kb)
            fail("inner dimensions differ: " + std::to_string(k) + " vs " + std::to_string(kb));
        setGemm(1, m, n, k, constantInput(0) || constantInput(1));
    }

    void conv(bool transposed) {
        const auto& x = input(0).dims;
        const auto& w = input(1).dims;
        const auto& y = output(0).dims;
        if (x.size() < 3 || w.size() != x.size() || y.size() != x.size())
            fail("expects input, weight and output of equal rank >= 3");
        const std::int64_t g = attribute("group", 1);
        const std::int64_t channels = x[1];
        if (g < 1 || channels % g != 0 || y[1] % g != 0)
            fail("group = " + std::to_string(g) + " does not divide the channels (" +
                 std::to_string(channels) + " in, " + std::to_string(y[1]) + " out)");
        const std::int64_t kernel = product(w, 2, w.size());
        if (!transposed) {
            if (w[1] != channels / g)
                fail("weight has " + std::to_string(w[1]) + " input channels per group, expected " +
                     std::to_string(channels / g));
            setGemm(g, mul(x[0], product(y, 2, y.size())), y[1] / g, mul(w[1], kernel),
                    constantInput(1));
        } else {
            if (w[0] != channels)
                fail("weight has " + std::to_string(w[0]) + " input channels, expected " +
                     std::to_string(channels));
            setGemm(g, mul(x[0], product(x, 2, x.size())), mul(y[1] / g, kernel), channels / g,
                    constantInput(1));
        }
    }

    void nop() {
        op_.opClass = OpClass::Nop;
        op_.backwardRule = BackwardRule::None;
        std::string kind = node_.op_type();
        std::transform(kind.begin(), kind.end(), kind.begin(),
                       [](unsigned char ch) { return char(std::tolower(ch)); });
        op_.kind = kind;
    }

    void vector(const OnnxOpInfo& info) {
        op_.opClass = OpClass::VectorCore;
        model::VectorOpCost cost = info.cost;
        const bool fromOutput = info.elements == ElementSource::Output && node_.output_size() > 0 &&
                                !node_.output(0).empty();
        const OnnxTensorShape& basis = fromOutput ? output(0) : input(0);
        std::int64_t elements = basis.elements;
        if (fromOutput)
            for (int i = 1; i < node_.output_size(); ++i)
                if (!node_.output(i).empty()) elements = std::max(elements, output(i).elements);
        op_.elements = elements;
        int fullInputs = 0;
        bool weight = false;
        for (int i = 0; i < node_.input_size(); ++i) {
            if (node_.input(i).empty()) continue;
            if (planned_.weightInput[std::size_t(i)]) weight = true;
            if (!constantInput(i) && input(i).elements == elements) ++fullInputs;
        }
        const bool isAdd = node_.op_type() == "Add" || node_.op_type() == "Sub";
        if (planned_.info && isAdd && weight) {
            cost = c::kBiasAdd;
            op_.kind = "bias_add";
        } else if (planned_.info && isAdd && fullInputs >= 2) {
            cost = c::kResidualAdd;
        } else if (info.shape == VectorShape::Elementwise) {
            cost.forwardStreamedTensors = std::max<std::int64_t>(2, fullInputs + 1);
        }
        if (info.shape == VectorShape::Pooling) {
            std::int64_t window = 1;
            bool found = false;
            for (const auto& a : node_.attribute())
                if (a.name() == "kernel_shape") {
                    found = true;
                    for (std::int64_t k : a.ints()) window = mul(window, k);
                }
            if (!found || window < 1) fail("has no valid kernel_shape");
            const double perOutput = double(window) * double(output(0).elements);
            cost.forwardCyclesPerElement =
                elements > 0 ? c::kReduction * perOutput / double(elements) : 0;
            cost.backwardCyclesPerElement = cost.forwardCyclesPerElement;
        }
        op_.cyclesPerElement = cost.forwardCyclesPerElement;
        op_.streamedTensors = cost.forwardStreamedTensors;
        op_.backwardStreamedTensors = cost.backwardStreamedTensors;
        op_.outputBytes = outputBytes();
        // Integer and bool results (masks, indices, comparisons) carry no gradient.
        const bool differentiable = isOnnxFloatType(output(0).dataType);
        op_.backwardRule = differentiable ? BackwardRule::Elementwise : BackwardRule::None;
        op_.backwardCyclesPerElement = differentiable ? cost.backwardCyclesPerElement : 0;
        switch (info.saved) {
            case SavedTensor::Nothing:
                break;
            case SavedTensor::Inputs:
                op_.savedBytes = dynamicInputBytes();
                break;
            case SavedTensor::Output:
                op_.savedBytes = bytes(output(0));
                break;
            case SavedTensor::Mask:
                op_.savedBytes = elements;
                break;
        }
    }

    const OnnxPlannedNode& planned_;
    const onnx::NodeProto& node_;
    const OnnxShapes& shapes_;
    std::int64_t e_;
    Operator op_;
};

}  // namespace

Expected<model::Operator> mapOnnxOperator(const OnnxImportState& state,
                                          const OnnxPlannedNode& planned, const OnnxShapes& shapes,
                                          std::int64_t bytesPerElement) {
    try {
        return Mapper(state, planned, shapes, bytesPerElement).run();
    } catch (const MapError& e) {
        return Error{state.sourceName + ": " + e.message};
    }
}

}  // namespace tandem::core::importers
