#pragma once
// The one way a search request is built (ARCHITECTURE.md §2.9): a project — the app's set-up, a
// .tandem file, or the run a results file records — and what the caller overrides (the CLI's
// flags) give the SearchRequest that `tandem-cli search`, `tandem-cli merge` and the app run.
// The rule, in one place: the space is the project's search space with the project's hardware as
// its base (or "phaze", or a space file, when overridden); the training, the explorer and the
// thread count are the project's unless overridden; an overridden device count shrinks the
// node to fit (devicesPerNode ≤ devices); the models are the project's model and the models it
// searches alongside, unless overridden.
//
// io may not include importers (ARCHITECTURE.md §8): the caller hands in the model loader.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/io/project_file.h"
#include "core/io/search_run_info.h"
#include "core/placement/cost_model_kind.h"
#include "core/search/search_run.h"

namespace tandem::core::io {

struct SearchOverrides {
    std::vector<std::string> models;  // zoo names or model files; empty: the project's
    std::string space;                // "phaze", a space file; empty: the project's (or "phaze")
    std::optional<std::int64_t> devices;      // the base cluster's device count
    std::optional<std::int64_t> globalBatch;  // samples per step
    std::optional<search::ExplorerKind> explorer;
    std::optional<search::SearchObjective> objective;
    std::optional<int> threads;  // 0: one per core
    std::optional<placement::CostModelKind> costModel;
};

struct SearchSetup {
    search::SearchRequest request;
    std::vector<std::string> modelSpecs;  // what each model was loaded from, the main one first
    // Where the space came from, for messages: "phaze", the space file, "<project>: search".
    std::string spaceSource;

    // A message about the space ("search space: …", from validate() or the grid) naming its
    // source instead ("my-space.json: …"); other messages, and PHAZE's space's, as they are.
    std::string spaceMessage(const std::string& message) const;
};

// `project` may be null: then at least one model must be given and the space defaults to
// "phaze". `projectName` names the project in messages ("run.tandem: model: …"). Errors: no
// model, a model the loader refuses, a space file that cannot be read, a space that fails
// validate() (named by spaceMessage).
Expected<SearchSetup> makeSearchSetup(const ProjectFile* project, std::string_view projectName,
                                      const SearchOverrides& overrides,
                                      const ModelLoader& loadModel);

// The request of a project whose models are loaded already, in the project's order (the app's
// set-up, a recorded run): the rule above without overrides.
search::SearchRequest searchRequestFor(const ProjectFile& project,
                                       std::vector<model::ModelSourcePtr> models);

// The project's models: its model, then the ones it searches alongside.
std::vector<std::string> modelsOf(const ProjectFile& project);

}  // namespace tandem::core::io
