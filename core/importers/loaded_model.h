#pragma once
// What a model importer hands back: the ModelSource the pipeline consumes, which format it came
// from, and the warnings the import produced (e.g. ONNX operators Tandem does not know, costed
// as generic vector-core work). Warnings are for the user to read; they never change a number.
#include <string>
#include <vector>

#include "core/model/model_source.h"

namespace tandem::core::importers {

struct LoadedModel {
    model::ModelSourcePtr source;
    std::string format;                 // "zoo", "tandem-model", "huggingface-config", "onnx"
    std::vector<std::string> warnings;  // one line each, naming the file
};

}  // namespace tandem::core::importers
