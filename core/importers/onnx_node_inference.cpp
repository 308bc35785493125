// OnnxNodeInference (onnx_node_inference.h).
#include "core/importers/onnx_node_inference.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <exception>
#include <memory>
#include <optional>

#include "core/importers/onnx_node_checks.h"
#include "core/importers/onnx_node_context.h"
#include "core/importers/onnx_op_table.h"
#include "core/importers/onnx_shape_folding.h"

namespace tandem::core::importers {

namespace {

bool fullyKnown(const onnx::TypeProto* type) {
    if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape()) return false;
    for (const auto& dim : type->tensor_type().shape().dim())
        if (!dim.has_dim_value() || dim.dim_value() < 0) return false;
    return true;
}

std::string shown(const onnx::TypeProto& type) {
    if (!type.has_tensor_type()) return "a non-tensor";
    const auto& t = type.tensor_type();
    std::string s = "element type " + std::to_string(t.elem_type());
    if (!t.has_shape()) return s;
    s += ", shape [";
    for (int i = 0; i < t.shape().dim_size(); ++i)
        s += (i ? ", " : "") + (t.shape().dim(i).has_dim_value()
                                    ? std::to_string(t.shape().dim(i).dim_value())
                                    : std::string("?"));
    return s + "]";
}

// The inferred type completed by the declared one; a contradiction is an error.
std::optional<std::string> merge(onnx::TypeProto& inferred, const onnx::TypeProto& declared) {
    if (inferred.value_case() == onnx::TypeProto::VALUE_NOT_SET) {
        inferred = declared;
        return std::nullopt;
    }
    if (!inferred.has_tensor_type() || !declared.has_tensor_type()) return std::nullopt;
    auto* in = inferred.mutable_tensor_type();
    const auto& de = declared.tensor_type();
    const std::string conflict =
        "is declared with " + shown(declared) + " but ONNX infers " + shown(inferred);
    if (in->elem_type() != 0 && de.elem_type() != 0 && in->elem_type() != de.elem_type())
        return conflict;
    if (in->elem_type() == 0) in->set_elem_type(de.elem_type());
    if (!de.has_shape()) return std::nullopt;
    if (!in->has_shape()) {
        *in->mutable_shape() = de.shape();
        return std::nullopt;
    }
    if (in->shape().dim_size() != de.shape().dim_size()) return conflict;
    for (int i = 0; i < de.shape().dim_size(); ++i) {
        auto* d = in->mutable_shape()->mutable_dim(i);
        const auto& e = de.shape().dim(i);
        if (!e.has_dim_value()) continue;
        if (d->has_dim_value() && d->dim_value() != e.dim_value()) return conflict;
        d->set_dim_value(e.dim_value());
    }
    return std::nullopt;
}

// Infers a subgraph attribute (If/Loop/Scan) by the same walk as its enclosing graph.
class SubgraphInferencer final : public onnx::GraphInferencer {
public:
    SubgraphInferencer(OnnxNodeInference& walk, const onnx::GraphProto& graph,
                       const OnnxValueScope& outer, OnnxNodeInference::Frame frame)
        : walk_(walk), graph_(graph), outer_(outer), frame_(std::move(frame)) {}

    std::vector<const onnx::TypeProto*> doInferencing(
        const std::vector<const onnx::TypeProto*>& inputTypes,
        const std::vector<const onnx::TensorProto*>& inputData) override {
        scope_ = std::make_unique<OnnxValueScope>(&outer_);
        declared_ = walk_.declaredTypes(graph_);
        frame_.declared = &declared_;
        OnnxNodeInference::addInitializers(graph_, *scope_);
        for (int i = 0; i < graph_.input_size(); ++i) {
            const auto& input = graph_.input(i);
            const auto at = std::size_t(i);
            onnx::TypeProto type = input.type();
            walk_.bind(type);
            if (at < inputTypes.size() && inputTypes[at]) type = *inputTypes[at];
            scope_->setType(input.name(), std::move(type));
            if (at < inputData.size() && inputData[at])
                scope_->setData(input.name(), *inputData[at]);
        }
        for (int i = 0; i < graph_.node_size(); ++i)
            walk_.infer(graph_.node(i), i, *scope_, frame_);
        results_.assign(std::size_t(graph_.output_size()), onnx::TypeProto());
        std::vector<const onnx::TypeProto*> out;
        for (int i = 0; i < graph_.output_size(); ++i) {
            const std::string& name = graph_.output(i).name();
            onnx::TypeProto& result = results_[std::size_t(i)];
            if (const onnx::TypeProto* t = scope_->type(name)) result = *t;
            if (const auto d = declared_.find(name); d != declared_.end()) merge(result, d->second);
            out.push_back(&result);
        }
        return out;
    }

private:
    OnnxNodeInference& walk_;
    const onnx::GraphProto& graph_;
    const OnnxValueScope& outer_;
    OnnxNodeInference::Frame frame_;
    std::unique_ptr<OnnxValueScope> scope_;
    OnnxDeclaredTypes declared_;
    std::vector<onnx::TypeProto> results_;
};

std::string describe(const onnx::NodeProto& node, int index) {
    const std::string name = node.name().empty() ? "#" + std::to_string(index) : node.name();
    return "node '" + name + "' (" + (node.domain().empty() ? "" : node.domain() + ".") +
           node.op_type() + ")";
}

}  // namespace

