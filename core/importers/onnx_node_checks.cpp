// checkOnnxNodeInputs (onnx_node_checks.h).
#include "core/importers/onnx_node_checks.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <string_view>
#include <utility>

namespace tandem::core::importers {

namespace {

using Dims = std::vector<std::int64_t>;  // -1: an unknown dim

struct Problem {
    std::string message;
};
[[noreturn]] void fail(std::string message) {
    throw Problem{std::move(message)};
}

std::string shown(const Dims& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
        s += (i ? ", " : "") + (dims[i] < 0 ? std::string("?") : std::to_string(dims[i]));
    return s + "]";
}
std::string shownValues(const Dims& values) {
    std::string s = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        s += (i ? ", " : "") + std::to_string(values[i]);
    return s + "]";
}

class Checker {
public:
    Checker(const onnx::NodeProto& node, const std::vector<OnnxNodeInput>& inputs)
        : node_(node), in_(inputs) {}

    void run() {
        const std::string& op = node_.op_type();
        if (op == "Conv" || op == "ConvTranspose" || op == "ConvInteger")
            convolution(1);
        else if (op == "QLinearConv")
            convolution(3);
        else if (op == "DepthToSpace" || op == "SpaceToDepth")
            blocks(op == "DepthToSpace");
        else if (op == "STFT")
            stft();
        else if (op == "Reshape")
            reshape();
        else if (op == "Transpose")
            transpose();
        else if (op == "Concat")
            concat();
        else if (op == "Range")
            range();
        else if (broadcasts(op))
            broadcast();
    }

private:
    const onnx::TypeProto* type(int i) const {
        if (i >= node_.input_size() || node_.input(i).empty() || std::size_t(i) >= in_.size())
            return nullptr;
        const onnx::TypeProto* t = in_[std::size_t(i)].type;
        return t && t->has_tensor_type() && t->tensor_type().has_shape() ? t : nullptr;
    }
    int rank(int i) const {
        const onnx::TypeProto* t = type(i);
        return t ? t->tensor_type().shape().dim_size() : -1;
    }
    Dims dims(int i) const {
        Dims out;
        if (const onnx::TypeProto* t = type(i))
            for (const auto& d : t->tensor_type().shape().dim())
                out.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
        return out;
    }
    const OnnxIntTensor* value(int i) const {
        return std::size_t(i) < in_.size() && i < node_.input_size() && !node_.input(i).empty()
                   ? in_[std::size_t(i)].value
                   : nullptr;
    }
    std::string input(int i) const {
        return "input " + std::to_string(i) + " '" + node_.input(i) + "'";
    }
    const onnx::AttributeProto* attribute(std::string_view name) const {
        for (const auto& a : node_.attribute())
            if (a.name() == name) return &a;
        return nullptr;
    }

    void requireRank(int i, int wanted, const std::string& what) const {
        const int r = rank(i);
        if (r >= 0 && r != wanted)
            fail(input(i) + " has rank " + std::to_string(r) + " " + shown(dims(i)) +
                 "; it must have rank " + std::to_string(wanted) + " (" + what + ")");
    }

    void convolution(int weight) const {
        const int rx = rank(0), rw = rank(weight);
        const std::string layout = node_.op_type() == "ConvTranspose"
                                       ? "[input channels, output channels / group, kernel...]"
                                       : "[output channels, input channels / group, kernel...]";
        if (rx >= 0 && rx < 3)
            fail(input(0) + " has rank " + std::to_string(rx) + " " + shown(dims(0)) +
                 "; it must be [batch, channels, spatial...] of rank >= 3");
        if (rw >= 0 && rw < 3)
            fail("its weight, " + input(weight) + ", has rank " + std::to_string(rw) + " " +
                 shown(dims(weight)) + "; it must be " + layout + " of rank >= 3");
        if (rx >= 0 && rw >= 0 && rx != rw)
            fail("its weight, " + input(weight) + ", has rank " + std::to_string(rw) + " " +
                 shown(dims(weight)) + " but its input, " + input(0) + ", has rank " +
                 std::to_string(rx) + " " + shown(dims(0)) + "; the weight is " + layout +
                 " with the input's rank");
        const int spatial = (rx >= 0 ? rx : rw) - 2;
        if (spatial < 1) return;
        const std::pair<std::string_view, int> lengths[] = {
            {"kernel_shape", spatial}, {"strides", spatial},        {"dilations", spatial},
            {"pads", 2 * spatial},     {"output_padding", spatial}, {"output_shape", spatial}};
        for (const auto& [name, wanted] : lengths)
            if (const auto* a = attribute(name); a && a->ints_size() != wanted)
                fail("attribute " + std::string(name) + " has " + std::to_string(a->ints_size()) +
                     " values; with " + std::to_string(spatial) + " spatial axes it must have " +
                     std::to_string(wanted));
    }

