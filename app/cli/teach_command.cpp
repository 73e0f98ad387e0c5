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
#include "core/teach/ring_variant.h"
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
QJsonValue lineJson(Line line) {
    if (line == Line::None) {
        return QJsonValue();
    }
    const std::string_view code = teach::lineText(line);
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
        QJsonObject o{{QStringLiteral("line"), lineJson(sub.line)},
                      {QStringLiteral("line_number"), teach::lineIndex(sub.line) + 1},
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
        {QStringLiteral("line"), lineJson(f.codeLine)},
        {QStringLiteral("line_number"),
         f.codeLine == Line::None ? QJsonValue() : QJsonValue(teach::lineIndex(f.codeLine) + 1)},
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

// One side of a built-ring comparison (issue 16, build 4): the slots as that ring holds them
// (null for an empty slot; "second" null when the ring stores counts only), and what the
// operation gave.
QJsonObject sideJson(const teach::SideState& side) {
    QJsonArray slots;
    for (const teach::VariantSlot& s : side.slots) {
        slots.append(s.used ? QJsonValue(QJsonObject{
                                  {QStringLiteral("second"),
                                   s.second ? QJsonValue(qint64(*s.second)) : QJsonValue()},
                                  {QStringLiteral("count"), jsonCount(s.count)},
                                  {QStringLiteral("in_window"), s.inWindow}})
                            : QJsonValue());
    }
    return QJsonObject{
        {QStringLiteral("answer"), side.answer ? jsonCount(*side.answer) : QJsonValue()},
        {QStringLiteral("dropped"), side.dropped},
        {QStringLiteral("slot"), side.slot ? QJsonValue(qint64(*side.slot)) : QJsonValue()},
        {QStringLiteral("out_of_range"), side.outOfRange},
        {QStringLiteral("slots"), slots},
    };
}

QJsonValue differenceJson(const teach::VariantRun& run) {
    if (!run.difference) {
        return QJsonValue();
    }
    const teach::Difference& d = *run.difference;
    const teach::VariantStep& step = run.steps.back();
    return QJsonObject{
        {QStringLiteral("step"), qint64(d.step)},
        {QStringLiteral("operation"), operationText(step.op)},
        {QStringLiteral("what"), fromStd(d.what)},
        {QStringLiteral("mine"), fromStd(d.mine)},
        {QStringLiteral("reference"), fromStd(d.reference)},
        {QStringLiteral("narration"), fromStd(d.narration)},
        {QStringLiteral("mine_state"), sideJson(step.mine)},
        {QStringLiteral("reference_state"), sideJson(step.reference)},
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

QString slotsText(const teach::SideState& side) {
    QStringList parts;
    for (std::size_t i = 0; i < side.slots.size(); ++i) {
        const teach::VariantSlot& s = side.slots[i];
        if (s.used) {
            parts << QStringLiteral("%1:(%2, %3)")
                         .arg(i)
                         .arg(s.second ? QString::number(*s.second) : QStringLiteral("?"))
                         .arg(s.count);
        }
    }
    return parts.isEmpty() ? QStringLiteral("(all empty)") : parts.join(QLatin1Char(' '));
}

void printVariant(const teach::VariantRun& run, const std::string& spec) {
    QTextStream out(stdout);
    out << "variant " << fromStd(spec) << '\n';
    if (!run.difference) {
        out << "same as the reference on all " << run.steps.size() << " steps\n";
        return;
    }
    const teach::Difference& d = *run.difference;
    const teach::VariantStep& step = run.steps.back();
    out << "first difference at step " << d.step << ": " << operationText(step.op) << '\n'
        << "    yours:     " << fromStd(d.mine) << "    slots " << slotsText(step.mine) << '\n'
        << "    reference: " << fromStd(d.reference) << "    slots " << slotsText(step.reference)
        << '\n'
        << "    " << fromStd(d.narration) << '\n';
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
    const QCommandLineOption variant(
        QStringLiteral("variant"),
        QStringLiteral("Run a ring you built against the reference counter and stop at the "
                       "first difference: compare=>|>=, index=t%W|t%(W+1)|t%(W-1), "
                       "reset=second|never|zero|sweep, store=second+count|count, comma-separated "
                       "(a missing key takes the reference's choice). The JSON gains "
                       "\"variant\", \"variant_steps\" and \"first_difference\" (null when "
                       "none)."),
        QStringLiteral("SPEC"));
    parser.addOptions({lesson, window, json, practice, variant});
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
    std::optional<teach::VariantRun> built;
    std::optional<teach::RingVariant> builtVariant;
    if (parser.isSet(variant)) {
        if (chosen && chosen->kind == teach::LessonKind::RateLimit) {
            printError(
                QStringLiteral("--variant builds a ring; '%1' is a rate-limit lesson").arg(source));
            return kExitBadInput;
        }
        const auto spec = teach::parseVariant(parser.value(variant).toStdString());
        if (const auto* message = std::get_if<std::string>(&spec)) {
            printError(QStringLiteral("--variant: %1").arg(fromStd(*message)));
            return kExitBadInput;
        }
        builtVariant = std::get<teach::RingVariant>(spec);
        built = teach::runVariant(*builtVariant, operations, w);
    }

    QJsonArray steps;
    QJsonArray questions;
    if (chosen && chosen->kind == teach::LessonKind::RateLimit) {
        const teach::LimiterTimeline timeline(std::move(operations), RateLimit{chosen->limit, w},
                                              chosen->limiters);
        for (const auto& f : timeline.frames()) {
            steps.append(limiterStepJson(f));
        }
    } else {
        const teach::Timeline timeline(std::move(operations), w,
                                       chosen ? chosen->code : teach::Code::Scan);
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
        QJsonObject root{
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
        if (built) {
            root.insert(QStringLiteral("variant"), fromStd(teach::formatVariant(*builtVariant)));
            root.insert(QStringLiteral("variant_steps"), qint64(built->steps.size()));
            root.insert(QStringLiteral("first_difference"), differenceJson(*built));
        }
        QTextStream(stdout) << QJsonDocument(root).toJson(QJsonDocument::Indented);
    } else if (built) {
        printVariant(*built, teach::formatVariant(*builtVariant));
    } else {
        printText(steps);
    }
    return checkedStdout();
}

}  // namespace hitcounter::cli