OnnxNodeInference::OnnxNodeInference(const onnx::ModelProto& model, const OnnxPlan& plan,
                                     std::int64_t batch, std::int64_t sequence)
    : opsets_(readOnnxOpsets(model)),
      functions_(model),
      plan_(plan),
      batch_(batch),
      sequence_(sequence) {}

void OnnxNodeInference::bind(onnx::TypeProto& type) const {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return;
    for (auto& dim : *type.mutable_tensor_type()->mutable_shape()->mutable_dim()) {
        if (!dim.has_dim_param()) continue;
        const auto it = plan_.symbols.find(dim.dim_param());
        if (it == plan_.symbols.end())
            dim.clear_dim_param();
        else
            dim.set_dim_value(it->second == SymbolRole::Batch ? batch_ : sequence_);
    }
}

OnnxDeclaredTypes OnnxNodeInference::declaredTypes(const onnx::GraphProto& graph) const {
    OnnxDeclaredTypes declared;
    for (const auto* list : {&graph.value_info(), &graph.output()})
        for (const onnx::ValueInfoProto& v : *list) {
            if (!v.has_type()) continue;
            onnx::TypeProto type = v.type();
            bind(type);
            declared.insert_or_assign(v.name(), std::move(type));
        }
    return declared;
}

void OnnxNodeInference::addInitializers(const onnx::GraphProto& graph, OnnxValueScope& scope) {
    for (const onnx::TensorProto& t : graph.initializer()) {
        onnx::TypeProto type;
        type.mutable_tensor_type()->set_elem_type(t.data_type());
        auto* shape = type.mutable_tensor_type()->mutable_shape();
        for (std::int64_t d : t.dims()) shape->add_dim()->set_dim_value(d);
        scope.setType(t.name(), std::move(type));
        scope.setData(t.name(), t);
    }
}

void OnnxNodeInference::fail(const onnx::NodeProto& node, int index, const Frame& frame,
                             const std::string& problem) {
    throw OnnxInferenceFailure{describe(node, index) + frame.context + ": " + problem};
}

void OnnxNodeInference::infer(const onnx::NodeProto& node, int index, OnnxValueScope& scope,
                              const Frame& frame) {
    if (frame.depth > kMaxDepth)
        fail(node, index, frame,
             "subgraphs and function calls are nested more than " + std::to_string(kMaxDepth) +
                 " deep");
    std::vector<OnnxNodeInput> inputs;
    for (const std::string& name : node.input())
        inputs.push_back({name.empty() ? nullptr : scope.type(name),
                          name.empty() ? nullptr : scope.intValue(name)});
    if (const auto problem = checkOnnxNodeInputs(node, inputs)) fail(node, index, frame, *problem);

    std::vector<onnx::TypeProto> outputs(std::size_t(node.output_size()));
    if (const onnx::FunctionProto* f = functions_.calledBy(node, *frame.opsets))
        callFunction(*f, node, index, scope, frame, outputs);
    else
        runSchema(node, index, scope, frame, outputs);
    record(node, index, scope, frame, outputs);
}

void OnnxNodeInference::runSchema(const onnx::NodeProto& node, int index, OnnxValueScope& scope,
                                  const Frame& frame, std::vector<onnx::TypeProto>& outputs) {
    const std::string domain = normalOnnxDomain(node.domain());
    const auto opset = frame.opsets->find(domain);
    if (opset == frame.opsets->end()) return;  // a domain the model does not import: unknown
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Schema(node.op_type(), opset->second, domain);
    if (!schema) return;
    Frame inner = frame;
    inner.depth = frame.depth + 1;
    OnnxNodeContext context(node, scope, [&](const onnx::GraphProto& graph, const std::string& a) {
        inner.context = " in attribute " + a + " of " + describe(node, index) + frame.context;
        return std::make_unique<SubgraphInferencer>(*this, graph, scope, inner);
    });
    try {
        if (schema->has_type_and_shape_inference_function())
            schema->GetTypeAndShapeInferenceFunction()(context);
        else if (schema->HasFunction() && schema->GetFunction())
            onnx::shape_inference::InferShapeForFunctionNode(
                *schema->GetFunction(), onnx::OpSchemaRegistry::Instance(), context);
        else
            return;
    } catch (const std::exception& e) {
        for (int i = 0; i < node.input_size(); ++i)
            if (!node.input(i).empty() && !scope.type(node.input(i))) return;  // unknown input
        fail(node, index, frame,
             std::string("ONNX shape inference refuses it: ") + e.what() +
                 (firstAssumption_.empty()
                      ? ""
                      : " (note: the outputs of " + firstAssumption_ +
                            " and of any later operator Tandem cannot infer were assumed to "
                            "have their first input's shape, which may be wrong)"));
    }
    outputs = std::move(context.outputs());
}

