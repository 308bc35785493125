#pragma once
#include "app/cli/command.h"

namespace tandem::cli {

Command modelsCommand();
Command presetsCommand();

}  // namespace tandem::cli