    void blocks(bool depthToSpace) const {
        requireRank(0, 4, "[batch, channels, height, width]");
        const auto* a = attribute("blocksize");
        if (!a || rank(0) != 4) return;
        const std::int64_t b = a->i();  // 1 ≤ b < 2^31 (onnx_attribute_checks.h)
        const Dims d = dims(0);
        if (depthToSpace && d[1] >= 0 && d[1] % (b * b) != 0)
            fail("blocksize " + std::to_string(b) + " does not fit " + input(0) + " " + shown(d) +
                 ": its channels must be a multiple of blocksize² = " + std::to_string(b * b));
        if (!depthToSpace && ((d[2] >= 0 && d[2] % b != 0) || (d[3] >= 0 && d[3] % b != 0)))
            fail("blocksize " + std::to_string(b) + " does not fit " + input(0) + " " + shown(d) +
                 ": its height and width must be multiples of the block size");
    }

    void stft() const {
        requireRank(0, 3, "the signal is [batch, length, 1] or [batch, length, 2]");
        requireRank(1, 0, "frame_step is a scalar");
        requireRank(2, 1, "the window is [frame length]");
        requireRank(3, 0, "frame_length is a scalar");
    }

    void reshape() const {
        const OnnxIntTensor* target = value(1);
        if (!target) return;
        if (target->dims.size() != 1)
            fail("its shape input " + input(1) + " has rank " +
                 std::to_string(target->dims.size()) + "; it must be a list of dims (rank 1)");
        const Dims in = dims(0);
        const bool allowZero = attribute("allowzero") && attribute("allowzero")->i() != 0;
        Dims out = target->values;
        int inferred = -1;
        bool zero = false;
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (out[i] < -1)
                fail("its target shape " + shownValues(target->values) + " contains " +
                     std::to_string(out[i]) + "; dims must be >= 0, or -1 (inferred)");
            if (out[i] == -1) {
                if (inferred >= 0)
                    fail("its target shape " + shownValues(target->values) +
                         " has more than one -1; only one dim can be inferred");
                inferred = int(i);
            }
            if (out[i] == 0 && !allowZero) {
                if (rank(0) >= 0 && i >= in.size())
                    fail("its target shape " + shownValues(target->values) + " has 0 at position " +
                         std::to_string(i) + ", which copies the input's dim there, but " +
                         input(0) + " " + shown(in) + " has only " + std::to_string(in.size()) +
                         " dims");
                out[i] = i < in.size() ? in[i] : -2;
            }
            zero = zero || out[i] == 0;
        }
        if (allowZero && zero && inferred >= 0)
            fail("its target shape " + shownValues(target->values) +
                 " has both 0 and -1 with allowzero = 1, which ONNX forbids");
        if (rank(0) < 0) return;
        std::int64_t elements = 1, known = 1;
        for (std::int64_t d : in) {
            if (d < 0 || __builtin_mul_overflow(elements, d, &elements)) return;
        }
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (int(i) == inferred) continue;
            if (out[i] < 0 || __builtin_mul_overflow(known, out[i], &known)) return;
        }
        const std::string from = "cannot reshape " + input(0) + " of shape " + shown(in) + " (" +
                                 std::to_string(elements) + " elements) to " +
                                 shownValues(target->values);
        if (inferred >= 0 && (known == 0 ? elements != 0 : elements % known != 0))
            fail(from + ": the known dims multiply to " + std::to_string(known) +
                 ", which does not divide the element count, so -1 has no value");
        if (inferred < 0 && known != elements)
            fail(from + " (" + std::to_string(known) + " elements): the element counts must match");
    }

    void transpose() const {
        const auto* a = attribute("perm");
        if (!a) return;
        const int r = rank(0);
        const Dims perm(a->ints().begin(), a->ints().end());
        std::set<std::int64_t> seen(perm.begin(), perm.end());
        const auto n = std::int64_t(perm.size());
        const bool permutation = std::int64_t(seen.size()) == n &&
                                 (n == 0 || (*seen.begin() == 0 && *seen.rbegin() == n - 1));
        if (!permutation || (r >= 0 && n != r))
            fail("attribute perm " + shownValues(perm) + " is not a permutation of 0.." +
                 std::to_string((r >= 0 ? r : n) - 1) +
                 (r >= 0 ? " (" + input(0) + " " + shown(dims(0)) + " has rank " +
                               std::to_string(r) + ")"
                         : std::string()) +
                 "; it must list every axis exactly once");
    }

