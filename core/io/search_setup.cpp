#include "core/io/search_setup.h"

#include <algorithm>
#include <utility>

#include "core/common/text_excerpt.h"

namespace tandem::core::io {

namespace {

constexpr std::string_view kPhaze = "phaze";
const std::string kSpacePrefix = "search space: ";

}  // namespace

std::vector<std::string> modelsOf(const ProjectFile& project) {
    std::vector<std::string> names{project.model};
    names.insert(names.end(), project.searchModels.begin(), project.searchModels.end());
    return names;
}

std::string SearchSetup::spaceMessage(const std::string& message) const {
    if (spaceSource == kPhaze || message.rfind(kSpacePrefix, 0) != 0) return message;
    return spaceSource + ": " + message.substr(kSpacePrefix.size());
}

search::SearchRequest searchRequestFor(const ProjectFile& project,
                                       std::vector<model::ModelSourcePtr> models) {
    search::SearchRequest request;
    request.models = std::move(models);
    request.space = project.search;
    request.space.base = project.hardware;
    request.training = project.training;
    request.explorer = project.explorer;
    request.objective = project.objective;
    request.threads = int(project.threads);
    return request;
}

Expected<SearchSetup> makeSearchSetup(const ProjectFile* project, std::string_view projectName,
                                      const SearchOverrides& overrides,
                                      const ModelLoader& loadModel) {
    SearchSetup setup;
    const bool modelsFromProject = overrides.models.empty() && project;
    setup.modelSpecs = modelsFromProject ? modelsOf(*project) : overrides.models;
    if (setup.modelSpecs.empty()) return Error{"no model to search: name one, or give a project"};
    if (!loadModel) return Error{"no model loader given"};
    std::vector<model::ModelSourcePtr> models;
    for (const std::string& spec : setup.modelSpecs) {
        Expected<model::ModelSourcePtr> model = loadModel(spec);
        if (!model.ok() && modelsFromProject)
            return Error{textExcerpt(projectName) + ": model: " + model.message()};
        if (!model.ok()) return model.error();
        models.push_back(std::move(*model));
    }
    if (project) {
        setup.request = searchRequestFor(*project, std::move(models));
    } else {
        setup.request.models = std::move(models);
    }

    const std::string& space = overrides.space;
    if (space.empty() && project) {
        setup.spaceSource = textExcerpt(projectName) + ": search";
    } else if (space.empty() || space == kPhaze) {
        setup.spaceSource = std::string(kPhaze);
        setup.request.space = search::SearchSpace::phaze();
    } else {
        setup.spaceSource = textExcerpt(space);
        Expected<search::SearchSpace> loaded = search::SearchSpace::loadFile(space);
        if (!loaded.ok()) return loaded.error();
        setup.request.space = std::move(*loaded);
    }
    hardware::ClusterConfig& cluster = setup.request.space.base.cluster;
    if (overrides.devices) {
        cluster.devices = *overrides.devices;
        cluster.devicesPerNode = std::min(cluster.devicesPerNode, *overrides.devices);
    }
    if (overrides.globalBatch) setup.request.training.globalBatch = *overrides.globalBatch;
    if (overrides.explorer) setup.request.explorer = *overrides.explorer;
    if (overrides.objective) setup.request.objective = *overrides.objective;
    if (overrides.threads) setup.request.threads = *overrides.threads;
    if (overrides.costModel) setup.request.costModel = *overrides.costModel;
    if (Status status = setup.request.space.validate(); !status.ok())
        return Error{setup.spaceMessage(status.message())};
    return setup;
}

}  // namespace tandem::core::io
