#include "core/importers/file_model_source.h"

namespace tandem::core::importers {

FileModelSource::FileModelSource(model::ModelSourcePtr inner, std::string path)
    : inner_(std::move(inner)), path_(std::move(path)) {}

Expected<model::ModelGraph> FileModelSource::build(const model::BuildOptions& options) const {
    auto graph = inner_->build(options);
    if (graph || graph.message().find(path_) != std::string::npos) return graph;
    return Error{path_ + ": " + graph.message()};
}

}  // namespace tandem::core::importers
