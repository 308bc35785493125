#include "core/search/explorer.h"

#include <string>

#include "core/search/exhaustive_explorer.h"
#include "core/search/phaze_explorer.h"
#include "core/search/pruned_explorer.h"

namespace tandem::core::search {

Expected<std::unique_ptr<Explorer>> makeExplorer(std::string_view name) {
    if (name == "exhaustive") return std::unique_ptr<Explorer>(new ExhaustiveExplorer());
    if (name == "phaze") return std::unique_ptr<Explorer>(new PhazeExplorer());
    if (name == "pruned") return std::unique_ptr<Explorer>(new PrunedExplorer());
    return Error{"explorer \"" + std::string(name) +
                 "\" is unknown: must be one of exhaustive, phaze, pruned"};
}

}  // namespace tandem::core::search
