#include "core/model/model_zoo.h"

#include <filesystem>
#include <map>
#include <system_error>

#include "core/common/embedded_resources.h"
#include "core/common/text_file.h"
#include "core/model/model_file.h"

namespace tandem::core::model {

namespace {

constexpr std::string_view kPrefix = "models/";
constexpr std::string_view kSuffix = ".json";

// Parsed once; sources are immutable and shared. A broken entry keeps its error.
const std::map<std::string, Expected<ModelSourcePtr>>& zoo() {
    static const auto entries = [] {
        std::map<std::string, Expected<ModelSourcePtr>> result;
        for (const EmbeddedFile& file : embeddedResources()) {
            const std::string_view path = file.path;
            if (path.size() <= kPrefix.size() + kSuffix.size() || !path.starts_with(kPrefix) ||
                !path.ends_with(kSuffix))
                continue;
            std::string name(
                path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size()));
            if (name.find('/') != std::string::npos) continue;
            result.emplace(name, parseModelJson(file.content, std::string(path)));
        }
        return result;
    }();
    return entries;
}

std::string zooNames() {
    std::string names;
    for (const auto& [name, source] : zoo()) names += (names.empty() ? "" : ", ") + name;
    return names;
}

}  // namespace

std::vector<ZooEntry> zooModels() {
    std::vector<ZooEntry> list;
    for (const auto& [name, source] : zoo())
        list.push_back({name, source ? (*source)->description() : source.message()});
    return list;
}

Expected<ModelSourcePtr> zooModel(const std::string& name) {
    const auto& entries = zoo();
    const auto it = entries.find(name);
    if (it == entries.end()) {
        return Error{"unknown model '" + name + "' (zoo models: " + zooNames() + ")"};
    }
    return it->second;
}

Expected<ModelSourcePtr> resolveModel(const std::string& nameOrPath) {
    if (nameOrPath.empty()) {
        return Error{"no model given: name a zoo model (" + zooNames() + ") or a .json file"};
    }
    if (zoo().count(nameOrPath) > 0) return zooModel(nameOrPath);
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(fs::status(fs::path(nameOrPath), ec))) {
        return Error{"model '" + nameOrPath + "' is neither a zoo model (" + zooNames() +
                     ") nor an existing file"};
    }
    auto text = readTextFile(nameOrPath);
    if (!text) return Error{"model file: " + text.message()};
    return parseModelJson(*text, nameOrPath);
}

}  // namespace tandem::core::model
