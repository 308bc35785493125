// foldOnnxElementwise and broadcastOnnxInts (onnx_int_elementwise.h).
#include "core/importers/onnx_int_elementwise.h"

#include <algorithm>
#include <functional>
#include <limits>
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

// Numpy broadcasting of several tensors; `f` maps one element of each to the result.
OnnxIntTensor broadcast(const std::vector<const OnnxIntTensor*>& args, int type,
                        const std::function<std::int64_t(const Dims&)>& f) {
    Dims out;
    for (const OnnxIntTensor* a : args) {
        if (a->dims.size() > out.size()) out.insert(out.begin(), a->dims.size() - out.size(), 1);
        for (std::size_t i = 0; i < a->dims.size(); ++i) {
            std::int64_t& o = out[out.size() - a->dims.size() + i];
            const std::int64_t d = a->dims[i];
            if (o == 1)
                o = d;
            else if (d != 1 && d != o)
                noFold();
        }
    }
    const std::int64_t n = count(out);
    OnnxIntTensor result{type, out, {}};
    Dims operands(args.size());
    for (std::int64_t flat = 0; flat < n; ++flat) {
        for (std::size_t j = 0; j < args.size(); ++j) {
            const Dims& in = args[j]->dims;
            std::int64_t rest = flat, index = 0, stride = 1;
            for (std::size_t k = out.size(), m = in.size(); k-- > 0;) {
                const std::int64_t coord = rest % out[k];
                rest /= out[k];
                if (m-- > 0) {
                    if (in[m] != 1) index += coord * stride;
                    stride *= in[m];
                }
            }
            operands[j] = args[j]->values[std::size_t(index)];
        }
        result.values.push_back(f(operands));
    }
    return result;
}

OnnxIntTensor unary(const std::string& op, const OnnxIntTensor& arg) {
    OnnxIntTensor t = arg;
    for (std::int64_t& v : t.values) {
        if (op != "Not" && v == kMin) noFold();
        v = op == "Neg" ? -v : op == "Abs" ? (v < 0 ? -v : v) : std::int64_t(v == 0);
        v = normalizeOnnxInt(t.dataType, v);
    }
    return t;
}

OnnxIntTensor binary(const std::string& op, const std::vector<const OnnxIntTensor*>& args,
                     bool fmod) {
    using I = std::int64_t;
    using Op = I (*)(I, I);
    static const std::pair<std::string_view, Op> kComparisons[] = {
        {"Equal", [](I a, I b) -> I { return a == b; }},
        {"Less", [](I a, I b) -> I { return a < b; }},
        {"LessOrEqual", [](I a, I b) -> I { return a <= b; }},
        {"Greater", [](I a, I b) -> I { return a > b; }},
        {"GreaterOrEqual", [](I a, I b) -> I { return a >= b; }},
        {"And", [](I a, I b) -> I { return a != 0 && b != 0; }},
        {"Or", [](I a, I b) -> I { return a != 0 || b != 0; }},
        {"Xor", [](I a, I b) -> I { return (a != 0) != (b != 0); }},
    };
    Op f = nullptr;
    bool boolean = false;
    if (op == "Add")
        f = [](I a, I b) { return __builtin_add_overflow(a, b, &a) ? (noFold(), a) : a; };
    else if (op == "Sub")
        f = [](I a, I b) { return __builtin_sub_overflow(a, b, &a) ? (noFold(), a) : a; };
    else if (op == "Mul")
        f = [](I a, I b) { return __builtin_mul_overflow(a, b, &a) ? (noFold(), a) : a; };
    else if (op == "Div")
        f = [](I a, I b) { return b == 0 || (a == kMin && b == -1) ? (noFold(), a) : a / b; };
    else if (op == "Mod" && fmod)
        f = [](I a, I b) { return b == 0 || (a == kMin && b == -1) ? (noFold(), a) : a % b; };
    else if (op == "Mod")  // the sign of the divisor, as in Python
        f = [](I a, I b) {
            if (b == 0 || (a == kMin && b == -1)) noFold();
            const I r = a % b;
            return r == 0 || (r < 0) == (b < 0) ? r : r + b;
        };
    else if (op == "Min")
        f = [](I a, I b) { return std::min(a, b); };
    else if (op == "Max")
        f = [](I a, I b) { return std::max(a, b); };
    for (const auto& [name, g] : kComparisons)
        if (op == name) {
            f = g;
            boolean = true;
        }
    const bool variadic = op == "Min" || op == "Max";
    if (!f || args.empty() || (!variadic && args.size() != 2)) noFold();
    OnnxIntTensor acc = *args[0];
    for (std::size_t i = 1; i < args.size(); ++i) {
        acc = broadcast({&acc, args[i]}, boolean ? int(T::BOOL) : acc.dataType,
                        [f](const Dims& v) { return f(v[0], v[1]); });
    }
    for (std::int64_t& v : acc.values) v = normalizeOnnxInt(acc.dataType, v);
    return acc;
}

}  // namespace

std::optional<OnnxIntTensor> foldOnnxElementwise(const std::string& op,
                                                 const std::vector<const OnnxIntTensor*>& args,
                                                 bool fmod) {
    try {
        if (op == "Where") {
            if (args.size() != 3) return std::nullopt;
            return broadcast(args, args[1]->dataType,
                             [](const Dims& v) { return v[0] ? v[1] : v[2]; });
        }
        if (op == "Neg" || op == "Abs" || op == "Not") {
            if (args.size() != 1) return std::nullopt;
            return unary(op, *args[0]);
        }
        return binary(op, args, fmod);
    } catch (const NoFold&) {
        return std::nullopt;
    }
}

std::optional<OnnxIntTensor> broadcastOnnxInts(const OnnxIntTensor& data, const Dims& dims) {
    try {
        const OnnxIntTensor target{T::INT64, dims, Dims(std::size_t(count(dims)), 0)};
        return broadcast({&data, &target}, data.dataType, [](const Dims& v) { return v[0]; });
    } catch (const NoFold&) {
        return std::nullopt;
    }
}

}  // namespace tandem::core::importers
