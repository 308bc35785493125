#include "core/search/explorer.h"

#include <string>

#include "core/common/enum_names.h"
#include "core/common/text_excerpt.h"
#include "core/search/exhaustive_explorer.h"
#include "core/search/phaze_explorer.h"
#include "core/search/pruned_explorer.h"

namespace tandem::core::search {

namespace {
constexpr EnumNames<ExplorerKind, 3> kExplorerNames{{
    {ExplorerKind::Exhaustive, "exhaustive"},
    {ExplorerKind::Phaze, "phaze"},
    {ExplorerKind::Pruned, "pruned"},
}};
}  // namespace

std::string_view toString(ExplorerKind kind) {
    return enumName(kExplorerNames, kind);
}

Expected<ExplorerKind> parseExplorerKind(std::string_view name) {
    ExplorerKind kind{};
    if (parseEnumName(kExplorerNames, name, kind)) return kind;
    std::string valid;
    for (ExplorerKind k : kExplorerKinds)
        valid += (valid.empty() ? "" : ", ") + std::string(toString(k));
    return Error{"explorer \"" + textExcerpt(name) + "\" is unknown: must be one of " + valid};
}

std::unique_ptr<Explorer> makeExplorer(ExplorerKind kind) {
    switch (kind) {
        case ExplorerKind::Exhaustive:
            return std::make_unique<ExhaustiveExplorer>();
        case ExplorerKind::Phaze:
            return std::make_unique<PhazeExplorer>();
        case ExplorerKind::Pruned:
            return std::make_unique<PrunedExplorer>();
    }
    return nullptr;
}

}  // namespace tandem::core::search
