#include "app/common/option_reader.h"

#include <QRegularExpression>
#include <cmath>

namespace hitcounter::app {

std::optional<long long> plainWholeNumber(const QString& text) {
    static const QRegularExpression syntax(QStringLiteral("^-?[0-9]+$"));
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    if (!ok || !syntax.match(text).hasMatch())
        return std::nullopt;
    return value;
}

std::optional<double> plainNumber(const QString& text) {
    static const QRegularExpression syntax(QStringLiteral("^-?[0-9]+(\\.[0-9]+)?$"));
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || !syntax.match(text).hasMatch())
        return std::nullopt;
    return value;
}

QString optionName(const QCommandLineOption& option) {
    return QStringLiteral("--") + option.names().constFirst();
}

namespace {

std::optional<double> numberIn(const QString& text, Syntax syntax) {
    if (syntax == Syntax::Plain)
        return plainNumber(text);
    bool ok = false;
    const double value = text.toDouble(&ok);
    return ok && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

std::optional<long long> wholeNumberIn(const QString& text, Syntax syntax) {
    if (syntax == Syntax::Plain)
        return plainWholeNumber(text);
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    return ok ? std::optional<long long>(value) : std::nullopt;
}

}  // namespace

QString OptionReader::filled(const QString& message, const QCommandLineOption& option) const {
    return filled(message, option, m_parser.value(option));
}

QString OptionReader::filled(const QString& message, const QCommandLineOption& option,
                             const QString& value) const {
    return QString(message)
        .replace(QStringLiteral("{option}"), optionName(option))
        .replace(QStringLiteral("{value}"), value);
}

std::optional<double> OptionReader::number(const QCommandLineOption& option, NumberRange range,
                                           const QString& message, Syntax syntax) {
    const auto value = numberIn(m_parser.value(option), syntax);
    if (value && (range.aboveMin ? *value > range.min : *value >= range.min) && *value <= range.max)
        return value;
    fail(filled(message, option));
    return std::nullopt;
}

std::optional<long long> OptionReader::wholeNumber(const QCommandLineOption& option,
                                                   WholeRange range, const QString& message,
                                                   Syntax syntax) {
    const auto value = wholeNumberIn(m_parser.value(option), syntax);
    if (value && *value >= range.min && *value <= range.max)
        return value;
    fail(filled(message, option));
    return std::nullopt;
}

std::optional<std::vector<long long>> OptionReader::wholeNumbers(const QCommandLineOption& option,
                                                                 WholeRange range,
                                                                 const QString& message,
                                                                 Syntax syntax) {
    std::vector<long long> values;
    for (const QString& text : m_parser.value(option).split(QLatin1Char(','))) {
        const auto value = wholeNumberIn(text, syntax);
        if (!value || *value < range.min || *value > range.max) {
            fail(filled(message, option, text));
            return std::nullopt;
        }
        values.push_back(*value);
    }
    return values;
}

std::optional<QString> OptionReader::choice(const QCommandLineOption& option,
                                            const QStringList& choices, const QString& message) {
    const QString value = m_parser.value(option);
    if (choices.contains(value))
        return value;
    fail(filled(message, option));
    return std::nullopt;
}

QStringList OptionReader::given(std::initializer_list<const QCommandLineOption*> options) const {
    QStringList names;
    for (const QCommandLineOption* option : options) {
        if (m_parser.isSet(*option))
            names << optionName(*option);
    }
    return names;
}

bool OptionReader::atMostOne(std::initializer_list<const QCommandLineOption*> options,
                             const QString& message) {
    const QStringList names = given(options);
    if (names.size() <= 1)
        return true;
    return fail(QString(message)
                    .replace(QStringLiteral("{first}"), names[0])
                    .replace(QStringLiteral("{second}"), names[1]));
}

bool OptionReader::needs(const QCommandLineOption& option, bool condition, const QString& message) {
    if (!m_parser.isSet(option) || condition)
        return true;
    return fail(filled(message, option));
}

bool OptionReader::fail(const QString& message) {
    if (m_error.isEmpty())
        m_error = message;
    return false;
}

}  // namespace hitcounter::app
