#include "app/cli/calibrate_command.h"
#include "app/cli/catalog_commands.h"
#include "app/cli/command.h"
#include "app/cli/estimate_command.h"
#include "app/cli/merge_command.h"
#include "app/cli/place_command.h"
#include "app/cli/report_command.h"
#include "app/cli/schedule_command.h"
#include "app/cli/search_command.h"
#include "app/cli/validate_command.h"

namespace tandem::cli {

std::vector<Command> allCommands() {
    return {modelsCommand(),    presetsCommand(), estimateCommand(), scheduleCommand(),
            placeCommand(),     searchCommand(),  mergeCommand(),    validateCommand(),
            calibrateCommand(), reportCommand()};
}

}  // namespace tandem::cli
