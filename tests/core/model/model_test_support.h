#pragma once
// Helpers the model tests share: a zoo model that must exist, and its transformer spec.
#include <QtTest>

#include <memory>
#include <string>

#include "core/model/model_zoo.h"
#include "core/model/transformer_source.h"

namespace tandem::test {

inline std::shared_ptr<const core::model::ModelSource> zoo(const std::string& name) {
    auto source = core::model::zooModel(name);
    if (!source.ok()) qFatal("%s", source.message().c_str());
    return *source;
}

inline const core::model::TransformerSpec& specOf(const core::model::ModelSource& source) {
    const auto* transformer = dynamic_cast<const core::model::TransformerSource*>(&source);
    if (!transformer) qFatal("not a transformer");
    return transformer->spec();
}

}  // namespace tandem::test
