#pragma once
// A minimal protobuf encoder for hand-made ONNX files in tests (field numbers from onnx.proto),
// so that tests can build models the Python generator cannot (files beyond 2 GB, odd symbolic
// dimensions, graphs that crash the ONNX library) without linking the ONNX library themselves.
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

// NodeProto fields to append to node(): an attribute, a domain.
// AttributeProto: name 1, i 3, t 5, g 6, ints 8, type 20 (INT 2, TENSOR 4, GRAPH 5, INTS 7).
inline std::string intAttribute(const std::string& name, std::int64_t value) {
    return bytes(5, bytes(1, name) + integer(3, std::uint64_t(value)) + integer(20, 2));
}
inline std::string intsAttribute(const std::string& name, const std::vector<std::int64_t>& values) {
    std::string body = bytes(1, name);
    for (std::int64_t v : values) body += integer(8, std::uint64_t(v));
    return bytes(5, body + integer(20, 7));
}
inline std::string graphAttribute(const std::string& name, const std::string& graphBody) {
    return bytes(5, bytes(1, name) + bytes(6, graphBody) + integer(20, 5));
}
inline std::string domain(const std::string& name) {
    return bytes(7, name);
}

// TensorProto: dims 1, data_type 2, int64_data 7, name 8. An int64 tensor with its values.
inline std::string int64Tensor(const std::string& name, const std::vector<std::int64_t>& dims,
                               const std::vector<std::int64_t>& values) {
    std::string out;
    for (std::int64_t d : dims) out += integer(1, std::uint64_t(d));
    out += integer(2, 7);
    for (std::int64_t v : values) out += integer(7, std::uint64_t(v));
    return out + bytes(8, name);
}
// A tensor of `elemType` with dims only (its data is not needed: a weight).
inline std::string tensorWithoutData(const std::string& name, int elemType,
                                     const std::vector<std::int64_t>& dims) {
    std::string out;
    for (std::int64_t d : dims) out += integer(1, std::uint64_t(d));
    return out + integer(2, std::uint64_t(elemType)) + bytes(8, name);
}
inline std::string tensorAttribute(const std::string& name, const std::string& tensor) {
    return bytes(5, bytes(1, name) + bytes(5, tensor) + integer(20, 4));
}

// ModelProto fields before the graph: IR version 8, default-domain opset 17.
inline std::string modelHeader() {
    return integer(1, 8) + bytes(8, integer(2, 17));
}

// A whole model around one graph body (GraphProto fields).
inline std::string model(const std::string& graphBody) {
    return modelHeader() + bytes(7, graphBody);
}

// OperatorSetIdProto: domain 1, version 2.
inline std::string opset(const std::string& domainName, std::int64_t version) {
    return (domainName.empty() ? std::string() : bytes(1, domainName)) +
           integer(2, std::uint64_t(version));
}

// FunctionProto: name 1, input 4, output 5, node 7, opset_import 9, domain 10.
inline std::string function(const std::string& domainName, const std::string& name,
                            const std::vector<std::string>& inputs,
                            const std::vector<std::string>& outputs,
                            const std::vector<std::string>& nodes) {
    std::string out = bytes(1, name);
    for (const std::string& in : inputs) out += bytes(4, in);
    for (const std::string& o : outputs) out += bytes(5, o);
    for (const std::string& n : nodes) out += bytes(7, n);
    return out + bytes(9, opset("", 17)) + bytes(9, opset(domainName, 1)) + bytes(10, domainName);
}

// A model importing opset 17 and `domainName` version 1, with model-local functions (field 25).
inline std::string modelWithFunctions(const std::string& graphBody, const std::string& domainName,
                                      const std::vector<std::string>& functions) {
    std::string out = integer(1, 8) + bytes(8, opset("", 17)) + bytes(8, opset(domainName, 1)) +
                      bytes(7, graphBody);
    for (const std::string& f : functions) out += bytes(25, f);
    return out;
}

constexpr int kFloat = 1;
constexpr int kInt64 = 7;

}  // namespace onnx_test
