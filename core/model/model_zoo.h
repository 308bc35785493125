#pragma once
// The model zoo: published models (hyper-parameters from each model's paper and Hugging Face
// model card; PHAZE's evaluation models among them), one native model file each
// under resources/models/, compiled into the library. resolveModel() is what the CLI and the
// app call with whatever the user typed: a zoo name or the path of a model file.
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/model/model_source.h"

namespace tandem::core::model {

struct ZooEntry {
    std::string name;  // e.g. "gpt3-175b"
    std::string description;
};

// In name order. A zoo file that fails to parse is listed with the error as its description
// (and zooModel() returns that error); the tests keep that from happening.
std::vector<ZooEntry> zooModels();

// Unknown names → an error listing the zoo's names.
Expected<ModelSourcePtr> zooModel(const std::string& name);

// A zoo name, or a path to a .json model file. Missing file, directory, unreadable, empty or
// invalid file → an error naming the path and the problem.
Expected<ModelSourcePtr> resolveModel(const std::string& nameOrPath);

}  // namespace tandem::core::model
