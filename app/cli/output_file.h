#pragma once
// Where a command writes a file flag's content (--json FILE, --csv FILE, --trace FILE): "-" is
// standard output; a path that names one of this process's open descriptors (/dev/stdout,
// /dev/stderr, /dev/fd/N as bash's >(…) gives, /proc/self/fd/N, or a link to one) is written
// through that descriptor at its own offset, so `--json /dev/stdout >> run.log` appends and a pipe
// or terminal receives the bytes; a FIFO (or a link to one) is written through once a program
// reads it, and when none does yet `err` says that the command waits for one; anything else goes
// through core::writeFileAtomically, which replaces regular files atomically, follows symbolic
// links and writes through to devices (/dev/null stays a device).
#include <ostream>
#include <string>
#include <string_view>

#include "core/common/expected.h"

namespace tandem::cli {

inline constexpr std::string_view kStandardOutput = "-";

core::Status writeOutputFile(const std::string& path, std::string_view content, std::ostream& out,
                             std::ostream& err);

// Whether `path` names one of this process's open descriptors (written through, never replaced).
bool namesDescriptor(const std::string& path);

}  // namespace tandem::cli
