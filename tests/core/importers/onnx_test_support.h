#pragma once
// A minimal protobuf encoder for hand-made ONNX files in tests (field numbers from onnx.proto),
// so that tests can build models the Python generator cannot (files beyond 2 GB, odd symbolic
// dimensions) without linking the ONNX library themselves.
#include <cstdint>
#include <string>
#include <vector>

namespace onnx_test {

inline std::string varint(std::uint64_t v) {
    std::string out;
    while (v >= 0x80) {
        out.push_back(char(v | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
    return out;
}
inline std::string tag(int field, int wire) {
    return varint(std::uint64_t(field) << 3 | unsigned(wire));
}
inline std::string integer(int field, std::uint64_t v) {
    return tag(field, 0) + varint(v);
}
inline std::string bytes(int field, const std::string& payload) {
    return tag(field, 2) + varint(payload.size()) + payload;
}

// A dimension: a number, or a symbolic name when `param` is non-empty.
struct Dim {
    std::int64_t value = 0;
    std::string param;
};

inline std::string valueInfo(const std::string& name, int elemType, const std::vector<Dim>& dims) {
    std::string shape;
    for (const Dim& d : dims)
        shape += bytes(1, d.param.empty() ? integer(1, std::uint64_t(d.value)) : bytes(2, d.param));
    const std::string tensorType = integer(1, std::uint64_t(elemType)) + bytes(2, shape);
    return bytes(1, name) + bytes(2, bytes(1, tensorType));
}

inline std::string node(const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name,
                        const std::string& opType) {
    std::string out;
    for (const std::string& in : inputs) out += bytes(1, in);
    for (const std::string& o : outputs) out += bytes(2, o);
    return out + bytes(3, name) + bytes(4, opType);
}

// ModelProto fields before the graph: IR version 8, default-domain opset 17.
inline std::string modelHeader() {
    return integer(1, 8) + bytes(8, integer(2, 17));
}

// A whole model around one graph body (GraphProto fields).
inline std::string model(const std::string& graphBody) {
    return modelHeader() + bytes(7, graphBody);
}

constexpr int kFloat = 1;

}  // namespace onnx_test
