#pragma once
// A model read from a file, as the pipeline sees it: the importer's ModelSource, with every
// build error prefixed by the file's path, so that a refusal found only when the model is built
// (sizes that overflow at the asked sequence length, widths the model cannot be split into)
// still names the file, as every reader's errors do.
#include <string>

#include "core/model/model_source.h"

namespace tandem::core::importers {

class FileModelSource final : public model::ModelSource {
public:
    FileModelSource(model::ModelSourcePtr inner, std::string path);

    const std::string& name() const override { return inner_->name(); }
    std::string description() const override { return inner_->description(); }
    std::int64_t defaultSequenceLength() const override { return inner_->defaultSequenceLength(); }
    std::vector<std::int64_t> tensorParallelWidths() const override {
        return inner_->tensorParallelWidths();
    }
    Expected<model::ModelGraph> build(const model::BuildOptions& options) const override;
    model::ParallelStrategy baselineStrategy() const override { return inner_->baselineStrategy(); }
    std::int64_t transformerLayers() const override { return inner_->transformerLayers(); }
    const model::ModelSource& underlying() const override { return inner_->underlying(); }

private:
    model::ModelSourcePtr inner_;
    std::string path_;
};

}  // namespace tandem::core::importers
