#include "core/common/text_excerpt.h"

#include <algorithm>

#include "core/common/units.h"

namespace tandem::core {

std::string textExcerpt(std::string_view text, std::size_t maxChars) {
    maxChars = std::max<std::size_t>(maxChars, 8);
    if (text.size() <= maxChars) return std::string(text);
    std::size_t cut = maxChars - 3;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return std::string(text.substr(0, cut)) + "...";
}

std::string listExcerpt(std::span<const std::string> items, std::size_t maxItems,
                        std::string_view separator, std::size_t itemChars) {
    const std::size_t shown = std::min(items.size(), std::max<std::size_t>(maxItems, 1));
    std::string list;
    for (std::size_t i = 0; i < shown; ++i) {
        if (i > 0) list += separator;
        list += textExcerpt(items[i], itemChars);
    }
    if (shown < items.size()) list += " and " + formatCount(double(items.size() - shown)) + " more";
    return list;
}

}  // namespace tandem::core
