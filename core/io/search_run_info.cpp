#include "core/io/search_run_info.h"

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/common/json_document.h"
#include "core/common/text_excerpt.h"
#include "core/common/version.h"
#include "core/hardware/hardware_json.h"
#include "core/io/search_setup.h"
#include "core/model/model_zoo.h"
#include "core/placement/cost_model_kind.h"

namespace tandem::core::io {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr const char* kKeys[] = {"tandem_version", "project", "cost_model", "model_digests",
                                 "shard"};
constexpr const char* kShardKeys[] = {"index", "count"};
constexpr std::string_view kZooDigest = "zoo";
constexpr std::string_view kDigestPrefix = "fnv1a64:";

bool isZooName(const std::string& model) {
    for (const auto& entry : model::zooModels())
        if (entry.name == model) return true;
    return false;
}

bool isDigest(const std::string& text) {
    if (text == kZooDigest) return true;
    if (text.size() != kDigestPrefix.size() + 16 || text.rfind(kDigestPrefix, 0) != 0) return false;
    for (std::size_t i = kDigestPrefix.size(); i < text.size(); ++i)
        if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
            return false;
    return true;
}

Status checkShard(const SearchShard& shard, const std::string& prefix) {
    if (shard.count < 0)
        return Error{prefix + "shard count " + std::to_string(shard.count) +
                     " is negative: give the number of shards (≥ 1), or 0 for a whole search"};
    if (shard.count == 0 && shard.index != 0)
        return Error{prefix + "shard index " + std::to_string(shard.index) +
                     " given without a shard count"};
    if (shard.count > 0 && (shard.index < 1 || shard.index > shard.count))
        return Error{prefix + "shard " + std::to_string(shard.index) + " of " +
                     std::to_string(shard.count) + " is out of range: the index must be in 1.." +
                     std::to_string(shard.count)};
    return Status::success();
}

// The names a message quotes, by the one excerpting rule (a hostile file's "run" may hold
// anything).
std::string joined(const std::vector<std::string>& parts) {
    return listExcerpt(parts);
}

// A hardware object's "name" when empty: a search's base may have none, a hardware file may not.
void eraseEmptyName(ordered_json& hardware) {
    const auto name = hardware.find("name");
    if (name != hardware.end() && name->is_string() && name->get<std::string>().empty())
        hardware.erase("name");
}

// `object`'s member `key`, or null when `object` is not an object or lacks it.
const json& memberOrNull(const json& object, const char* key) {
    static const json kNull;
    if (!object.is_object()) return kNull;
    const auto it = object.find(key);
    return it == object.end() ? kNull : *it;
}

bool lacksName(const json& object) {
    return object.is_object() && !object.contains("name");
}

Expected<int> shardNumber(const json& shard, const char* key, const std::string& prefix) {
    constexpr std::int64_t kLimit = std::int64_t(1) << 30;  // far beyond any shard count
    const auto it = shard.find(key);
    if (it == shard.end()) return Error{prefix + "shard." + key + ": missing"};
    const bool inRange = it->is_number_unsigned()
                             ? it->get<std::uint64_t>() <= std::uint64_t(kLimit)
                             : it->is_number_integer() && it->get<std::int64_t>() >= -kLimit &&
                                   it->get<std::int64_t>() <= kLimit;
    if (!inRange)
        return Error{prefix + "shard." + key + ": expected an integer (at most 2^30), found " +
                     jsonShown(*it)};
    return int(it->get<std::int64_t>());
}

Expected<SearchRunInfo> fromJson(const json& root, const std::string& source) {
    const std::string prefix = source + ": ";
    if (!root.is_object())
        return Error{prefix + "expected a JSON object {\"tandem_version\": ..., ...}, found " +
                     jsonShown(root)};
    if (Status s = checkJsonKeys(root, kKeys, prefix); !s.ok()) return Error{s.message()};
    for (const char* key : kKeys)
        if (std::string_view(key) != "shard" && !root.contains(key))
            return Error{prefix + key + ": missing"};
    SearchRunInfo info;
    for (auto [key, target] :
         {std::pair{"tandem_version", &info.version}, std::pair{"cost_model", &info.costModel}}) {
        const json& value = root[key];
        if (!value.is_string() || value.get<std::string>().empty())
            return Error{prefix + key + ": expected a non-empty string, found " + jsonShown(value)};
        *target = value.get<std::string>();
    }

    const json& project = root["project"];
    if (!project.is_object())
        return Error{prefix + "project: expected a {\"format\": \"tandem-project\", ...} object, " +
                     "found " + jsonShown(project)};
    const bool unnamedHardware = lacksName(memberOrNull(project, "hardware"));
    const bool unnamedBase = lacksName(memberOrNull(memberOrNull(project, "search"), "base"));
    Expected<ProjectFile> parsed = ProjectFile::parse(jsonText(project), prefix + "project", {});
    if (!parsed.ok()) return parsed.error();
    info.project = std::move(*parsed);
    info.project.threads = 0;
    info.project.view.clear();
    info.project.results.clear();
    if (unnamedHardware) info.project.hardware.name.clear();
    if (unnamedBase) info.project.search.base.name.clear();

    const json& digests = root["model_digests"];
    if (!digests.is_array())
        return Error{prefix + "model_digests: expected an array, found " + jsonShown(digests)};
    for (std::size_t i = 0; i < digests.size(); ++i) {
        const json& digest = digests[i];
        if (!digest.is_string() || !isDigest(digest.get<std::string>()))
            return Error{prefix + "model_digests[" + std::to_string(i) +
                         "]: expected \"zoo\" or \"fnv1a64:\" and 16 lowercase hex digits, "
                         "found " +
                         jsonShown(digest)};
        info.modelDigests.push_back(digest.get<std::string>());
    }
    const std::size_t models = modelsOf(info.project).size();
    if (info.modelDigests.size() != models)
        return Error{prefix + "model_digests: " + std::to_string(info.modelDigests.size()) +
                     " digests for " + std::to_string(models) +
                     " models (project.model and project.search_models)"};

    if (root.contains("shard")) {
        const json& shard = root["shard"];
        if (!shard.is_object())
            return Error{prefix + "shard: expected {\"index\": i, \"count\": n}, found " +
                         jsonShown(shard)};
        if (Status s = checkJsonKeys(shard, kShardKeys, prefix + "shard: "); !s.ok())
            return Error{s.message()};
        const Expected<int> index = shardNumber(shard, "index", prefix);
        if (!index.ok()) return index.error();
        const Expected<int> count = shardNumber(shard, "count", prefix);
        if (!count.ok()) return count.error();
        info.shard = {*index, *count};
        if (Status s = checkShard(info.shard, prefix); !s.ok()) return Error{s.message()};
    }
    return info;
}

// The first key path (up to two levels, "accelerator.clockHz") at which `a` and `b` differ;
// empty when they are equal.
std::string firstDifference(const ordered_json& a, const ordered_json& b, int levels = 2) {
    if (a == b || levels == 0 || !a.is_object() || !b.is_object()) return {};
    for (const auto& [key, value] : a.items()) {
        const auto other = b.find(key);
        if (other == b.end()) return key;
        if (value == *other) continue;
        const std::string inner = firstDifference(value, *other, levels - 1);
        return inner.empty() ? key : key + "." + inner;
    }
    for (const auto& [key, value] : b.items())
        if (!a.contains(key)) return key;
    return {};
}

void compareJson(const std::string& what, ordered_json a, ordered_json b,
                 std::vector<std::string>& out) {
    if (a == b) return;
    const std::string key = firstDifference(a, b);
    out.push_back(key.empty() ? what : what + " (" + key + ")");
}

ordered_json spaceJson(const search::SearchSpace& space) {
    ordered_json json = ordered_json::parse(space.toJson());
    json.erase("name");
    json.erase("base");  // compared as the hardware
    return json;
}

ordered_json hardwareJson(const hardware::HardwarePoint& point) {
    ordered_json json = ordered_json::parse(hardware::toHardwareJson(point));
    json.erase("name");
    json.erase("description");
    return json;
}

}  // namespace

