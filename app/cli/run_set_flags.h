#pragma once
// What the commands over sets of measured runs (validate, calibrate) share: the names of the
// bundled sets, their --set flag, which takes both a set's name and hardware assignments
// (key=value), and their common flags.
#include <string>
#include <vector>

#include "app/cli/cli_arguments.h"

namespace tandem::cli {

// The bundled sets' names, comma-separated, for help and error texts.
std::string bundledSetList();

// The values of --set, split into set names and hardware assignments (those with '=').
struct SetValues {
    std::vector<std::string> names;
    std::vector<std::string> assignments;
};
SetValues splitSetValues(const CliArguments& args);

// Appends --threads, --verbose (with its help text), --quiet, --json and every hardware
// override flag but --set, which such a command declares itself.
void appendRunSetFlags(std::vector<FlagSpec>& flags, std::string verboseHelp);

}  // namespace tandem::cli
