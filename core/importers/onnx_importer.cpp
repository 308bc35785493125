#include "core/importers/onnx_importer.h"

#include <exception>
#include <limits>
#include <memory>
#include <unordered_set>

#include "core/importers/onnx_attribute_checks.h"
#include "core/importers/onnx_import_state.h"
#include "core/importers/onnx_local_functions.h"
#include "core/importers/onnx_shape_inference.h"
#include "core/importers/onnx_source.h"
#include "core/importers/onnx_tied_weights.h"
#include "core/importers/onnx_type_checks.h"
#include "core/importers/onnx_wire_reader.h"

namespace tandem::core::importers {

namespace {

constexpr std::int64_t kMaxElements = std::int64_t(1) << 62;

bool hasInlineData(const onnx::TensorProto& t) {
    return !t.raw_data().empty() || t.float_data_size() > 0 || t.int32_data_size() > 0 ||
           t.string_data_size() > 0 || t.int64_data_size() > 0 || t.double_data_size() > 0 ||
           t.uint64_data_size() > 0;
}

Expected<OnnxInitializer> describeTensor(const std::string& name, int dataType,
                                         const google::protobuf::RepeatedField<std::int64_t>& dims,
                                         const std::string& sourceName) {
    OnnxInitializer info;
    info.dataType = dataType;
    info.elements = 1;
    for (std::int64_t d : dims) {
        if (d < 0)
            return Error{sourceName + ": initializer '" + name + "' has a negative dimension (" +
                         std::to_string(d) + ")"};
        if (d != 0 && info.elements > kMaxElements / d)
            return Error{sourceName + ": initializer '" + name + "' has more than 2^62 elements"};
        info.elements *= d;
        info.dims.push_back(d);
    }
    info.parameter = isOnnxFloatType(dataType) && info.elements > 1;
    return info;
}

void addInput(onnx::GraphProto& graph, const std::string& name, const OnnxInitializer& info) {
    auto* input = graph.add_input();
    input->set_name(name);
    auto* type = input->mutable_type()->mutable_tensor_type();
    type->set_elem_type(info.dataType);
    auto* shape = type->mutable_shape();
    for (std::int64_t d : info.dims) shape->add_dim()->set_dim_value(d);
}

// Weights (and any initializer whose data was not read) become typed graph inputs: shape
// inference needs only their types, and nothing may look for their data. Small constants with
// their data (shapes, split sizes, scales) stay initializers so that inference can use them.
Status prepare(OnnxImportState& state) {
    onnx::GraphProto& graph = *state.model.mutable_graph();
    std::unordered_set<std::string> inputs;
    for (const auto& input : graph.input()) inputs.insert(input.name());
    google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
    for (const onnx::TensorProto& t : graph.initializer()) {
        if (t.name().empty()) return Error{state.sourceName + ": an initializer has no name"};
        auto info = describeTensor(t.name(), t.data_type(), t.dims(), state.sourceName);
        if (!info) return info.error();
        if (!state.initializers.emplace(t.name(), *info).second)
            return Error{state.sourceName + ": initializer '" + t.name() + "' is defined twice"};
        const bool external = t.data_location() == onnx::TensorProto::EXTERNAL;
        if (!info->parameter && !external && hasInlineData(t))
            *kept.Add() = t;
        else if (!inputs.count(t.name()))
            addInput(graph, t.name(), *info);
    }
    for (const onnx::SparseTensorProto& s : graph.sparse_initializer()) {
        const std::string& name = s.values().name();
        if (name.empty()) return Error{state.sourceName + ": a sparse initializer has no name"};
        auto info = describeTensor(name, s.values().data_type(), s.dims(), state.sourceName);
        if (!info) return info.error();
        if (!state.initializers.emplace(name, *info).second)
            return Error{state.sourceName + ": initializer '" + name + "' is defined twice"};
        if (!inputs.count(name)) addInput(graph, name, *info);
    }
    graph.mutable_initializer()->Swap(&kept);
    graph.clear_sparse_initializer();
    return {};
}

std::string modelNameFor(const std::filesystem::path& path) {
    const std::string stem = path.stem().string();
    return stem.empty() ? "onnx-model" : stem;
}

}  // namespace

Expected<LoadedModel> importOnnxModel(const std::filesystem::path& path) {
    auto structure = readOnnxStructure(path);
    if (!structure) return structure.error();
    auto state = std::make_shared<OnnxImportState>();
    state->sourceName = path.string();
    state->modelName = modelNameFor(path);
    try {
        if (!state->model.ParseFromString(structure->bytes))
            return Error{state->sourceName +
                         ": not a valid ONNX model (its protobuf fields do not match onnx.proto)"};
        if (!state->model.has_graph())
            return Error{state->sourceName + ": not a valid ONNX model (it has no graph)"};
        if (Status status = checkOnnxElementTypes(state->model); !status)
            return Error{state->sourceName + ": " + status.message()};
        if (Status status = checkOnnxAttributes(state->model); !status)
            return Error{state->sourceName + ": " + status.message()};
        if (Status status = OnnxLocalFunctions(state->model).checkNoRecursion(); !status)
            return Error{state->sourceName + ": " + status.message()};
        if (Status status = prepare(*state); !status) return Error{status.message()};
        std::unordered_map<std::string, std::vector<std::int64_t>> weightDims;
        for (const auto& [name, info] : state->initializers)
            if (info.parameter) weightDims.emplace(name, info.dims);
        state->weightAliases = findTiedWeights(path, structure->initializerPayloads, weightDims);
        auto plan = planOnnxGraph(*state);
        if (!plan) return plan.error();
        state->plan = std::move(*plan);
    } catch (const std::exception& e) {
        return Error{state->sourceName + ": cannot read the ONNX model: " + e.what()};
    }
    LoadedModel loaded;
    loaded.format = "onnx";
    if (!state->plan.unknownOperators.empty()) {
        const std::string list = listExcerpt(state->plan.unknownOperators, kOperatorsShown);
        loaded.warnings.push_back(
            state->sourceName +
            ": operators Tandem does not know are costed as vector-core work "
            "of 1 cycle per element (outputs without an inferred shape take their first "
            "input's): " +
            list);
    }
    auto source = OnnxSource::create(std::move(state));
    if (!source) return source.error();
    loaded.source = *source;
    return loaded;
}

}  // namespace tandem::core::importers