std::string SearchRunInfo::toJson() const {
    ProjectFile p = project;
    p.threads = 0;
    p.view.clear();
    p.results.clear();
    // An empty directory keeps every path as it is (absolute).
    ordered_json projectJson = ordered_json::parse(p.toJson({}));
    projectJson["run"].erase("threads");
    projectJson.erase("view");
    eraseEmptyName(projectJson["hardware"]);
    eraseEmptyName(projectJson["search"]["base"]);

    ordered_json root = ordered_json::object();
    root["tandem_version"] = version;
    root["project"] = std::move(projectJson);
    root["cost_model"] = costModel;
    root["model_digests"] = modelDigests;
    if (shard.count > 0)
        root["shard"] = ordered_json{{"index", shard.index}, {"count", shard.count}};
    return jsonText(root);
}

Expected<SearchRunInfo> SearchRunInfo::parseJson(std::string_view text,
                                                 std::string_view sourceName) {
    auto root = parseJsonDocument(text, sourceName, "a search run {\"tandem_version\": ..., ...}");
    if (!root) return Error{root.message()};
    try {
        return fromJson(*root, std::string(sourceName));
    } catch (const std::exception& e) {
        return Error{std::string(sourceName) +
                     ": unexpected error while reading JSON: " + e.what()};
    }
}

