// The hitcounter-cli subcommands: one table (command_table.cpp) maps a name to its entry point.
// Adding a command = one file defining `int runXxx(const QStringList&)`, one declaration here,
// one line in the table, one line in CMakeLists.txt.
//
// Threading: entry points run on the main thread, inside the QCoreApplication that main()
// created (a command may call QCoreApplication::exec() for an event loop).
// Contract: `arguments` starts with the program name as the command's help should show it
// ("hitcounter-cli judge"), followed by the command's own arguments. The return value is the
// process exit code (cli_options.h: kExitOk, kExitFailure, kExitBadInput).
#pragma once

#include <QStringList>
#include <span>
#include <string_view>

namespace hitcounter::cli {

struct Command {
    std::string_view name;
    std::string_view summary;  // one line for `hitcounter-cli --help`
    int (*run)(const QStringList& arguments);
};

std::span<const Command> commands();

int runJudge(const QStringList& arguments);
int runReplay(const QStringList& arguments);
int runListen(const QStringList& arguments);
int runGen(const QStringList& arguments);
int runSimulate(const QStringList& arguments);
int runLimit(const QStringList& arguments);
int runQuery(const QStringList& arguments);
int runRebuild(const QStringList& arguments);
int runFleetSim(const QStringList& arguments);
int runTeach(const QStringList& arguments);

}  // namespace hitcounter::cli
