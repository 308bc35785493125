#include <exception>
#include <new>

#include "app/cli/command.h"
#include "app/cli/output_paths.h"
#include "core/common/text_excerpt.h"
#include "core/common/version.h"

namespace tandem::cli {

namespace {
void printUsage(std::ostream& os, const std::vector<Command>& commands) {
    os << "Usage: tandem-cli COMMAND [flags]\n\n"
          "Co-optimise a training accelerator and the placement of a model on a cluster of it.\n\n"
          "Commands:\n";
    for (const Command& c : commands) {
        os << "  " << c.name << std::string(c.name.size() < 10 ? 10 - c.name.size() : 1, ' ')
           << c.summary << "\n";
    }
    os << "\nRun 'tandem-cli COMMAND --help' for the flags of a command, 'tandem-cli --version'"
          " for the version.\n";
}
}  // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const std::vector<Command> commands = allCommands();
    if (args.empty()) {
        printUsage(err, commands);
        return kExitBadInput;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printUsage(out, commands);
        return kExitOk;
    }
    if (args[0] == "--version" || args[0] == "-V") {
        if (args.size() > 1) {
            err << "tandem-cli: --version takes no further arguments\n";
            return kExitBadInput;
        }
        out << "tandem-cli " << core::version() << "\n";
        return kExitOk;
    }
    const Command* command = nullptr;
    for (const Command& c : commands)
        if (c.name == args[0]) command = &c;
    if (!command) {
        err << "tandem-cli: unknown command '" << core::textExcerpt(args[0]) << "'\n\n";
        printUsage(err, commands);
        return kExitBadInput;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (!rest.empty() && (rest[0] == "--help" || rest[0] == "-h")) {
        out << "Usage: tandem-cli " << command->name << " [flags]"
            << (command->operands.empty() ? "" : " " + command->operands) << "\n\n"
            << command->summary << "\n\nFlags:\n"
            << describeFlags(command->flags);
        return kExitOk;
    }
    const auto parsed = CliArguments::parse(rest, command->flags, !command->operands.empty());
    if (!parsed) {
        err << "tandem-cli " << command->name << ": " << parsed.message() << "\n";
        return kExitBadInput;
    }
    if (const auto apart = checkOutputsApart(*parsed, command->flags); !apart) {
        err << "tandem-cli " << command->name << ": " << apart.message() << "\n";
        return kExitBadInput;
    }
    try {
        return command->run(*parsed, out, err);
    } catch (const std::bad_alloc&) {
        err << "tandem-cli " << command->name << ": out of memory\n";
    } catch (const std::exception& e) {
        err << "tandem-cli " << command->name << ": internal error: " << e.what() << "\n";
    }
    return kExitInternal;
}

}  // namespace tandem::cli