Expected<std::string> modelFileDigest(const fs::path& path) {
    const std::string what = path.string() + ": cannot read the model file for its digest: ";
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        return Error{what + (ec ? ec.message() : std::string("no such file"))};
    if (!fs::is_regular_file(status)) return Error{what + "not a regular file"};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{what + std::strerror(errno)};
    std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a 64-bit offset basis
    std::vector<char> buffer(std::size_t(1) << 16);
    while (in) {
        in.read(buffer.data(), std::streamsize(buffer.size()));
        for (std::streamsize i = 0; i < in.gcount(); ++i) {
            hash ^= std::uint64_t(static_cast<unsigned char>(buffer[std::size_t(i)]));
            hash *= 0x100000001b3ull;  // FNV-1a 64-bit prime
        }
    }
    if (in.bad()) return Error{what + "read error"};
    static constexpr char kHex[] = "0123456789abcdef";
    std::string digest(kDigestPrefix);
    for (int shift = 60; shift >= 0; shift -= 4) digest += kHex[(hash >> shift) & 0xf];
    return digest;
}

Expected<SearchRunInfo> describeSearchRun(const std::vector<std::string>& modelSpecs,
                                          const search::SearchRequest& request, SearchShard shard) {
    const std::string prefix = "search run: ";
    if (modelSpecs.empty()) return Error{prefix + "no model"};
    if (modelSpecs.size() != request.models.size())
        return Error{prefix + std::to_string(modelSpecs.size()) + " model names for " +
                     std::to_string(request.models.size()) + " models"};
    if (Status s = checkShard(shard, prefix); !s.ok()) return Error{s.message()};
    SearchRunInfo info;
    info.version = std::string(core::version());
    std::vector<std::string> names;
    for (const std::string& spec : modelSpecs) {
        if (isZooName(spec)) {
            names.push_back(spec);
            info.modelDigests.emplace_back(kZooDigest);
            continue;
        }
        std::error_code ec;
        fs::path path = fs::absolute(spec, ec);
        if (ec) return Error{spec + ": cannot make the path absolute: " + ec.message()};
        names.push_back(path.lexically_normal().string());
        Expected<std::string> digest = modelFileDigest(names.back());
        if (!digest.ok()) return digest.error();
        info.modelDigests.push_back(std::move(*digest));
    }
    ProjectFile& p = info.project;
    p.model = names.front();
    p.searchModels.assign(names.begin() + 1, names.end());
    p.hardware = request.space.base;
    p.search = request.space;
    p.training = request.training;
    p.explorer = request.explorer;
    p.objective = request.objective;
    info.costModel = std::string(placement::toString(request.costModel));
    info.shard = shard;
    return info;
}

