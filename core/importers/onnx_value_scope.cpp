// OnnxValueScope (onnx_value_scope.h).
#include "core/importers/onnx_value_scope.h"

namespace tandem::core::importers {

const onnx::TypeProto* OnnxValueScope::type(const std::string& name) const {
    for (const OnnxValueScope* s = this; s; s = s->outer_)
        if (const auto it = s->types_.find(name); it != s->types_.end()) return &it->second;
    return nullptr;
}

const onnx::TensorProto* OnnxValueScope::data(const std::string& name) const {
    for (const OnnxValueScope* s = this; s; s = s->outer_)
        if (const auto it = s->data_.find(name); it != s->data_.end()) return it->second;
    return nullptr;
}

const OnnxIntTensor* OnnxValueScope::intValue(const std::string& name) const {
    for (const OnnxValueScope* s = this; s; s = s->outer_)
        if (const auto it = s->ints_.find(name); it != s->ints_.end()) return &it->second;
    return nullptr;
}

void OnnxValueScope::setType(const std::string& name, onnx::TypeProto type) {
    types_.insert_or_assign(name, std::move(type));
}

void OnnxValueScope::setData(const std::string& name, const onnx::TensorProto& tensor) {
    if (!hasCompleteOnnxData(tensor)) return;
    data_[name] = &tensor;
    if (auto value = readOnnxIntTensor(tensor)) ints_.insert_or_assign(name, std::move(*value));
}

void OnnxValueScope::setFolded(const std::string& name, OnnxIntTensor value) {
    const onnx::TensorProto& tensor = owned_.emplace_back(toOnnxTensor(value, name));
    onnx::TypeProto type;
    auto* tensorType = type.mutable_tensor_type();
    tensorType->set_elem_type(value.dataType);
    auto* shape = tensorType->mutable_shape();
    for (std::int64_t d : value.dims) shape->add_dim()->set_dim_value(d);
    setType(name, std::move(type));
    data_[name] = &tensor;
    ints_.insert_or_assign(name, std::move(value));
}

}  // namespace tandem::core::importers
