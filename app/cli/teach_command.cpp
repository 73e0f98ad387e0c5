// hitcounter-cli teach: a lesson's steps headless, as the teaching view shows them (issue 16,
// build 6). The JSON shape is documented in docs/cli.md; its names are kept stable for scripts.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <string>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "core/teach/lessons.h"
#include "core/teach/limiter_timeline.h"
#include "core/teach/practice.h"
#include "core/teach/timeline.h"

namespace hitcounter::cli {

namespace {

using teach::Frame;
using teach::Line;
using teach::Operation;

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

QString operationText(const Operation& op) {
    QString text = op.kind == Operation::Kind::Hit ? QStringLiteral("hit %1").arg(op.second)
                                                   : QStringLiteral("getHits %1").arg(op.second);
    if (op.repeat > 1) {
        text += QStringLiteral(" x%1").arg(op.repeat);
    }
    return text;
}

// The pseudocode line as the view highlights it, without indentation or comment; null for none.
QJsonValue lineText(Line line) {
    if (line == Line::None) {
        return QJsonValue();
    }
    const std::string_view code = teach::kPseudocode[std::size_t(line)];
    QString text = QString::fromUtf8(code.data(), qsizetype(code.size()));
    const qsizetype hash = text.indexOf(QLatin1Char('#'));
    if (hash >= 0) {
        text.truncate(hash);
    }
    return text.trimmed();
}

QJsonValue slotJson(const teach::RingSlot& s) {
    if (!s.used) {
        return QJsonValue();
    }
    return QJsonObject{{QStringLiteral("second"), qint64(s.second)},
                       {QStringLiteral("count"), jsonCount(s.count)},
                       {QStringLiteral("in_window"), s.inWindow}};
}

QJsonObject stepJson(const Frame& f) {
    QJsonArray slots;
    for (const auto& s : f.ring) {
        slots.append(slotJson(s));
    }
    QJsonArray subSteps;
    for (const teach::SubStep& sub : f.subSteps) {
        QJsonObject o{{QStringLiteral("line"), lineText(sub.line)},
                      {QStringLiteral("line_number"), int(sub.line) + 1},
                      {QStringLiteral("text"), fromStd(sub.text)}};
        if (sub.slot) {
            o.insert(QStringLiteral("slot"), qint64(*sub.slot));
            o.insert(QStringLiteral("state"), slotJson(sub.slotState));
        }
        if (sub.total) {
            o.insert(QStringLiteral("total"), jsonCount(*sub.total));
        }
        if (sub.taken) {
            o.insert(QStringLiteral("taken"), *sub.taken);
        }
        subSteps.append(o);
    }
    return QJsonObject{
        {QStringLiteral("step"), qint64(f.step)},
        {QStringLiteral("operation"), f.op ? QJsonValue(operationText(*f.op)) : QJsonValue()},
        {QStringLiteral("answer"), f.answer ? jsonCount(*f.answer) : QJsonValue()},
        {QStringLiteral("window"), f.op ? QJsonValue(fromStd(f.windowText())) : QJsonValue()},
        {QStringLiteral("line"), lineText(f.codeLine)},
        {QStringLiteral("line_number"),
         f.codeLine == Line::None ? QJsonValue() : QJsonValue(int(f.codeLine) + 1)},
        {QStringLiteral("narration"), fromStd(f.narration)},
        {QStringLiteral("slot"), f.slot ? QJsonValue(qint64(*f.slot)) : QJsonValue()},
        {QStringLiteral("slots"), slots},
        {QStringLiteral("sub_steps"), subSteps},
        {QStringLiteral("bytes"), QJsonObject{{QStringLiteral("ring"), qint64(f.ringBytes)},
                                              {QStringLiteral("deque"), qint64(f.dequeBytes)},
                                              {QStringLiteral("vector"), qint64(f.naiveBytes)}}},
        // The cost in slot visits (issue 16, build 2): the textbook O(W) scan against the
        // running total with lazy expiry (teach::Frame::scanVisits).
        {QStringLiteral("slot_visits"),
         QJsonObject{{QStringLiteral("scan"), qint64(f.scanVisits)},
                     {QStringLiteral("running_total"), qint64(f.runningVisits)},
                     {QStringLiteral("scan_so_far"), qint64(f.scanVisitsSoFar)},
                     {QStringLiteral("running_total_so_far"), qint64(f.runningVisitsSoFar)},
                     {QStringLiteral("expired"),
                      [&f] {
                          QJsonArray a;
                          for (std::size_t i : f.expired) {
                              a.append(qint64(i));
                          }
                          return a;
                      }()}}},
        {QStringLiteral("cost"), f.op ? QJsonValue(fromStd(f.costText)) : QJsonValue()},
    };
}

// A rate-limit lesson's step: the same names where they apply, and each limiter's decision.
QJsonObject limiterStepJson(const teach::LimiterFrame& f) {
    QJsonArray limiters;
    for (const auto& lane : f.lanes) {
        QJsonObject o{{QStringLiteral("name"), fromStd(lane.name)},
                      {QStringLiteral("accepted_so_far"), jsonCount(lane.accepted)},
                      {QStringLiteral("rejected_so_far"), jsonCount(lane.rejected)},
                      {QStringLiteral("reason"), fromStd(lane.reason)}};
        if (lane.decision) {
            o.insert(QStringLiteral("accepted"), jsonCount(lane.decision->accepted));
            o.insert(QStringLiteral("rejected"), jsonCount(lane.decision->rejected));
        }
        limiters.append(o);
    }
    return QJsonObject{
        {QStringLiteral("step"), qint64(f.step)},
        {QStringLiteral("operation"), f.op ? QJsonValue(operationText(*f.op)) : QJsonValue()},
        {QStringLiteral("answer"), QJsonValue()},
        {QStringLiteral("window"), QJsonValue()},
        {QStringLiteral("line"), QJsonValue()},
        {QStringLiteral("narration"), fromStd(f.narration)},
        {QStringLiteral("slots"), QJsonArray()},
        {QStringLiteral("limiters"), limiters},
    };
}

QString lessonIds() {
    QStringList ids;
    for (const auto& lesson : teach::lessons()) {
        ids << fromStd(lesson.id);
    }
    return ids.join(QStringLiteral(", "));
}

void printText(const QJsonArray& steps) {
    QTextStream out(stdout);
    for (const QJsonValue& v : steps) {
        const QJsonObject s = v.toObject();
        out << "step " << s.value(QStringLiteral("step")).toInteger() << ": "
            << (s.value(QStringLiteral("operation")).isNull()
                    ? QStringLiteral("start")
                    : s.value(QStringLiteral("operation")).toString());
        if (!s.value(QStringLiteral("answer")).isNull()) {
            out << " -> " << s.value(QStringLiteral("answer")).toInteger() << " in "
                << s.value(QStringLiteral("window")).toString();
        }
        out << '\n';
        for (const QJsonValue& sub : s.value(QStringLiteral("sub_steps")).toArray()) {
            out << "    " << sub.toObject().value(QStringLiteral("line")).toString() << "    | "
                << sub.toObject().value(QStringLiteral("text")).toString() << '\n';
        }
        out << "    " << s.value(QStringLiteral("narration")).toString() << "\n\n";
    }
}

}  // namespace

int runTeach(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs a teaching lesson (or your own operations) through the ring, the deque and the "
        "naive vector and prints every step as the teaching view shows it: the operation, the "
        "answer, the effective window, the highlighted pseudocode line, the narration, the "
        "slots and the sub-steps. See docs/cli.md and docs/teaching.md."));
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QStringLiteral("Operations in the editor's syntax (hit 5, hit 7 x40, getHits 301) or the "
                       "LeetCode input (two JSON arrays); - for stdin. Or use --lesson."));
    const QCommandLineOption lesson(QStringLiteral("lesson"),
                                    QStringLiteral("A built-in lesson: %1.").arg(lessonIds()),
                                    QStringLiteral("ID"));
    const QCommandLineOption window(
        QStringLiteral("window"),
        QStringLiteral("W in seconds, %1 to %2 (default: the lesson's, 300 for a FILE).")
            .arg(teach::kMinTeachWindow.count())
            .arg(teach::kMaxTeachWindow.count()),
        QStringLiteral("W"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print the steps as JSON (default: text)."));
    const QCommandLineOption practice(
        QStringLiteral("practice"),
        QStringLiteral("A practice: seeded random operations (the view's New practice; W 10 by "
                       "default); the JSON lists its questions."),
        QStringLiteral("SEED"));
    parser.addOptions({lesson, window, json, practice});
    if (const auto exit = parseArguments(parser, arguments)) {
        return *exit;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() + (parser.isSet(lesson) ? 1 : 0) + (parser.isSet(practice) ? 1 : 0) != 1) {
        printError(
            QStringLiteral("teach expects one FILE, --lesson ID or --practice SEED (lessons: %1)")
                .arg(lessonIds()));
        return kExitBadInput;
    }
    const teach::Lesson* chosen = nullptr;
    QString source;
    std::string text;
    if (parser.isSet(lesson)) {
        for (const auto& l : teach::lessons()) {
            if (fromStd(l.id) == parser.value(lesson)) {
                chosen = &l;
            }
        }
        if (!chosen) {
            printError(QStringLiteral("unknown lesson '%1'; expected one of %2")
                           .arg(parser.value(lesson), lessonIds()));
            return kExitBadInput;
        }
        text = chosen->operations;
        source = parser.value(lesson);
    } else if (parser.isSet(practice)) {
        source = parser.value(practice);
    } else {
        source = files.first();
        QFile file;
        const bool opened = source == QLatin1String("-")
                                ? file.open(stdin, QIODevice::ReadOnly)
                                : (file.setFileName(source), file.open(QIODevice::ReadOnly));
        if (!opened) {
            printError(QStringLiteral("%1: %2").arg(source, file.errorString()));
            return kExitBadInput;
        }
        const QByteArray bytes = file.read(1 << 20);
        text = bytes.toStdString();
    }
    std::chrono::seconds w = chosen                   ? chosen->window
                             : parser.isSet(practice) ? std::chrono::seconds{10}
                                                      : teach::kMaxTeachWindow;
    if (parser.isSet(window)) {
        const auto value = wholeNumberFrom(parser, window, teach::kMinTeachWindow.count(),
                                           teach::kMaxTeachWindow.count());
        if (!value) {
            return kExitBadInput;
        }
        w = std::chrono::seconds{*value};
    }
    std::optional<std::uint64_t> seed;
    if (parser.isSet(practice)) {
        const auto value = wholeNumberFrom(parser, practice, 1, 999'999'999);
        if (!value) {
            return kExitBadInput;
        }
        seed = std::uint64_t(*value);
        text = teach::practiceOperations(*seed, w);
    }
    teach::ParseResult parsed = teach::parseOperations(text);
    if (const auto* error = std::get_if<teach::ParseError>(&parsed)) {
        printError(QStringLiteral("%1: %2").arg(source, fromStd(error->describe())));
        return kExitBadInput;
    }
    auto operations = std::move(std::get<std::vector<Operation>>(parsed));

    QJsonArray steps;
    QJsonArray questions;
    if (chosen && chosen->kind == teach::LessonKind::RateLimit) {
        const teach::LimiterTimeline timeline(std::move(operations), RateLimit{chosen->limit, w},
                                              chosen->limiters);
        for (const auto& f : timeline.frames()) {
            steps.append(limiterStepJson(f));
        }
    } else {
        const teach::Timeline timeline(std::move(operations), w);
        for (const Frame& f : timeline.frames()) {
            steps.append(stepJson(f));
        }
        for (const teach::Question& q : teach::questions(timeline)) {
            questions.append(
                QJsonObject{{QStringLiteral("step"), qint64(q.step)},
                            {QStringLiteral("kind"), q.kind == teach::Question::Kind::GetHits
                                                         ? QStringLiteral("getHits")
                                                         : QStringLiteral("slot_count")},
                            {QStringLiteral("prompt"), fromStd(q.prompt)},
                            {QStringLiteral("answer"), jsonCount(q.answer)}});
        }
    }
    if (parser.isSet(json)) {
        const QJsonObject root{
            {QStringLiteral("lesson"), chosen ? QJsonValue(source) : QJsonValue()},
            {QStringLiteral("file"), chosen || seed ? QJsonValue() : QJsonValue(source)},
            {QStringLiteral("practice_seed"), seed ? QJsonValue(qint64(*seed)) : QJsonValue()},
            {QStringLiteral("operations"), fromStd(text)},
            {QStringLiteral("questions"), questions},
            {QStringLiteral("window_seconds"), qint64(w.count())},
            {QStringLiteral("written_for_window_seconds"),
             chosen ? QJsonValue(qint64(chosen->window.count())) : QJsonValue()},
            {QStringLiteral("steps"), steps},
        };
        QTextStream(stdout) << QJsonDocument(root).toJson(QJsonDocument::Indented);
    } else {
        printText(steps);
    }
    return checkedStdout();
}

}  // namespace hitcounter::cli
