// hitcounter-cli: headless access to the counting core. `hitcounter-cli COMMAND [options]`;
// the commands are listed in command_table.cpp and described in docs/cli.md.
#include <QCoreApplication>
#include <QTextStream>
#include <cstdio>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/stop_signals.h"

namespace {

QString usage() {
    QString text = QStringLiteral(
        "Usage: hitcounter-cli COMMAND [options]\n"
        "       hitcounter-cli COMMAND --help\n\nCommands:\n");
    for (const auto& command : hitcounter::cli::commands())
        text += QStringLiteral("  %1  %2\n")
                    .arg(QString::fromUtf8(command.name.data(), command.name.size()), -8)
                    .arg(QString::fromUtf8(command.summary.data(), command.summary.size()));
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace hitcounter::cli;
    ignoreBrokenPipe();  // a closed stdout is a write error each command reports
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("hitcounter-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(HITCOUNTER_VERSION));

    const QStringList arguments = QCoreApplication::arguments();
    const QString name = arguments.value(1);
    if (name == QLatin1String("--help") || name == QLatin1String("-h") ||
        name == QLatin1String("help")) {
        QTextStream(stdout) << usage();
        return checkedStdout();
    }
    if (name == QLatin1String("--version")) {
        QTextStream(stdout) << "hitcounter-cli " << HITCOUNTER_VERSION << '\n';
        return checkedStdout();
    }
    for (const auto& command : commands()) {
        if (name.toUtf8() != QByteArray(command.name.data(), command.name.size()))
            continue;
        QStringList commandArguments = arguments.mid(2);
        commandArguments.prepend(QStringLiteral("hitcounter-cli ") + name);
        return command.run(commandArguments);
    }
    printError(name.isEmpty() ? QStringLiteral("missing COMMAND")
                              : QStringLiteral("unknown command '%1'").arg(name));
    QTextStream(stderr) << usage();
    return kExitBadInput;
}
