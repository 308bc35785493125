#include "app/cli/run_set_flags.h"

#include "app/cli/cli_inputs.h"
#include "core/validation/measured_run_set.h"

namespace tandem::cli {

std::string bundledSetList() {
    std::string list;
    for (const std::string& name : core::validation::bundledRunSetNames())
        list += (list.empty() ? "" : ", ") + name;
    return list;
}

SetValues splitSetValues(const CliArguments& args) {
    SetValues values;
    for (const std::string& value : args.values("set"))
        (value.find('=') != std::string::npos ? values.assignments : values.names).push_back(value);
    return values;
}

void appendRunSetFlags(std::vector<FlagSpec>& flags, std::string verboseHelp) {
    flags.push_back({"threads", "N", "worker threads, at most 256 (default: one per core)"});
    flags.push_back({"verbose", "", std::move(verboseHelp)});
    flags.push_back({"quiet", "", "no progress line on stderr"});
    flags.push_back({"json", "", "print one JSON object"});
    for (FlagSpec& flag : hardwareOverrideFlags())
        if (flag.name != "set") flags.push_back(std::move(flag));
}

}  // namespace tandem::cli
