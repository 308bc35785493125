#pragma once
// Whole-file text I/O for user documents. writeFileAtomically either fully replaces the file or
// leaves the old one alone: the content goes to a uniquely named temp file in the target's own
// directory (so the final rename cannot cross file systems), is flushed with fsync and replaces
// the target with rename(2), which is atomic on POSIX; on any failure the temp file is removed.
// A new file gets mode 0644 rather than the temp file's 0600; an existing file keeps its mode.
// Only regular files are replaced: a symbolic link is followed (the file it points to is replaced,
// the link stays); an existing character device or FIFO (/dev/null, a pipe) is written through,
// never replaced; other special files are refused.
// readTextFile refuses missing paths, directories, special files and files above `maxBytes`.
// Messages name the path and the system error. Used for hardware files here and for project
// files in io/.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/common/expected.h"

namespace tandem::core {

Status writeFileAtomically(const std::filesystem::path& path, std::string_view content);
// Where a chain of symbolic links ends (`path` itself when it is no link), existing or not: the
// file writeFileAtomically replaces or creates. An error for more than 40 links (a loop) or a
// link that cannot be read.
Expected<std::filesystem::path> linkTarget(const std::filesystem::path& path);

Expected<std::string> readTextFile(const std::filesystem::path& path,
                                   std::uintmax_t maxBytes = std::uintmax_t(64) << 20);

}  // namespace tandem::core
