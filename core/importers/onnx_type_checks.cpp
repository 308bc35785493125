// checkOnnxElementTypes (onnx_type_checks.h).
#include "core/importers/onnx_type_checks.h"

#include <string>

namespace tandem::core::importers {

namespace {

constexpr const char* kAllowed =
    "ONNX element types are 1 FLOAT, 2 UINT8, 3 INT8, 4 UINT16, 5 INT16, 6 INT32, 7 INT64, "
    "8 STRING, 9 BOOL, 10 FLOAT16, 11 DOUBLE, 12 UINT32, 13 UINT64, 14 COMPLEX64, "
    "15 COMPLEX128, 16 BFLOAT16";

struct Bad {
    std::string message;
};

void require(std::int64_t type, const std::string& what) {
    if (type >= 1 && type <= 16) return;
    throw Bad{what + " has element type " + std::to_string(type) +
              (type == 0 ? " (UNDEFINED)" : " (unknown)") + "; " + kAllowed};
}

void checkType(const onnx::TypeProto& type, const std::string& what, int depth) {
    if (depth > 64) return;
    if (type.has_tensor_type()) require(type.tensor_type().elem_type(), what);
    if (type.has_sparse_tensor_type()) require(type.sparse_tensor_type().elem_type(), what);
    if (type.has_sequence_type()) checkType(type.sequence_type().elem_type(), what, depth + 1);
    if (type.has_optional_type()) checkType(type.optional_type().elem_type(), what, depth + 1);
    if (type.has_map_type()) checkType(type.map_type().value_type(), what, depth + 1);
}

void checkGraph(const onnx::GraphProto& graph, const std::string& where, int depth);

void checkNode(const onnx::NodeProto& node, const std::string& where, int depth) {
    const std::string name = "node '" + node.name() + "' (" + node.op_type() + ")" + where;
    for (const onnx::AttributeProto& a : node.attribute()) {
        const std::string what = name + " attribute " + a.name();
        if (a.has_t()) require(a.t().data_type(), what);
        for (const onnx::TensorProto& t : a.tensors()) require(t.data_type(), what);
        if (a.has_sparse_tensor()) require(a.sparse_tensor().values().data_type(), what);
        if (a.name() == "to" && node.op_type() == "Cast" &&
            (node.domain().empty() || node.domain() == "ai.onnx"))
            require(a.i(), what);
        if (depth < 64) {
            const std::string inner = " in attribute " + a.name() + " of " + name;
            if (a.has_g()) checkGraph(a.g(), inner, depth + 1);
            for (const onnx::GraphProto& g : a.graphs()) checkGraph(g, inner, depth + 1);
        }
    }
}

void checkGraph(const onnx::GraphProto& graph, const std::string& where, int depth) {
    for (const auto& v : graph.input())
        checkType(v.type(), "graph input '" + v.name() + "'" + where, 0);
    for (const auto& v : graph.output())
        checkType(v.type(), "graph output '" + v.name() + "'" + where, 0);
    for (const auto& v : graph.value_info())
        checkType(v.type(), "value_info '" + v.name() + "'" + where, 0);
    for (const auto& t : graph.initializer())
        require(t.data_type(), "initializer '" + t.name() + "'" + where);
    for (const auto& s : graph.sparse_initializer())
        require(s.values().data_type(), "sparse initializer '" + s.values().name() + "'" + where);
    for (const auto& node : graph.node()) checkNode(node, where, depth);
}

}  // namespace

Status checkOnnxElementTypes(const onnx::ModelProto& model) {
    try {
        checkGraph(model.graph(), "", 0);
        for (const onnx::FunctionProto& f : model.functions())
            for (const onnx::NodeProto& node : f.node())
                checkNode(node, " in function '" + f.name() + "'", 1);
    } catch (const Bad& bad) {
        return Error{bad.message};
    }
    return {};
}

}  // namespace tandem::core::importers
