#include "app/cli/cli_options.h"

#include <QTextStream>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

namespace hitcounter::cli {

namespace {
QString g_errorPlace;  // ErrorPlace's, main thread only

QString joinedPolicyNames() {
    QStringList names;
    for (const auto name : policyNames())
        names << QString::fromUtf8(name.data(), name.size());
    return names.join(QStringLiteral(", "));
}
}  // namespace

QString escapedControls(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u >= 0x20 && u != 0x7f && !(u >= 0x80 && u < 0xa0)) {
            out += c;
            continue;
        }
        switch (u) {
            case 0:
                out += QStringLiteral("\\0");
                break;
            case '\t':
                out += QStringLiteral("\\t");
                break;
            case '\n':
                out += QStringLiteral("\\n");
                break;
            case '\r':
                out += QStringLiteral("\\r");
                break;
            default:
                out += QStringLiteral("\\x%1").arg(unsigned(u), 2, 16, QLatin1Char('0'));
        }
    }
    return out;
}

ErrorPlace::ErrorPlace(QString place) : m_previous(std::exchange(g_errorPlace, std::move(place))) {}

ErrorPlace::~ErrorPlace() {
    g_errorPlace = std::move(m_previous);
}

QString shortenedMessage(const QString& message) {
    if (message.size() <= kShownMessageChars)
        return message;
    const qsizetype tail = kShownMessageChars / 4;
    const qsizetype head = kShownMessageChars - tail;
    return message.left(head) +
           QStringLiteral(" \u2026 (%1 characters cut) \u2026 ").arg(message.size() - head - tail) +
           message.right(tail);
}

void printError(const QString& message) {
    QTextStream(stderr) << "hitcounter-cli: "
                        << escapedControls(shortenedMessage(g_errorPlace + message)) << '\n';
}

int checkedStdout(int exitCode) {
    errno = 0;
    const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout);
    if (!failed)
        return exitCode;
    const int error = errno;
    printError(QStringLiteral("cannot write to stdout (%1)")
                   .arg(error != 0
                            ? QString::fromLocal8Bit(std::strerror(error))
                            : QStringLiteral("a write failed: a full disk or a closed pipe?")));
    return kExitFailure;
}

std::optional<int> parseArguments(QCommandLineParser& parser, const QStringList& arguments) {
    const auto help = parser.addHelpOption();
    if (!parser.parse(arguments)) {
        printError(parser.errorText() + QStringLiteral(" (see --help)"));
        return kExitBadInput;
    }
    if (parser.isSet(help)) {
        QTextStream(stdout) << parser.helpText();
        return checkedStdout();
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

std::optional<long long> wholeNumberFrom(const QCommandLineParser& parser,
                                         const QCommandLineOption& option, long long min,
                                         long long max) {
    app::OptionReader reader(parser);
    const auto value = reader.wholeNumber(
        option, {min, max},
        QStringLiteral("{option} '{value}' is not valid; expected a whole number from %1 to %2")
            .arg(min)
            .arg(max));
    if (!value)
        printError(reader.error());
    return value;
}

std::optional<double> numberFrom(const QCommandLineParser& parser, const QCommandLineOption& option,
                                 double min, double max) {
    app::OptionReader reader(parser);
    const auto value = reader.number(
        option, {min, max},
        QStringLiteral("{option} '{value}' is not valid; expected a number from %1 to %2")
            .arg(min)
            .arg(max));
    if (!value)
        printError(reader.error());
    return value;
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
