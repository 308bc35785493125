#pragma once
// The one rule for quoting what a user supplied into a message (ARCHITECTURE.md §3.1): a flag's
// value, a file, layer or operator name, a member of a file, a list of names. A quote is cut to
// a bounded number of bytes, never inside a UTF-8 sequence, "..." marking the cut; a list shows
// its first items and "and N more". So a message stays short whatever the input held (a
// 100,000-character --layer, a shard whose "run" holds a megabyte, an ONNX file with a thousand
// unknown operators). jsonExcerpt (json_document.h) cuts JSON values by the same rule.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace tandem::core {

// Room for a long file path or a node name; far below what makes a message hard to read.
inline constexpr std::size_t kQuotedChars = 160;
inline constexpr std::size_t kQuotedItems = 8;

// `text` itself when it has at most `maxChars` bytes; else its beginning and "...", at most
// `maxChars` bytes in all (`maxChars` is taken as at least 8).
std::string textExcerpt(std::string_view text, std::size_t maxChars = kQuotedChars);

// "a, b, c": the items, each a textExcerpt of `itemChars`, joined by `separator`; when there
// are more than `maxItems`, the first `maxItems` and " and N more" (N in full: "and 1,234
// more").
std::string listExcerpt(std::span<const std::string> items, std::size_t maxItems = kQuotedItems,
                        std::string_view separator = ", ", std::size_t itemChars = kQuotedChars);

}  // namespace tandem::core
