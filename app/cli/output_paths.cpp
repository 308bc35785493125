#include "app/cli/output_paths.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>

#include "app/cli/output_file.h"
#include "core/common/text_excerpt.h"
#include "core/common/text_file.h"

namespace tandem::cli {

namespace {

bool isOutputFlag(const std::string& name) {
    return name == "json" || name == "csv" || name == "trace" || name == "out" ||
           name == "checkpoint";
}

struct FileIdentity {
    bool exists = false;
    dev_t device = 0;
    ino_t inode = 0;
    std::string path;  // when it does not exist: absolute and normalised
    bool operator==(const FileIdentity& o) const {
        if (exists != o.exists) return false;
        return exists ? device == o.device && inode == o.inode : path == o.path;
    }
};

// A regular file (existing or to be created) that writing would replace; nullopt for what is
// written through or cannot be written at all (standard output, descriptors, devices, FIFOs,
// directories, which the writer refuses with its own message).
std::optional<FileIdentity> replacedFile(const std::string& path) {
    if (path.empty() || path == kStandardOutput || namesDescriptor(path)) return std::nullopt;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) return std::nullopt;
        return FileIdentity{true, st.st_dev, st.st_ino, {}};
    }
    std::error_code ec;
    // A link to a file not there yet: the writer creates the file it points to.
    const auto target = core::linkTarget(path);
    std::filesystem::path p = std::filesystem::weakly_canonical(
        target ? target.value() : std::filesystem::path(path), ec);
    if (ec) p = std::filesystem::absolute(path, ec).lexically_normal();
    return FileIdentity{false, 0, 0, p.string()};
}

// An existing regular file an input names.
std::optional<FileIdentity> existingFile(const std::string& path) {
    auto file = replacedFile(path);
    if (file && !file->exists) return std::nullopt;
    return file;
}

struct Named {
    std::string what;  // "--json 'out.json'", "the input 'shard.json'"
    FileIdentity file;
};

std::string quoted(const std::string& flag, const std::string& path) {
    return (flag.empty() ? std::string("the input") : "--" + flag) + " '" +
           core::textExcerpt(path) + "'";
}

}  // namespace

core::Status checkOutputsApart(const CliArguments& args, const std::vector<FlagSpec>& flags) {
    std::vector<Named> outputs, inputs;
    for (const FlagSpec& spec : flags) {
        if (spec.valueName.empty() || !args.has(spec.name)) continue;
        for (const std::string& value : args.values(spec.name)) {
            if (isOutputFlag(spec.name)) {
                if (auto file = replacedFile(value))
                    outputs.push_back({quoted(spec.name, value), *file});
            } else if (auto file = existingFile(value)) {
                inputs.push_back({quoted(spec.name, value), *file});
            }
        }
    }
    for (const std::string& operand : args.operands())
        if (auto file = existingFile(operand)) inputs.push_back({quoted("", operand), *file});
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j)
            if (outputs[i].file == outputs[j].file)
                return core::Error{outputs[i].what + " is the same file as " + outputs[j].what +
                                   ": one would overwrite the other; give each output its own "
                                   "file"};
        for (const Named& input : inputs)
            if (outputs[i].file == input.file)
                return core::Error{outputs[i].what + " is the same file as " + input.what +
                                   ", which this command reads: writing it would destroy that "
                                   "file; choose another output path"};
    }
    return core::Status::success();
}

}  // namespace tandem::cli
