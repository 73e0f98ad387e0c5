#include "app/cli/cli_options.h"

#include <QTextStream>
#include <limits>

namespace hitcounter::cli {

namespace {
QString joinedPolicyNames() {
    QStringList names;
    for (const auto name : policyNames())
        names << QString::fromUtf8(name.data(), name.size());
    return names.join(QStringLiteral(", "));
}
}  // namespace

void printError(const QString& message) {
    QTextStream(stderr) << "hitcounter-cli: " << message << '\n';
}

std::optional<int> parseArguments(QCommandLineParser& parser, const QStringList& arguments) {
    const auto help = parser.addHelpOption();
    if (!parser.parse(arguments)) {
        printError(parser.errorText() + QStringLiteral(" (see --help)"));
        return kExitBadInput;
    }
    if (parser.isSet(help)) {
        QTextStream(stdout) << parser.helpText();
        return kExitOk;
    }
    return std::nullopt;
}

QCommandLineOption policyOption(bool allowAll) {
    return QCommandLineOption(
        QStringLiteral("policy"),
        QStringLiteral("Counting policy: %1%2 (default ring).")
            .arg(joinedPolicyNames(), allowAll ? QStringLiteral(", or all") : QString()),
        QStringLiteral("P"), QStringLiteral("ring"));
}

QCommandLineOption windowOption() {
    return QCommandLineOption(
        QStringLiteral("window"),
        QStringLiteral("Window length in seconds, 1 to %1 (default 300).").arg(kMaxWindowSeconds),
        QStringLiteral("W"), QString::number(kDefaultWindow.count()));
}

std::optional<std::vector<std::string>> policiesFrom(const QCommandLineParser& parser,
                                                     const QCommandLineOption& option,
                                                     bool allowAll) {
    const QString value = parser.value(option);
    std::vector<std::string> chosen;
    if (allowAll && value == QLatin1String("all")) {
        for (const auto name : policyNames())
            chosen.emplace_back(name);
        return chosen;
    }
    for (const auto name : policyNames()) {
        if (value.toStdString() == name)
            return std::vector<std::string>{std::string(name)};
    }
    printError(
        QStringLiteral("unknown policy '%1'; expected one of %2%3")
            .arg(value, joinedPolicyNames(), allowAll ? QStringLiteral(", all") : QString()));
    return std::nullopt;
}

namespace {
QString optionName(const QCommandLineOption& option) {
    return QStringLiteral("--") + option.names().constFirst();
}
}  // namespace

std::optional<long long> wholeNumberFrom(const QCommandLineParser& parser,
                                         const QCommandLineOption& option, long long min,
                                         long long max) {
    bool ok = false;
    const QString text = parser.value(option);
    const qlonglong value = text.toLongLong(&ok);
    if (ok && value >= min && value <= max)
        return value;
    printError(QStringLiteral("%1 '%2' is not valid; expected a whole number from %3 to %4")
                   .arg(optionName(option), text)
                   .arg(min)
                   .arg(max));
    return std::nullopt;
}

std::optional<double> numberFrom(const QCommandLineParser& parser, const QCommandLineOption& option,
                                 double min, double max) {
    bool ok = false;
    const QString text = parser.value(option);
    const double value = text.toDouble(&ok);
    if (ok && value >= min && value <= max)
        return value;
    printError(QStringLiteral("%1 '%2' is not valid; expected a number from %3 to %4")
                   .arg(optionName(option), text)
                   .arg(min)
                   .arg(max));
    return std::nullopt;
}

std::optional<CounterOptions> counterOptionsFrom(const QCommandLineParser& parser,
                                                 const QCommandLineOption& window) {
    const auto seconds = wholeNumberFrom(parser, window, 1, kMaxWindowSeconds);
    if (!seconds)
        return std::nullopt;
    CounterOptions options;
    options.window = std::chrono::seconds{*seconds};
    return options;
}

QJsonValue jsonCount(Count count) {
    if (count > static_cast<Count>(std::numeric_limits<qint64>::max()))
        return static_cast<double>(count);
    return static_cast<qint64>(count);
}

}  // namespace hitcounter::cli
