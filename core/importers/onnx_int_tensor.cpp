// Reading and writing the small integer tensors of onnx_shape_folding.h, and the check that a
// TensorProto carries all of its data.
#include <cstring>
#include <limits>

#include "core/importers/onnx_int_tensor.h"

namespace tandem::core::importers {

namespace {

using T = onnx::TensorProto;

// Bytes per element in raw_data; 0 for types raw_data cannot hold (strings, unknown).
std::int64_t rawElementBytes(int dataType) {
    switch (dataType) {
        case T::UINT8:
        case T::INT8:
        case T::BOOL:
            return 1;
        case T::UINT16:
        case T::INT16:
        case T::FLOAT16:
        case T::BFLOAT16:
            return 2;
        case T::FLOAT:
        case T::INT32:
        case T::UINT32:
            return 4;
        case T::INT64:
        case T::UINT64:
        case T::DOUBLE:
        case T::COMPLEX64:
            return 8;
        case T::COMPLEX128:
            return 16;
        default:
            return 0;
    }
}

// How many entries of its typed field a tensor of `elements` elements has, and which field.
std::int64_t typedFieldSize(const T& t) {
    switch (t.data_type()) {
        case T::FLOAT:
        case T::COMPLEX64:
            return t.float_data_size();
        case T::DOUBLE:
        case T::COMPLEX128:
            return t.double_data_size();
        case T::INT64:
            return t.int64_data_size();
        case T::UINT32:
        case T::UINT64:
            return t.uint64_data_size();
        case T::STRING:
            return t.string_data_size();
        default:
            return t.int32_data_size();
    }
}

}  // namespace

std::int64_t normalizeOnnxInt(int dataType, std::int64_t v) {
    switch (dataType) {
        case T::BOOL:
            return v != 0 ? 1 : 0;
        case T::INT8:
            return std::int8_t(v);
        case T::UINT8:
            return std::uint8_t(v);
        case T::INT16:
            return std::int16_t(v);
        case T::UINT16:
            return std::uint16_t(v);
        case T::INT32:
            return std::int32_t(v);
        case T::UINT32:
            return std::uint32_t(v);
        default:
            return v;
    }
}

namespace {

std::int64_t readRaw(const std::string& raw, std::size_t index, int dataType) {
    const auto bytes = std::size_t(rawElementBytes(dataType));
    unsigned char buffer[8] = {};
    std::memcpy(buffer, raw.data() + index * bytes, bytes);
    std::uint64_t value = 0;
    for (std::size_t b = 0; b < bytes; ++b) value |= std::uint64_t(buffer[b]) << (8 * b);
    return normalizeOnnxInt(dataType,
                            std::int64_t(value));  // little-endian, then sign or zero extend
}

}  // namespace

std::optional<std::int64_t> foldableElementCount(const std::vector<std::int64_t>& dims) {
    std::int64_t n = 1;
    for (std::int64_t d : dims) {
        if (d < 0 || (d != 0 && n > kMaxFoldedElements / d)) return std::nullopt;
        n *= d;
    }
    if (n > kMaxFoldedElements) return std::nullopt;
    return n;
}

bool isOnnxIntegerType(int dataType) {
    switch (dataType) {
        case T::UINT8:
        case T::INT8:
        case T::UINT16:
        case T::INT16:
        case T::INT32:
        case T::INT64:
        case T::BOOL:
        case T::UINT32:
        case T::UINT64:
            return true;
        default:
            return false;
    }
}

bool hasCompleteOnnxData(const onnx::TensorProto& t) {
    if (t.data_location() == T::EXTERNAL) return false;
    std::int64_t elements = 1;
    for (std::int64_t d : t.dims()) {
        if (d < 0 || (d != 0 && elements > std::numeric_limits<std::int64_t>::max() / d))
            return false;
        elements *= d;
    }
    const bool complex = t.data_type() == T::COMPLEX64 || t.data_type() == T::COMPLEX128;
    if (!t.raw_data().empty()) {
        const std::int64_t bytes = rawElementBytes(t.data_type());
        return bytes > 0 && elements <= std::numeric_limits<std::int64_t>::max() / bytes &&
               std::int64_t(t.raw_data().size()) == elements * bytes;
    }
    if (elements > std::numeric_limits<std::int64_t>::max() / 2) return false;
    return typedFieldSize(t) == (complex ? 2 * elements : elements);
}

std::optional<OnnxIntTensor> readOnnxIntTensor(const onnx::TensorProto& t) {
    if (!isOnnxIntegerType(t.data_type()) || !hasCompleteOnnxData(t)) return std::nullopt;
    OnnxIntTensor out;
    out.dataType = t.data_type();
    std::int64_t elements = 1;
    for (std::int64_t d : t.dims()) {
        elements *= d;  // complete data: no overflow, and the product is the payload's size
        out.dims.push_back(d);
    }
    if (elements > kMaxFoldedElements) return std::nullopt;
    out.values.reserve(std::size_t(elements));
    for (std::int64_t i = 0; i < elements; ++i) {
        const auto k = int(i);
        std::int64_t v = 0;
        if (!t.raw_data().empty())
            v = readRaw(t.raw_data(), std::size_t(i), t.data_type());
        else if (t.data_type() == T::INT64)
            v = t.int64_data(k);
        else if (t.data_type() == T::UINT32 || t.data_type() == T::UINT64)
            v = std::int64_t(t.uint64_data(k));
        else
            v = t.int32_data(k);
        out.values.push_back(normalizeOnnxInt(t.data_type(), v));
    }
    return out;
}

onnx::TensorProto toOnnxTensor(const OnnxIntTensor& tensor, const std::string& name) {
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(tensor.dataType);
    for (std::int64_t d : tensor.dims) t.add_dims(d);
    for (std::int64_t v : tensor.values) {
        const std::int64_t n = normalizeOnnxInt(tensor.dataType, v);
        if (tensor.dataType == T::INT64)
            t.add_int64_data(n);
        else if (tensor.dataType == T::UINT32 || tensor.dataType == T::UINT64)
            t.add_uint64_data(std::uint64_t(n));
        else
            t.add_int32_data(std::int32_t(n));
    }
    return t;
}

}  // namespace tandem::core::importers
