#pragma once
// The one entry point the CLI (`--model M`) and the GUI's model picker call with whatever the
// user gave: a zoo name, a native Tandem model file (.json with "format": "tandem-model"), a
// Hugging Face config.json (.json with a "model_type" key) or an ONNX model (.onnx, or any file
// whose content is not JSON). JSON files are told apart by content, not by name. Every failure
// (missing path, directory, 0-byte or unreadable file, malformed content) is an Error naming
// the path and the problem and listing what is supported; nothing throws or aborts.
#include <string>

#include "core/common/expected.h"
#include "core/importers/loaded_model.h"
#include "core/model/model_source.h"

namespace tandem::core::importers {

// The source only; warnings are dropped (use loadModelWithReport to show them).
Expected<model::ModelSourcePtr> loadModel(const std::string& nameOrPath);

// The source, the format it was read as, and the import warnings.
Expected<LoadedModel> loadModelWithReport(const std::string& nameOrPath);

// One line for help texts and error messages: what `--model` accepts.
std::string supportedModelInputs();

}  // namespace tandem::core::importers
