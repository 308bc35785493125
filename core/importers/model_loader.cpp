#include "core/importers/model_loader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "core/common/text_file.h"
#include "core/importers/file_model_source.h"
#include "core/importers/hf_config_importer.h"
#include "core/importers/onnx_importer.h"
#include "core/model/model_file.h"
#include "core/model/model_zoo.h"

namespace tandem::core::importers {

namespace {

namespace fs = std::filesystem;

std::string zooNames() {
    std::string names;
    for (const model::ZooEntry& entry : model::zooModels())
        names += (names.empty() ? "" : ", ") + entry.name;
    return names;
}

std::string lowerExtension(const fs::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// The first non-blank byte of a JSON document is '{' (after an optional UTF-8 BOM). Binary
// protobuf never starts that way: an ONNX ModelProto begins with a field tag such as 0x08.
Expected<bool> looksLikeJson(const fs::path& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return Error{"model file '" + path.string() + "' cannot be opened for reading"};
    unsigned char buffer[256];
    const std::size_t got = std::fread(buffer, 1, sizeof buffer, file);
    std::fclose(file);
    std::size_t i = got >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0;
    while (i < got && std::isspace(buffer[i])) ++i;
    return i < got && (buffer[i] == '{' || buffer[i] == '[');
}

Expected<LoadedModel> loadJson(const fs::path& path) {
    const std::string sourceName = path.string();
    auto text = readTextFile(path);
    if (!text) return Error{"model file: " + text.message()};
    auto format = detectJsonModelFormat(*text, sourceName);
    if (!format) return Error{format.message() + " (" + supportedModelInputs() + ")"};
    if (*format == JsonModelFormat::HuggingFaceConfig) return importHfConfig(path);
    auto source = model::parseModelJson(*text, sourceName);
    if (!source) return source.error();
    return LoadedModel{*source, "tandem-model", {}};
}

// The extension decides when it is one of ours; otherwise the first bytes do.
Expected<LoadedModel> loadFile(const fs::path& path) {
    const std::string ext = lowerExtension(path);
    if (ext == ".onnx") return importOnnxModel(path);
    if (ext == ".json") return loadJson(path);
    auto json = looksLikeJson(path);
    if (!json) return json.error();
    if (*json) return loadJson(path);
    auto onnx = importOnnxModel(path);
    if (!onnx)
        return Error{onnx.message() + " (the file is not JSON either; expected " +
                     supportedModelInputs() + ")"};
    return onnx;
}

}  // namespace

std::string supportedModelInputs() {
    return "a zoo model name, a Tandem model .json, a Hugging Face config.json (model_type " +
           supportedHfModelTypes() + ") or an ONNX .onnx file";
}

Expected<LoadedModel> loadModelWithReport(const std::string& nameOrPath) {
    if (nameOrPath.empty())
        return Error{"no model given: name a zoo model (" + zooNames() + ") or give " +
                     supportedModelInputs()};
    const auto zoo = model::zooModels();
    if (std::any_of(zoo.begin(), zoo.end(),
                    [&](const model::ZooEntry& e) { return e.name == nameOrPath; })) {
        auto source = model::zooModel(nameOrPath);
        if (!source) return source.error();
        return LoadedModel{*source, "zoo", {}};
    }
    const fs::path path(nameOrPath);
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        return Error{"model '" + nameOrPath + "' is neither a zoo model (" + zooNames() +
                     ") nor an existing file; expected " + supportedModelInputs()};
    if (fs::is_directory(status))
        return Error{"model '" + nameOrPath + "' is a directory; expected " +
                     supportedModelInputs() +
                     " (for a Hugging Face model folder, give its "
                     "config.json)"};
    if (!fs::is_regular_file(status))
        return Error{"model '" + nameOrPath + "' is not a regular file; expected " +
                     supportedModelInputs()};
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) return Error{"model file '" + nameOrPath + "' cannot be read: " + ec.message()};
    if (size == 0)
        return Error{"model file '" + nameOrPath + "' is empty (0 bytes); expected " +
                     supportedModelInputs()};
    auto loaded = loadFile(path);
    if (loaded) loaded->source = std::make_shared<FileModelSource>(loaded->source, nameOrPath);
    return loaded;
}

Expected<model::ModelSourcePtr> loadModel(const std::string& nameOrPath) {
    auto loaded = loadModelWithReport(nameOrPath);
    if (!loaded) return loaded.error();
    return loaded->source;
}

}  // namespace tandem::core::importers
