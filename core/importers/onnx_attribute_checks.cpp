#include "core/importers/onnx_attribute_checks.h"

#include <array>
#include <string_view>

namespace tandem::core::importers {

namespace {

struct Rule {
    std::string_view attribute;
    std::int64_t minimum;
};

// Attributes whose values ONNX's inference divides by or uses as sizes. No real model comes
// near 2^31 for any of them, and the bound keeps the library's arithmetic from overflowing:
// DepthToSpace divides the channels by blocksize², which is 0 in 64 bits for 2^32 (SIGFPE).
constexpr std::int64_t kMaximum = (std::int64_t(1) << 31) - 1;
constexpr std::array<Rule, 7> kRules{{{"strides", 1},
                                      {"dilations", 1},
                                      {"kernel_shape", 1},
                                      {"pads", 0},
                                      {"output_padding", 0},
                                      {"group", 1},
                                      {"blocksize", 1}}};

std::string range(const Rule& rule) {
    return "between " + std::to_string(rule.minimum) + " and " + std::to_string(kMaximum);
}

std::string describe(const onnx::NodeProto& node) {
    return "node '" + node.name() + "' (" + node.op_type() + ")";
}

Status checkGraph(const onnx::GraphProto& graph, int depth);

Status checkNode(const onnx::NodeProto& node, int depth) {
    for (const onnx::AttributeProto& attribute : node.attribute()) {
        for (const Rule& rule : kRules) {
            if (attribute.name() != rule.attribute) continue;
            const bool single = attribute.type() == onnx::AttributeProto::INT;
            if (single && (attribute.i() < rule.minimum || attribute.i() > kMaximum))
                return Error{describe(node) + ": attribute " + attribute.name() + " = " +
                             std::to_string(attribute.i()) + " must be " + range(rule)};
            for (std::int64_t value : attribute.ints())
                if (value < rule.minimum || value > kMaximum)
                    return Error{describe(node) + ": attribute " + attribute.name() + " contains " +
                                 std::to_string(value) + "; values must be " + range(rule)};
        }
        if (attribute.has_g())
            if (Status s = checkGraph(attribute.g(), depth + 1); !s) return s;
        for (const onnx::GraphProto& g : attribute.graphs())
            if (Status s = checkGraph(g, depth + 1); !s) return s;
    }
    return {};
}

Status checkGraph(const onnx::GraphProto& graph, int depth) {
    if (depth > 64) return Error{"subgraphs are nested more than 64 deep"};
    for (const onnx::NodeProto& node : graph.node())
        if (Status s = checkNode(node, depth); !s) return s;
    return {};
}

}  // namespace

Status checkOnnxAttributes(const onnx::ModelProto& model) {
    if (Status s = checkGraph(model.graph(), 0); !s) return s;
    for (const onnx::FunctionProto& function : model.functions())
        for (const onnx::NodeProto& node : function.node())
            if (Status s = checkNode(node, 1); !s) return s;
    return {};
}

}  // namespace tandem::core::importers