std::vector<std::string> differences(const SearchRunInfo& a, const SearchRunInfo& b) {
    std::vector<std::string> out;
    if (a.version != b.version)
        out.push_back("Tandem version (" + textExcerpt(a.version) + " vs " +
                      textExcerpt(b.version) + ")");
    const std::vector<std::string> modelsA = modelsOf(a.project), modelsB = modelsOf(b.project);
    if (modelsA != modelsB)
        out.push_back("models (" + joined(modelsA) + " vs " + joined(modelsB) + ")");
    std::vector<std::string> changed;
    for (std::size_t i = 0; i < modelsA.size() && i < modelsB.size(); ++i)
        if (modelsA[i] == modelsB[i] && i < a.modelDigests.size() && i < b.modelDigests.size() &&
            a.modelDigests[i] != b.modelDigests[i])
            changed.push_back(modelsA[i]);
    if (!changed.empty()) out.push_back("model file contents (" + joined(changed) + " changed)");
    compareJson("search space", spaceJson(a.project.search), spaceJson(b.project.search), out);
    compareJson("hardware and cluster", hardwareJson(a.project.hardware),
                hardwareJson(b.project.hardware), out);
    compareJson("training", ordered_json::parse(hardware::toTrainingJson(a.project.training)),
                ordered_json::parse(hardware::toTrainingJson(b.project.training)), out);
    if (a.project.explorer != b.project.explorer)
        out.push_back("explorer (" + std::string(search::toString(a.project.explorer)) + " vs " +
                      std::string(search::toString(b.project.explorer)) + ")");
    if (a.project.objective != b.project.objective)
        out.push_back("objective (" + std::string(search::toString(a.project.objective)) + " vs " +
                      std::string(search::toString(b.project.objective)) + ")");
    if (a.costModel != b.costModel)
        out.push_back("cost model (" + textExcerpt(a.costModel) + " vs " +
                      textExcerpt(b.costModel) + ")");
    return out;
}

Expected<search::SearchRequest> toSearchRequest(const SearchRunInfo& info,
                                                const ModelLoader& loadModel, int threads) {
    const std::string prefix = "search run: ";
    const std::vector<std::string> names = modelsOf(info.project);
    if (info.modelDigests.size() != names.size())
        return Error{prefix + std::to_string(info.modelDigests.size()) + " model digests for " +
                     std::to_string(names.size()) + " models"};
    if (!loadModel) return Error{prefix + "no model loader given"};
    search::SearchRequest request;
    if (!placement::parseCostModel(info.costModel, request.costModel))
        return Error{prefix + "cost model \"" + textExcerpt(info.costModel) +
                     "\" is not known to this Tandem: native or phaze-compat"};
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string& then = info.modelDigests[i];
        if (then != kZooDigest) {
            Expected<std::string> now = modelFileDigest(names[i]);
            if (!now.ok()) return now.error();
            if (*now != then)
                return Error{textExcerpt(names[i]) +
                             ": the model file changed since the search ran (digest " +
                             textExcerpt(then) + " then, " + *now + " now)"};
        }
        Expected<model::ModelSourcePtr> model = loadModel(names[i]);
        if (!model.ok()) return model.error();
        request.models.push_back(std::move(*model));
    }
    search::SearchRequest fromProject = searchRequestFor(info.project, std::move(request.models));
    fromProject.costModel = request.costModel;
    fromProject.threads = threads;
    return fromProject;
}

}  // namespace tandem::core::io
