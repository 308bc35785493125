// tandem-cli: the command-line interface (docs/ARCHITECTURE.md §1.11; commands in the README).
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/command.h"

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> args(argv + 1, argv + argc);
    const int code = tandem::cli::runCli(args, std::cout, std::cerr);
    std::cout.flush();
    return code;
}
