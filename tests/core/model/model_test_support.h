#pragma once
// Helpers the model tests share: a zoo model that must exist, its transformer spec, a graph
// that must build, and an operator by name.
#include <QtTest>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

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

// The graph `source` builds with `options`; the test stops with the builder's message otherwise.
inline core::model::ModelGraph buildOrDie(const core::model::ModelSource& source,
                                          const core::model::BuildOptions& options) {
    auto graph = source.build(options);
    if (!graph.ok()) qFatal("%s", graph.message().c_str());
    return std::move(*graph);
}

// The operator called `name` in `ops`, or nullptr.
inline const core::model::Operator* findOperator(const std::vector<core::model::Operator>& ops,
                                                 const std::string& name) {
    const auto it = std::find_if(ops.begin(), ops.end(),
                                 [&](const core::model::Operator& op) { return op.name == name; });
    return it == ops.end() ? nullptr : &*it;
}

}  // namespace tandem::test
