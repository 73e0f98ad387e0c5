// OptionReader: the one way both apps read and check command-line option values (numbers in a
// range, one of a few words, options that clash or need another), keeping the first problem.
//
// Threading: main thread only (it reads a QCommandLineParser). Qt Core only.
//
// Messages are templates: "{option}" becomes the option's name ("--rate"), "{value}" the value
// as given. Each app keeps its own wording; the checking itself is here, once:
//     OptionReader r(parser);
//     const auto window = r.wholeNumber(windowOption, {1, 1'000'000},
//         "{option} '{value}' is not valid; expected a whole number from 1 to 1000000");
//     if (!r.ok()) print(r.error());
// A failed check returns std::nullopt (or false); after the first problem later checks still
// return their values but keep the first message, so a caller may check everything and then
// look at ok() once.
//
// Numbers (Syntax::Plain, the default): digits with an optional leading '-' (whole numbers),
// and a fraction .digits where a fraction is allowed. Spaces, '+', exponents (1e3), hex, inf
// and nan are refused. Syntax::Qt accepts what QString::toDouble / toLongLong accept (the GUI's
// options, where 1e7 has always been a valid --rate).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <initializer_list>
#include <optional>
#include <vector>

namespace hitcounter::app {

// `text` as a whole number, or as a number with an optional fraction, written plainly (above);
// std::nullopt if it is written otherwise.
std::optional<long long> plainWholeNumber(const QString& text);
std::optional<double> plainNumber(const QString& text);

// "--name" for the option's first name.
QString optionName(const QCommandLineOption& option);

enum class Syntax { Plain, Qt };

struct NumberRange {
    double min = 0;
    double max = 0;
    bool aboveMin = false;  // true: the value must be > min, not >= min
};

struct WholeRange {
    long long min = 0;
    long long max = 0;
};

class OptionReader {
public:
    explicit OptionReader(const QCommandLineParser& parser) : m_parser(parser) {}

    bool isSet(const QCommandLineOption& option) const { return m_parser.isSet(option); }
    QString value(const QCommandLineOption& option) const { return m_parser.value(option); }
    // Every value of an option that may be given several times, in order.
    QStringList values(const QCommandLineOption& option) const { return m_parser.values(option); }

    // The option's value as a finite number in `range`, or std::nullopt after `message`.
    std::optional<double> number(const QCommandLineOption& option, NumberRange range,
                                 const QString& message, Syntax syntax = Syntax::Plain);
    // The option's value as a whole number in `range`, or std::nullopt after `message`.
    std::optional<long long> wholeNumber(const QCommandLineOption& option, WholeRange range,
                                         const QString& message, Syntax syntax = Syntax::Plain);
    // The option's value as a comma-separated list of whole numbers, each in `range` ("5,12,3":
    // {5, 12, 3}), or std::nullopt after `message`, whose "{value}" is the first one that is not.
    std::optional<std::vector<long long>> wholeNumbers(const QCommandLineOption& option,
                                                       WholeRange range, const QString& message,
                                                       Syntax syntax = Syntax::Plain);
    // The option's value if it is one of `choices`, or std::nullopt after `message`.
    std::optional<QString> choice(const QCommandLineOption& option, const QStringList& choices,
                                  const QString& message);

    // The names ("--replay") of the options among `options` that are given, in that order.
    QStringList given(std::initializer_list<const QCommandLineOption*> options) const;
    // False after `message` when more than one of `options` is given; "{first}" and "{second}"
    // in it become the first two names given.
    bool atMostOne(std::initializer_list<const QCommandLineOption*> options,
                   const QString& message);
    // False after `message` when `option` is given but `condition` does not hold (the other
    // option it needs is missing).
    bool needs(const QCommandLineOption& option, bool condition, const QString& message);

    // Records `message` (the first one wins) and returns false.
    bool fail(const QString& message);
    bool ok() const { return m_error.isEmpty(); }
    const QString& error() const { return m_error; }

private:
    QString filled(const QString& message, const QCommandLineOption& option) const;
    QString filled(const QString& message, const QCommandLineOption& option,
                   const QString& value) const;

    const QCommandLineParser& m_parser;
    QString m_error;
};

}  // namespace hitcounter::app
