// foldOnnxNode (onnx_shape_folding.h): ONNX semantics of the operators exporters compute shapes
// with, on small int64 tensors. Anything outside what is implemented gives up (NoFold).
#include "core/importers/onnx_shape_folding.h"

#include "core/importers/onnx_int_elementwise.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string_view>
#include <utility>

namespace tandem::core::importers {

namespace {

using T = onnx::TensorProto;
using Dims = std::vector<std::int64_t>;
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

struct NoFold {};
[[noreturn]] void noFold() {
    throw NoFold{};
}

std::int64_t count(const Dims& dims) {
    const std::optional<std::int64_t> n = foldableElementCount(dims);
    if (!n) noFold();
    return *n;
}

std::int64_t axisIn(std::int64_t axis, std::size_t rank) {
    const auto r = std::int64_t(rank);
    if (axis < -r || axis >= r) noFold();
    return axis < 0 ? axis + r : axis;
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& node, std::string_view name) {
    for (const auto& a : node.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}
std::int64_t intAttribute(const onnx::NodeProto& node, std::string_view name, std::int64_t or_) {
    const auto* a = attribute(node, name);
    return a ? a->i() : or_;
}

class Folder {
public:
    Folder(const onnx::NodeProto& node, const std::vector<OnnxFoldInput>& in)
        : node_(node), in_(in) {}

    std::vector<OnnxIntTensor> run() {
        const std::string& op = node_.op_type();
        if (op == "Constant") return {constant()};
        if (op == "Shape") return {shape()};
        if (op == "Size") return {scalar(T::INT64, product(dims(0)))};
        if (op == "Identity") return {value(0)};
        if (op == "Cast") return {cast()};
        if (op == "Gather") return {gather()};
        if (op == "Unsqueeze" || op == "Squeeze") return {squeeze(op == "Unsqueeze")};
        if (op == "Concat") return {concat()};
        if (op == "Slice") return {slice()};
        if (op == "Reshape") return {reshape()};
        if (op == "Range") return {range()};
        if (op == "ConstantOfShape") return {constantOfShape()};
        if (op == "Expand") return {expand()};
        return {elementwise(op)};
    }

private:
    bool given(int i) const { return i < node_.input_size() && !node_.input(i).empty(); }
    const OnnxIntTensor& value(int i) const {
        if (!given(i) || std::size_t(i) >= in_.size() || !in_[std::size_t(i)].value) noFold();
        return *in_[std::size_t(i)].value;
    }
    const Dims& dims(int i) const {
        if (std::size_t(i) >= in_.size() || !in_[std::size_t(i)].dims) noFold();
        return *in_[std::size_t(i)].dims;
    }
    static std::int64_t single(const OnnxIntTensor& t) {
        if (t.values.size() != 1) noFold();
        return t.values[0];
    }
    static std::int64_t product(const Dims& dims) {
        std::int64_t n = 1;
        for (std::int64_t d : dims)
            if (__builtin_mul_overflow(n, d, &n)) noFold();
        return n;
    }
    static OnnxIntTensor scalar(int type, std::int64_t v) { return {type, {}, {v}}; }
    static OnnxIntTensor vector(Dims values) {
        const auto n = std::int64_t(values.size());
        return {T::INT64, {n}, std::move(values)};
    }
    // Axes from the attribute (older opsets) or from input `index`.
    std::optional<Dims> axes(int index) const {
        if (const auto* a = attribute(node_, "axes"))
            return Dims(a->ints().begin(), a->ints().end());
        if (!given(index)) return std::nullopt;
        return value(index).values;
    }

    OnnxIntTensor constant() const {
        if (const auto* a = attribute(node_, "value_int")) return scalar(T::INT64, a->i());
        if (const auto* a = attribute(node_, "value_ints"))
            return vector(Dims(a->ints().begin(), a->ints().end()));
        const auto* a = attribute(node_, "value");
        if (!a || !a->has_t()) noFold();
        auto t = readOnnxIntTensor(a->t());
        if (!t) noFold();
        return *t;
    }

    OnnxIntTensor shape() const {
        const Dims& d = dims(0);
        const auto r = std::int64_t(d.size());
        const auto clampAxis = [r](std::int64_t a) {
            return std::clamp(a < 0 ? a + r : a, std::int64_t{0}, r);
        };
        const std::int64_t start = clampAxis(intAttribute(node_, "start", 0));
        const std::int64_t end = clampAxis(intAttribute(node_, "end", r));
        return vector(start < end ? Dims(d.begin() + start, d.begin() + end) : Dims{});
    }

    OnnxIntTensor cast() const {
        OnnxIntTensor t = value(0);
        const std::int64_t to = intAttribute(node_, "to", 0);
        if (to > std::numeric_limits<int>::max() || !isOnnxIntegerType(int(to))) noFold();
        t.dataType = int(to);
        for (std::int64_t& v : t.values) v = normalizeOnnxInt(t.dataType, v);
        return t;
    }

    OnnxIntTensor gather() const {
        const OnnxIntTensor& data = value(0);
        const OnnxIntTensor& index = value(1);
        const std::int64_t axis = axisIn(intAttribute(node_, "axis", 0), data.dims.size());
        OnnxIntTensor out{data.dataType, {}, {}};
        out.dims.assign(data.dims.begin(), data.dims.begin() + axis);
        out.dims.insert(out.dims.end(), index.dims.begin(), index.dims.end());
        out.dims.insert(out.dims.end(), data.dims.begin() + axis + 1, data.dims.end());
        count(out.dims);
        const std::int64_t n = data.dims[std::size_t(axis)];
        const std::int64_t outer = product(Dims(data.dims.begin(), data.dims.begin() + axis));
        const std::int64_t inner = product(Dims(data.dims.begin() + axis + 1, data.dims.end()));
        for (std::int64_t o = 0; o < outer; ++o)
            for (std::int64_t i : index.values) {
                if (i < -n || i >= n) noFold();
                const std::int64_t at = ((o * n) + (i < 0 ? i + n : i)) * inner;
                for (std::int64_t k = 0; k < inner; ++k)
                    out.values.push_back(data.values[std::size_t(at + k)]);
            }
        return out;
    }

    OnnxIntTensor squeeze(bool unsqueeze) const {
        OnnxIntTensor t = value(0);
        const std::optional<Dims> list = axes(1);
        if (unsqueeze) {
            if (!list) noFold();
            const std::size_t rank = t.dims.size() + list->size();
            std::set<std::int64_t> at;
            for (std::int64_t a : *list)
                if (!at.insert(axisIn(a, rank)).second) noFold();
            Dims out;
            auto next = t.dims.begin();
            for (std::size_t i = 0; i < rank; ++i)
                out.push_back(at.count(std::int64_t(i)) ? 1 : *next++);
            t.dims = std::move(out);
            return t;
        }
        std::set<std::int64_t> drop;
        for (std::size_t i = 0; i < t.dims.size(); ++i)
            if (!list && t.dims[i] == 1) drop.insert(std::int64_t(i));
        if (list)
            for (std::int64_t a : *list) {
                const std::int64_t axis = axisIn(a, t.dims.size());
                if (t.dims[std::size_t(axis)] != 1) noFold();
                drop.insert(axis);
            }
        Dims out;
        for (std::size_t i = 0; i < t.dims.size(); ++i)
            if (!drop.count(std::int64_t(i))) out.push_back(t.dims[i]);
        t.dims = std::move(out);
        return t;
    }

    OnnxIntTensor concat() const {
        if (node_.input_size() == 0) noFold();
        const OnnxIntTensor& first = value(0);
        const std::int64_t axis = axisIn(intAttribute(node_, "axis", 0), first.dims.size());
        OnnxIntTensor out{first.dataType, first.dims, {}};
        out.dims[std::size_t(axis)] = 0;
        for (int i = 0; i < node_.input_size(); ++i) {
            const OnnxIntTensor& t = value(i);
            if (t.dims.size() != first.dims.size()) noFold();
            for (std::size_t d = 0; d < t.dims.size(); ++d)
                if (d != std::size_t(axis) && t.dims[d] != first.dims[d]) noFold();
            out.dims[std::size_t(axis)] += t.dims[std::size_t(axis)];
        }
        count(out.dims);
        const std::int64_t outer = product(Dims(first.dims.begin(), first.dims.begin() + axis));
        for (std::int64_t o = 0; o < outer; ++o)
            for (int i = 0; i < node_.input_size(); ++i) {
                const OnnxIntTensor& t = value(i);
                const std::int64_t chunk = product(Dims(t.dims.begin() + axis, t.dims.end()));
                for (std::int64_t k = 0; k < chunk; ++k)
                    out.values.push_back(t.values[std::size_t(o * chunk + k)]);
            }
        return out;
    }

    OnnxIntTensor slice() const {
        const OnnxIntTensor& data = value(0);
        const std::size_t rank = data.dims.size();
        Dims starts, ends, axes, steps;
        if (node_.input_size() >= 3) {
            starts = value(1).values;
            ends = value(2).values;
            if (given(3)) axes = value(3).values;
            if (given(4)) steps = value(4).values;
        } else {
            const auto* s = attribute(node_, "starts");
            const auto* e = attribute(node_, "ends");
            if (!s || !e) noFold();
            starts.assign(s->ints().begin(), s->ints().end());
            ends.assign(e->ints().begin(), e->ints().end());
            if (const auto* a = attribute(node_, "axes"))
                axes.assign(a->ints().begin(), a->ints().end());
        }
        if (axes.empty())
            for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(std::int64_t(i));
        if (steps.empty()) steps.assign(starts.size(), 1);
        if (ends.size() != starts.size() || axes.size() != starts.size() ||
            steps.size() != starts.size())
            noFold();
        Dims start(rank, 0), step(rank, 1), outDims = data.dims;
        std::set<std::int64_t> seen;
        for (std::size_t k = 0; k < starts.size(); ++k) {
            const auto a = std::size_t(axisIn(axes[k], rank));
            if (!seen.insert(std::int64_t(a)).second || steps[k] == 0 || steps[k] == kMin) noFold();
            const std::int64_t d = data.dims[a], s = steps[k];
            if (d == 0) {
                outDims[a] = 0;
                continue;
            }
            std::int64_t b = starts[k] < 0 ? starts[k] + d : starts[k];
            std::int64_t e = ends[k] < 0 ? ends[k] + d : ends[k];
            b = s > 0 ? std::clamp<std::int64_t>(b, 0, d) : std::clamp<std::int64_t>(b, 0, d - 1);
            e = s > 0 ? std::clamp<std::int64_t>(e, 0, d) : std::clamp<std::int64_t>(e, -1, d - 1);
            const std::int64_t span = s > 0 ? e - b : b - e, by = s > 0 ? s : -s;
            outDims[a] = span <= 0 ? 0 : (span + by - 1) / by;
            start[a] = b;
            step[a] = s;
        }
        OnnxIntTensor out{data.dataType, outDims, {}};
        const std::int64_t n = count(outDims);
        for (std::int64_t flat = 0; flat < n; ++flat) {
            std::int64_t rest = flat, index = 0, stride = 1;
            for (std::size_t k = rank; k-- > 0;) {
                const std::int64_t coord = rest % outDims[k];
                rest /= outDims[k];
                index += (start[k] + coord * step[k]) * stride;
                stride *= data.dims[k];
            }
            out.values.push_back(data.values[std::size_t(index)]);
        }
        return out;
    }

    OnnxIntTensor reshape() const {
        OnnxIntTensor t = value(0);
        const bool allowZero = intAttribute(node_, "allowzero", 0) != 0;
        Dims out = value(1).values;
        int inferred = -1;
        std::int64_t known = 1;
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (out[i] == 0 && !allowZero) {
                if (i >= t.dims.size()) noFold();
                out[i] = t.dims[i];
            }
            if (out[i] == -1) {
                if (inferred >= 0) noFold();
                inferred = int(i);
            } else if (out[i] < 0) {
                noFold();
            } else {
                known = product({known, out[i]});
            }
        }
        const auto n = std::int64_t(t.values.size());
        if (inferred >= 0) {
            if (known == 0 || n % known != 0) noFold();
            out[std::size_t(inferred)] = n / known;
        }
        if (product(out) != n) noFold();
        t.dims = std::move(out);
        return t;
    }

    OnnxIntTensor range() const {
        const std::int64_t start = single(value(0)), limit = single(value(1));
        const std::int64_t delta = single(value(2));
        if (delta == 0) noFold();
        // ceil((limit − start) / delta), at least 0.
        std::int64_t span = 0, n = 0;
        if (__builtin_sub_overflow(limit, start, &span) || span == kMin) noFold();  // far too long
        if ((delta > 0 && span > 0) || (delta < 0 && span < 0))
            n = span / delta + (span % delta != 0 ? 1 : 0);
        if (n > kMaxFoldedElements) noFold();
        OnnxIntTensor out{value(0).dataType, {std::int64_t(n)}, {}};
        for (std::int64_t i = 0; i < std::int64_t(n); ++i) out.values.push_back(start + i * delta);
        return out;
    }

    OnnxIntTensor constantOfShape() const {
        const auto* a = attribute(node_, "value");
        if (!a || !a->has_t()) noFold();  // the default is a float zero
        const auto fill = readOnnxIntTensor(a->t());
        if (!fill || fill->values.size() != 1) noFold();
        const Dims& shape = value(0).values;
        return {fill->dataType, shape, Dims(std::size_t(count(shape)), fill->values[0])};
    }

    OnnxIntTensor expand() const {
        auto out = broadcastOnnxInts(value(0), value(1).values);
        if (!out) noFold();
        return *out;
    }

    OnnxIntTensor elementwise(const std::string& op) const {
        std::vector<const OnnxIntTensor*> args;
        for (int i = 0; i < node_.input_size(); ++i) args.push_back(&value(i));
        auto out = foldOnnxElementwise(op, args, intAttribute(node_, "fmod", 0) != 0);
        if (!out) noFold();
        return *out;
    }

    const onnx::NodeProto& node_;
    const std::vector<OnnxFoldInput>& in_;
};

}  // namespace

std::optional<std::vector<OnnxIntTensor>> foldOnnxNode(const onnx::NodeProto& node,
                                                       const std::vector<OnnxFoldInput>& inputs) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") return std::nullopt;
    if (node.output_size() != 1 || node.output(0).empty()) return std::nullopt;
    try {
        std::vector<OnnxIntTensor> out = Folder(node, inputs).run();
        for (const OnnxIntTensor& t : out)
            if (std::int64_t(t.values.size()) > kMaxFoldedElements) return std::nullopt;
        return out;
    } catch (const NoFold&) {
        return std::nullopt;
    }
}

}  // namespace tandem::core::importers