void OnnxNodeInference::callFunction(const onnx::FunctionProto& function,
                                     const onnx::NodeProto& node, int index,
                                     const OnnxValueScope& scope, const Frame& frame,
                                     std::vector<onnx::TypeProto>& outputs) {
    // The body's attribute references (ref_attr_name) take the caller's attributes. The nodes
    // outlive `body`, which may point into their Constant values.
    std::vector<onnx::NodeProto> nodes(function.node().begin(), function.node().end());
    for (onnx::NodeProto& n : nodes) {
        google::protobuf::RepeatedPtrField<onnx::AttributeProto> resolved;
        for (const onnx::AttributeProto& a : n.attribute()) {
            if (a.ref_attr_name().empty()) {
                *resolved.Add() = a;
                continue;
            }
            for (const onnx::AttributeProto& given : node.attribute())
                if (given.name() == a.ref_attr_name()) {
                    onnx::AttributeProto* copy = resolved.Add();
                    *copy = given;
                    copy->set_name(a.name());
                }
        }
        n.mutable_attribute()->Swap(&resolved);
    }
    OnnxValueScope body;  // a function sees only its inputs
    for (int i = 0; i < function.input_size() && i < node.input_size(); ++i) {
        if (node.input(i).empty()) continue;
        if (const onnx::TypeProto* t = scope.type(node.input(i)))
            body.setType(function.input(i), *t);
        if (const onnx::TensorProto* d = scope.data(node.input(i)))
            body.setData(function.input(i), *d);
    }
    const OnnxOpsets opsets = readOnnxOpsets(function, opsets_);
    Frame inner{&opsets, nullptr,
                " in function " + OnnxLocalFunctions::nameOf(function) + " called by " +
                    describe(node, index) + frame.context,
                frame.depth + 1};
    for (std::size_t i = 0; i < nodes.size(); ++i) infer(nodes[i], int(i), body, inner);
    for (int i = 0; i < node.output_size() && i < function.output_size(); ++i)
        if (const onnx::TypeProto* t = body.type(function.output(i))) outputs[std::size_t(i)] = *t;
}

void OnnxNodeInference::record(const onnx::NodeProto& node, int index, OnnxValueScope& scope,
                               const Frame& frame, std::vector<onnx::TypeProto>& outputs) {
    const OnnxOpInfo* info = findOnnxOp(node.domain(), node.op_type());
    const bool assumeFromInput = !info || info->shape == VectorShape::Elementwise;
    const onnx::TypeProto* first =
        node.input_size() > 0 && !node.input(0).empty() ? scope.type(node.input(0)) : nullptr;
    for (int i = 0; i < node.output_size(); ++i) {
        const std::string& name = node.output(i);
        if (name.empty()) continue;
        onnx::TypeProto& type = outputs[std::size_t(i)];
        if (frame.declared)
            if (const auto d = frame.declared->find(name); d != frame.declared->end())
                if (const auto conflict = merge(type, d->second))
                    fail(node, index, frame, "its output '" + name + "' " + *conflict);
        if (!fullyKnown(&type) && assumeFromInput && fullyKnown(first)) {
            type = *first;
            if (firstAssumption_.empty()) firstAssumption_ = describe(node, index) + frame.context;
        }
        if (type.value_case() != onnx::TypeProto::VALUE_NOT_SET) scope.setType(name, type);
    }
    // Constant values (also floats, for the library) and folded integer tensors.
    if (node.op_type() == "Constant" && node.output_size() == 1)
        for (const onnx::AttributeProto& a : node.attribute())
            if (a.name() == "value" && a.has_t()) scope.setData(node.output(0), a.t());
    std::vector<OnnxFoldInput> values;
    for (const std::string& name : node.input()) {
        OnnxFoldInput in;
        if (!name.empty()) {
            in.value = scope.intValue(name);
            const onnx::TypeProto* t = scope.type(name);
            if (fullyKnown(t)) {
                in.dims.emplace();
                for (const auto& d : t->tensor_type().shape().dim())
                    in.dims->push_back(d.dim_value());
            }
        }
        values.push_back(std::move(in));
    }
    if (auto folded = foldOnnxNode(node, values)) {
        const onnx::TypeProto* inferred = scope.type(node.output(0));
        if (inferred && inferred->has_tensor_type() && inferred->tensor_type().elem_type() != 0 &&
            inferred->tensor_type().elem_type() != folded->front().dataType)
            return;  // the library disagrees on the type: trust inference, do not fold
        scope.setFolded(node.output(0), std::move(folded->front()));
    }
}

}  // namespace tandem::core::importers
