#pragma once
// A tandem-cli command: its flags, a one-line summary and the function that runs it. Exit codes
// follow ARCHITECTURE.md §1.11: 0 success, 2 bad input (message on stderr), 1 internal failure,
// 128 + the signal for a long command interrupted by Ctrl+C or SIGTERM (cli_run_control.h).
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/cli_arguments.h"

namespace tandem::cli {

enum ExitCode : int { kExitOk = 0, kExitInternal = 1, kExitBadInput = 2 };

struct Command {
    std::string name;
    std::string summary;
    std::vector<FlagSpec> flags;
    std::function<int(const CliArguments&, std::ostream& out, std::ostream& err)> run;
    // What the command takes after its flags ("FILES…"); empty: nothing but flags.
    std::string operands;
};

// Every command, in the order `tandem-cli --help` lists them.
std::vector<Command> allCommands();

// The whole CLI as a function, so tests can run it in-process. `args` excludes the program name.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tandem::cli
