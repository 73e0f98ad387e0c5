#include <cstdio>
#include <iostream>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "core/judge/leetcode_judge.h"

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

    std::ios::sync_with_stdio(false);  // std::cin reads in large blocks
    const auto counter = makeCounter(policies->front(), *options);
    const auto answers = answerLeetCode(std::cin, *counter);
    if (std::cin.bad()) {
        printError(QStringLiteral("cannot read stdin"));
        return kExitFailure;
    }
    if (const auto* error = std::get_if<TextProblem>(&answers)) {
        printError(QStringLiteral("stdin: ") + QString::fromStdString(error->describe()));
        return kExitBadInput;
    }
    const std::string& text = std::get<std::string>(answers);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
    return checkedStdout();
}

}  // namespace hitcounter::cli
