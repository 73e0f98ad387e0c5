#include "app/cli/judge_input.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>
#include <QList>
#include <cmath>
#include <limits>

#include "core/io/trace_format.h"

namespace hitcounter::cli {

namespace {

struct Line {
    int number = 0;
    QByteArray text;
};

// Shows a JSON value in a message, cut short so a huge input cannot flood stderr.
QString shown(const QJsonValue& value) {
    QJsonArray wrapper{value};
    QString text = QString::fromUtf8(QJsonDocument(wrapper).toJson(QJsonDocument::Compact));
    text = text.mid(1, text.size() - 2);
    return text.size() > 40 ? text.left(40) + QStringLiteral("...") : text;
}

std::variant<QJsonArray, JudgeError> parseArrayLine(const Line& line, const QString& expected) {
    QJsonParseError error;
    const auto document = QJsonDocument::fromJson(line.text, &error);
    if (error.error != QJsonParseError::NoError)
        return JudgeError{line.number, QStringLiteral("invalid JSON at column %1 (%2); expected %3")
                                           .arg(error.offset + 1)
                                           .arg(error.errorString(), expected)};
    if (!document.isArray())
        return JudgeError{line.number,
                          QStringLiteral("not a JSON array; expected %1").arg(expected)};
    return document.array();
}

std::variant<JudgeCall::Op, JudgeError> parseOp(const QJsonValue& name, qsizetype index, int line) {
    const QString text = name.toString();
    if (text == QLatin1String("HitCounter")) {
        if (index == 0)
            return JudgeCall::Op::Construct;
        return JudgeError{line, QStringLiteral("\"HitCounter\" at position %1; expected it only "
                                               "at position 1")
                                    .arg(index + 1)};
    }
    if (index == 0)
        return JudgeError{
            line, QStringLiteral("operation 1 is %1; expected \"HitCounter\"").arg(shown(name))};
    if (text == QLatin1String("hit"))
        return JudgeCall::Op::Hit;
    if (text == QLatin1String("getHits"))
        return JudgeCall::Op::GetHits;
    return JudgeError{line, QStringLiteral("unknown operation %1 at position %2; expected "
                                           "\"HitCounter\", \"hit\" or \"getHits\"")
                                .arg(shown(name))
                                .arg(index + 1)};
}

// The timestamp in a [t] argument list, or the reason it is not one.
std::variant<Timestamp, QString> parseTimestamp(const QJsonValue& arguments) {
    const QJsonArray list = arguments.toArray();
    if (!arguments.isArray() || list.size() != 1)
        return QStringLiteral("expected [timestamp]");
    const QJsonValue value = list.first();
    if (!value.isDouble())
        return QStringLiteral("the timestamp is not a number; expected a whole number >= 0");
    const double seconds = value.toDouble();
    if (seconds < 0)
        return QStringLiteral("the timestamp is negative; expected a whole number >= 0");
    // Integers are kept exact (qint64); only non-integers and values beyond qint64 are doubles.
    const qint64 whole = value.toInteger(-1);
    if (whole > kTraceMaxTimestamp || (whole < 0 && seconds >= 0x1p62))
        return QStringLiteral("the timestamp is too large; expected at most %1")
            .arg(kTraceMaxTimestamp);
    if (whole < 0)
        return QStringLiteral("the timestamp is not a whole number; expected a whole number >= 0");
    return Timestamp{whole};
}

}  // namespace

std::variant<JudgeProgram, JudgeError> parseJudgeInput(const QByteArray& input) {
    QList<Line> lines;
    int number = 0;
    for (const QByteArray& text : input.split('\n')) {
        ++number;
        if (!text.trimmed().isEmpty())
            lines.append({number, text});
    }
    if (lines.isEmpty())
        return JudgeError{1, QStringLiteral("empty input; expected a JSON array of operation names "
                                            "such as [\"HitCounter\",\"hit\",\"getHits\"]")};
    if (lines.size() == 1)
        return JudgeError{lines[0].number + 1,
                          QStringLiteral("missing the second line; expected a JSON array "
                                         "of argument arrays such as [[],[1],[1]]")};
    if (lines.size() > 2)
        return JudgeError{lines[2].number,
                          QStringLiteral("unexpected text after the argument line; expected two "
                                         "lines (operation names, then arguments)")};

    auto names = parseArrayLine(lines[0], QStringLiteral("an array of operation names"));
    if (auto* error = std::get_if<JudgeError>(&names))
        return *error;
    auto arguments = parseArrayLine(lines[1], QStringLiteral("an array of argument arrays"));
    if (auto* error = std::get_if<JudgeError>(&arguments))
        return *error;
    const QJsonArray& nameArray = std::get<QJsonArray>(names);
    const QJsonArray& argumentArray = std::get<QJsonArray>(arguments);
    if (nameArray.isEmpty())
        return JudgeError{lines[0].number, QStringLiteral("no operations; expected \"HitCounter\" "
                                                          "first")};
    if (argumentArray.size() != nameArray.size())
        return JudgeError{lines[1].number, QStringLiteral("%1 argument lists for %2 operations; "
                                                          "expected one list per operation")
                                               .arg(argumentArray.size())
                                               .arg(nameArray.size())};

    JudgeProgram program;
    program.reserve(static_cast<std::size_t>(nameArray.size()));
    for (qsizetype i = 0; i < nameArray.size(); ++i) {
        const auto op = parseOp(nameArray[i], i, lines[0].number);
        if (auto* error = std::get_if<JudgeError>(&op))
            return *error;
        JudgeCall call{std::get<JudgeCall::Op>(op)};
        const QJsonValue argument = argumentArray[i];
        const QString opName = nameArray[i].toString();
        if (call.op == JudgeCall::Op::Construct) {
            if (!argument.isArray() || !argument.toArray().isEmpty())
                return JudgeError{lines[1].number,
                                  QStringLiteral("argument list 1 (HitCounter) is %1; expected []")
                                      .arg(shown(argument))};
        } else {
            const auto time = parseTimestamp(argument);
            if (auto* problem = std::get_if<QString>(&time))
                return JudgeError{lines[1].number, QStringLiteral("argument list %1 (%2) is %3; %4")
                                                       .arg(i + 1)
                                                       .arg(opName, shown(argument), *problem)};
            call.time = std::get<Timestamp>(time);
        }
        program.push_back(call);
    }
    return program;
}

QByteArray runJudge(const JudgeProgram& program, WindowCounter& counter) {
    QJsonArray answers;
    for (const auto& call : program) {
        switch (call.op) {
            case JudgeCall::Op::Construct:
                answers.append(QJsonValue::Null);
                break;
            case JudgeCall::Op::Hit:
                counter.hit(call.time);
                answers.append(QJsonValue::Null);
                break;
            case JudgeCall::Op::GetHits: {
                // Each call adds at most one hit, so a count always fits in qint64.
                answers.append(static_cast<qint64>(counter.count(call.time)));
                break;
            }
        }
    }
    return QJsonDocument(answers).toJson(QJsonDocument::Compact);
}

}  // namespace hitcounter::cli
