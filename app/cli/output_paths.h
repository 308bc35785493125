#pragma once
// Outputs that would destroy a run's own files (issue: `--checkpoint X --json X` erased the
// checkpoint, `--trace` onto the model file overwrote it, `--json F --csv F` kept only the CSV).
// Before a command runs, every file output — the value of --json, --csv, --trace or --out, and
// --checkpoint, which is written too — must be a different file from every input (any other
// flag's value or an operand that names an existing regular file) and from every other output.
// Files are compared by identity (device and inode, so a link or another spelling of the same
// file is caught); a path that does not exist yet by its absolute, normalised form. Standard
// output ('-'), descriptor paths (/dev/stdout), devices and FIFOs are written through, never
// replaced, and are exempt.
#include <vector>

#include "app/cli/cli_arguments.h"
#include "core/common/expected.h"

namespace tandem::cli {

// Success, or the message of a usage error (exit 2) naming both flags and what to do.
core::Status checkOutputsApart(const CliArguments& args, const std::vector<FlagSpec>& flags);

}  // namespace tandem::cli