    void concat() const {
        const auto* a = attribute("axis");
        if (!a) return;  // the schema check reports a missing axis
        int r = -1, first = -1;
        for (int i = 0; i < node_.input_size(); ++i) {
            const int ri = rank(i);
            if (ri < 0) continue;
            if (r >= 0 && ri != r)
                fail(input(i) + " " + shown(dims(i)) + " has rank " + std::to_string(ri) + " but " +
                     input(first) + " " + shown(dims(first)) + " has rank " + std::to_string(r) +
                     "; Concat inputs must have one rank");
            r = ri;
            if (first < 0) first = i;
        }
        if (r < 0) return;
        const std::int64_t axis = a->i();
        if (axis < -r || axis >= r)
            fail("attribute axis = " + std::to_string(axis) +
                 " is out of range for inputs of rank " + std::to_string(r) +
                 "; it must be between " + std::to_string(-r) + " and " + std::to_string(r - 1));
        const auto along = std::size_t(axis < 0 ? axis + r : axis);
        const Dims reference = dims(first);
        for (int i = first + 1; i < node_.input_size(); ++i) {
            if (rank(i) < 0) continue;
            const Dims d = dims(i);
            for (std::size_t k = 0; k < d.size(); ++k)
                if (k != along && d[k] >= 0 && reference[k] >= 0 && d[k] != reference[k])
                    fail(input(i) + " has shape " + shown(d) + " but " + input(first) + " has " +
                         shown(reference) + ": Concat along axis " + std::to_string(along) +
                         " needs every other dim to match (dim " + std::to_string(k) + ": " +
                         std::to_string(d[k]) + " vs " + std::to_string(reference[k]) + ")");
        }
    }

    // Operators with numpy-style (multidirectional) broadcasting of their inputs.
    static bool broadcasts(const std::string& op) {
        static const std::set<std::string, std::less<>> kOps{
            "Add",        "And",         "BitShift", "BitwiseAnd", "BitwiseOr",
            "BitwiseXor", "Div",         "Equal",    "Greater",    "GreaterOrEqual",
            "Less",       "LessOrEqual", "Max",      "Mean",       "Min",
            "Mod",        "Mul",         "Or",       "Pow",        "Sub",
            "Sum",        "Where",       "Xor"};
        return kOps.count(op) > 0;
    }

    void broadcast() const {
        // Aligned from the last dim: every known dim other than 1 must agree.
        std::vector<std::pair<std::int64_t, int>> seen;  // per aligned dim: (size, input)
        for (int i = 0; i < node_.input_size(); ++i) {
            const int r = rank(i);
            if (r < 0) continue;
            const Dims d = dims(i);
            if (seen.size() < d.size()) seen.insert(seen.begin(), d.size() - seen.size(), {1, -1});
            for (std::size_t k = 0; k < d.size(); ++k) {
                auto& [size, from] = seen[seen.size() - d.size() + k];
                if (d[k] < 0 || d[k] == 1) continue;
                if (size == 1) {
                    size = d[k];
                    from = i;
                } else if (size != d[k]) {
                    const int longer = std::max(rank(from), int(d.size()));
                    fail("its inputs do not broadcast: " + input(from) + " " + shown(dims(from)) +
                         " and " + input(i) + " " + shown(d) + " have " + std::to_string(size) +
                         " and " + std::to_string(d[k]) + " in dim " +
                         std::to_string(int(k) - int(d.size()) + longer) +
                         " (aligned from the last dim, sizes must be equal or 1)");
                }
            }
        }
    }

    void range() const {
        const OnnxIntTensor* delta = value(2);
        if (delta && delta->values.size() == 1 && delta->values[0] == 0)
            fail("its delta " + input(2) + " is 0; a range needs a non-zero step");
    }

    const onnx::NodeProto& node_;
    const std::vector<OnnxNodeInput>& in_;
};

}  // namespace

std::optional<std::string> checkOnnxNodeInputs(const onnx::NodeProto& node,
                                               const std::vector<OnnxNodeInput>& inputs) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") return std::nullopt;
    try {
        Checker(node, inputs).run();
    } catch (const Problem& p) {
        return p.message;
    }
    return std::nullopt;
}

}  // namespace tandem::core::importers
