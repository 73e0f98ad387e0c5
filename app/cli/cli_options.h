// What every hitcounter-cli command shares: exit codes, error output, and the parsing of the
// common options (--policy, --window) with messages that name the bad value.
//
// Threading: main thread only. Every function that returns std::nullopt (or an exit code) has
// already written its message to stderr as "hitcounter-cli: <problem>".
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "app/common/option_reader.h"
#include "core/counters/counter_factory.h"

namespace hitcounter::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // the environment failed (cannot write the output)
inline constexpr int kExitBadInput = 2;  // bad arguments or bad input data

// The largest --window: the ring policy holds 16 bytes per second of window (16 MB here).
inline constexpr long long kMaxWindowSeconds = 1'000'000;

// The most characters of a message printError() shows: a longer one (a huge token echoed from
// a file) keeps its first three quarters and last quarter of that, with
// " … (N characters cut) … " between, so that both the start and the "expected ..." end remain.
inline constexpr qsizetype kShownMessageChars = 1024;

// Writes "hitcounter-cli: <message>\n" to stderr, cut to kShownMessageChars as
// shortenedMessage() says, control characters (NUL, ESC, CR, DEL, C1 ...) escaped as \0 \t \n
// \r or \xHH so that no input echoed in a message reaches the terminal raw.
void printError(const QString& message);
// `message` cut to kShownMessageChars as printError() cuts it.
QString shortenedMessage(const QString& message);
// `text` with its control characters escaped as printError does.
QString escapedControls(const QString& text);

// While one is alive, printError() starts every message with its `place`, so that a check
// made on a value from a config file names where the value came from:
//     ErrorPlace place(QStringLiteral("listen.toml:3: key 'duration': "));
//     printError("--duration 'x' is not a duration ...");  // "hitcounter-cli: listen.toml:3: ..."
// Main thread only. They nest: the destructor puts back the place before it.
class ErrorPlace {
public:
    explicit ErrorPlace(QString place);
    ~ErrorPlace();
    ErrorPlace(const ErrorPlace&) = delete;
    ErrorPlace& operator=(const ErrorPlace&) = delete;

private:
    QString m_previous;
};

// Flushes stdout and returns `exitCode`; if anything written to stdout was lost (a full disk,
// /dev/full, a closed pipe) names the error on stderr and returns kExitFailure instead.
// Every command ends with it after printing its result.
int checkedStdout(int exitCode = kExitOk);

// Parses `arguments` (see command.h) after adding --help. Returns an exit code when the
// command should end now: kExitOk after printing the help, kExitBadInput after naming an
// unknown option or a missing value. Returns std::nullopt when the command should go on.
std::optional<int> parseArguments(QCommandLineParser& parser, const QStringList& arguments);

// --policy NAME ("ring" by default); with allowAll, "all" means every policy.
QCommandLineOption policyOption(bool allowAll);
// --window SECONDS (300 by default, at most kMaxWindowSeconds).
QCommandLineOption windowOption();

// The chosen policy names, or std::nullopt for an unknown name.
std::optional<std::vector<std::string>> policiesFrom(const QCommandLineParser& parser,
                                                     const QCommandLineOption& option,
                                                     bool allowAll);
// Numbers in options are written plainly, the same for every option (app/common/option_reader.h,
// shared with the GUI): digits with an optional leading '-' (whole numbers), and a fraction
// .digits where a fraction is allowed. Spaces, '+', exponents (1e3), hex, inf and nan are refused.
//
// The option's value as a whole number in [min, max], or std::nullopt after naming the option,
// the value and the range.
std::optional<long long> wholeNumberFrom(const QCommandLineParser& parser,
                                         const QCommandLineOption& option, long long min,
                                         long long max);
// The option's value as a finite number in [min, max], or std::nullopt as above.
std::optional<double> numberFrom(const QCommandLineParser& parser, const QCommandLineOption& option,
                                 double min, double max);
// `text` as a whole number, or as a number with an optional fraction, written as above;
// std::nullopt if it is written otherwise.
using app::plainNumber;
using app::plainWholeNumber;

// The counter options with the chosen window, or std::nullopt unless it is a whole number in
// [1, kMaxWindowSeconds].
std::optional<CounterOptions> counterOptionsFrom(const QCommandLineParser& parser,
                                                 const QCommandLineOption& window);

// A count as a JSON number: exact up to 2^63 - 1 (Qt's integer limit), a rounded double above.
QJsonValue jsonCount(Count count);

}  // namespace hitcounter::cli
