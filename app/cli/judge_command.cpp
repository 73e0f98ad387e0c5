#include <QFile>
#include <QTextStream>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/judge_input.h"

namespace hitcounter::cli {

int runJudge(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads the LeetCode 362 test format on stdin (line 1: operation names, line 2: argument "
        "lists) and prints the answers as one JSON array."));
    const auto policy = policyOption(false);
    const auto window = windowOption();
    parser.addOptions({policy, window});
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("judge reads stdin; unexpected argument '%1'")
                       .arg(parser.positionalArguments().first()));
        return kExitBadInput;
    }
    const auto policies = policiesFrom(parser, policy, false);
    const auto options = counterOptionsFrom(parser, window);
    if (!policies || !options)
        return kExitBadInput;

    QFile input;
    if (!input.open(stdin, QIODevice::ReadOnly)) {
        printError(QStringLiteral("cannot read stdin"));
        return kExitFailure;
    }
    const auto program = parseJudgeInput(input.readAll());
    if (const auto* error = std::get_if<JudgeError>(&program)) {
        printError(QStringLiteral("stdin: ") + error->describe());
        return kExitBadInput;
    }
    const auto counter = makeCounter(policies->front(), *options);
    QTextStream(stdout) << runJudge(std::get<JudgeProgram>(program), *counter) << '\n';
    return checkedStdout();
}

}  // namespace hitcounter::cli
