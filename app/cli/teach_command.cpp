// hitcounter-cli teach: a lesson's steps headless, as the teaching view shows them (issue 16,
// build 6). The JSON shape is documented in docs/cli.md; its names are kept stable for scripts.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <iostream>
#include <optional>
#include <string>
#include <variant>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/teach_code.h"
#include "core/teach/lessons.h"
#include "core/teach/limiter_questions.h"
#include "core/teach/limiter_timeline.h"
#include "core/teach/practice.h"
#include "core/teach/ring_variant.h"
#include "core/teach/student_check.h"
#include "core/teach/teach_file.h"
#include "core/teach/timeline.h"

namespace hitcounter::cli {

namespace {

using teach::Frame;
using teach::Line;
using teach::Operation;

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

// What each structure holds at this step, every entry judged by this step's window (issue 24,
// wrong 1: for a getHits into the past its own window, not the head's): the ring's written
// slots, the deque's pairs, the vector's calls.
void addStructures(QJsonObject& step, const Frame& f) {
    QJsonArray ring;
    for (std::size_t i = 0; i < f.ring.size(); ++i) {
        const teach::RingSlot& s = f.ring[i];
        if (s.used) {
            ring.append(QJsonObject{{QStringLiteral("slot"), qint64(i)},
                                    {QStringLiteral("second"), qint64(s.second)},
                                    {QStringLiteral("count"), jsonCount(s.count)},
                                    {QStringLiteral("in_window"), f.counts(s.second)}});
        }
    }
    QJsonArray deque;
    for (const teach::Pair& p : f.deque) {
        deque.append(QJsonObject{{QStringLiteral("second"), qint64(p.second)},
                                 {QStringLiteral("count"), jsonCount(p.count)},
                                 {QStringLiteral("in_window"), f.counts(p.second)}});
    }
    QJsonArray vector;
    for (const teach::Pair& call : f.naive) {
        for (Count n = 0; n < call.count; ++n) {
            vector.append(QJsonObject{{QStringLiteral("time"), qint64(call.second)},
                                      {QStringLiteral("in_window"), f.counts(call.second)}});
        }
    }
    step.insert(QStringLiteral("ring"), ring);
    step.insert(QStringLiteral("deque"), deque);
    step.insert(QStringLiteral("vector"), vector);
}

QJsonObject stepJson(const Frame& f) {
    QJsonArray slots;
    for (const auto& s : f.ring) {
        slots.append(slotJson(s));
    }
    QJsonArray subSteps;
    for (const teach::SubStep& sub : f.subSteps) {
        const std::string_view why = teach::lineWhy(sub.line);
        QJsonObject o{
            {QStringLiteral("line"), lineJson(sub.line)},
            {QStringLiteral("line_number"), teach::lineIndex(sub.line) + 1},
            {QStringLiteral("text"), QString::fromStdString(sub.text)},
            {QStringLiteral("why"), QString::fromUtf8(why.data(), qsizetype(why.size()))}};
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
    QJsonObject step{
        {QStringLiteral("step"), qint64(f.step)},
        {QStringLiteral("operation"),
         f.op ? QJsonValue(QString::fromStdString(teach::operationText(*f.op))) : QJsonValue()},
        {QStringLiteral("answer"), f.answer ? jsonCount(*f.answer) : QJsonValue()},
        {QStringLiteral("window"),
         f.op ? QJsonValue(QString::fromStdString(f.windowText())) : QJsonValue()},
        {QStringLiteral("line"), lineJson(f.codeLine)},
        {QStringLiteral("line_number"),
         f.codeLine == Line::None ? QJsonValue() : QJsonValue(teach::lineIndex(f.codeLine) + 1)},
        {QStringLiteral("narration"), QString::fromStdString(f.narration)},
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
        {QStringLiteral("cost"),
         f.op ? QJsonValue(QString::fromStdString(f.costText)) : QJsonValue()},
        {QStringLiteral("memory"),
         f.op ? QJsonValue(QString::fromStdString(f.memoryText)) : QJsonValue()},
    };
    addStructures(step, f);
    return step;
}

// A rate-limit lesson's step: the same names where they apply, and each limiter's decision.
QJsonObject limiterStepJson(const teach::LimiterFrame& f, std::int64_t perSeconds) {
    QJsonArray limiters;
    for (const auto& lane : f.lanes) {
        QJsonObject o{{QStringLiteral("name"), QString::fromStdString(lane.name)},
                      {QStringLiteral("accepted_so_far"), jsonCount(lane.accepted)},
                      {QStringLiteral("rejected_so_far"), jsonCount(lane.rejected)},
                      {QStringLiteral("reason"), QString::fromStdString(lane.reason)}};
        if (lane.decision) {
            o.insert(QStringLiteral("accepted"), jsonCount(lane.decision->accepted));
            o.insert(QStringLiteral("rejected"), jsonCount(lane.decision->rejected));
        }
        if (lane.name == "bucket") {  // the tokens left after each request so far (issue 24)
            QJsonArray left;
            for (const Count units : lane.tokensLeft) {
                left.append(
                    QString::fromStdString(teach::tokensText(units, perSeconds)).toDouble());
            }
            o.insert(
                QStringLiteral("tokens"),
                QString::fromStdString(teach::tokensText(lane.tokenUnits, perSeconds)).toDouble());
            o.insert(QStringLiteral("tokens_left"), left);
        }
        limiters.append(o);
    }
    return QJsonObject{
        {QStringLiteral("step"), qint64(f.step)},
        {QStringLiteral("operation"),
         f.op ? QJsonValue(QString::fromStdString(teach::operationText(*f.op))) : QJsonValue()},
        {QStringLiteral("answer"), QJsonValue()},
        {QStringLiteral("window"), QJsonValue()},
        {QStringLiteral("line"), QJsonValue()},
        {QStringLiteral("narration"), QString::fromStdString(f.narration)},
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

// The first wrong answer (`first_difference`, the failure) or the first step whose state
// differs (`first_divergence`, informational; issue 24: only a wrong answer is a failure).
QJsonValue differenceJson(const teach::VariantRun& run, bool failure) {
    const std::optional<teach::Difference>& which = failure ? run.difference : run.divergence;
    if (!which) {
        return QJsonValue();
    }
    const teach::Difference& d = *which;
    const teach::VariantStep& step = run.steps.at(d.step - 1);
    return QJsonObject{
        {QStringLiteral("step"), qint64(d.step)},
        {QStringLiteral("operation"), QString::fromStdString(teach::operationText(step.op))},
        {QStringLiteral("what"), QString::fromStdString(d.what)},
        {QStringLiteral("mine"), QString::fromStdString(d.mine)},
        {QStringLiteral("reference"), QString::fromStdString(d.reference)},
        {QStringLiteral("narration"), QString::fromStdString(d.narration)},
        {QStringLiteral("mine_state"), sideJson(step.mine)},
        {QStringLiteral("reference_state"), sideJson(step.reference)},
    };
}

QString lessonIds() {
    QStringList ids;
    for (const auto& lesson : teach::lessons()) {
        ids << QString::fromStdString(lesson.id);
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
    out << "variant " << QString::fromStdString(spec) << '\n';
    if (run.divergence && (!run.difference || run.divergence->step < run.difference->step)) {
        const teach::Difference& d = *run.divergence;
        out << "first divergence at step " << d.step << ": "
            << QString::fromStdString(teach::operationText(run.steps.at(d.step - 1).op))
            << " (yours " << QString::fromStdString(d.mine) << ", the reference "
            << QString::fromStdString(d.reference) << ")\n"
            << "    " << QString::fromStdString(d.narration) << '\n';
    }
    if (!run.difference) {
        out << "same answers as the reference on all " << run.steps.size() << " steps\n";
        return;
    }
    const teach::Difference& d = *run.difference;
    const teach::VariantStep& step = run.steps.back();
    out << "first difference at step " << d.step << ": "
        << QString::fromStdString(teach::operationText(step.op)) << '\n'
        << "    yours:     " << QString::fromStdString(d.mine) << "    slots "
        << slotsText(step.mine) << '\n'
        << "    reference: " << QString::fromStdString(d.reference) << "    slots "
        << slotsText(step.reference) << '\n'
        << "    " << QString::fromStdString(d.narration) << '\n';
}

// Every option of `teach`, added to one parser.
struct TeachCliOptions {
    QCommandLineOption lesson{QStringLiteral("lesson"),
                              QStringLiteral("A built-in lesson: %1.").arg(lessonIds()),
                              QStringLiteral("ID")};
    QCommandLineOption window{
        QStringLiteral("window"),
        QStringLiteral("W in seconds, %1 to %2 (default: the lesson's, 300 for a FILE).")
            .arg(teach::kMinTeachWindow.count())
            .arg(teach::kMaxTeachWindow.count()),
        QStringLiteral("W")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print the steps as JSON (default: text).")};
    QCommandLineOption practice{
        QStringLiteral("practice"),
        QStringLiteral("A practice: seeded random operations (the view's New practice; W 10 by "
                       "default); the JSON lists its questions."),
        QStringLiteral("SEED")};
    QCommandLineOption level{
        QStringLiteral("level"),
        QStringLiteral("With --practice: its difficulty, 1 warm-up (in-order hits, a gap longer "
                       "than W), 2 the boundary (+ a getHits exactly W after a hit), 3 out of "
                       "order (+ late, too-late hits and a getHits into the past; the default)."),
        QStringLiteral("1|2|3")};
    QCommandLineOption variant{
        QStringLiteral("variant"),
        QStringLiteral("Run a ring you built against the reference counter and stop at the "
                       "first difference: compare=>|>=, index=t%W|t%(W+1)|t%(W-1), "
                       "reset=second|never|zero|sweep, store=second+count|count, comma-separated "
                       "(a missing key takes the reference's choice). The JSON gains "
                       "\"variant\", \"variant_steps\", \"first_difference\" (the first wrong "
                       "answer, null when none) and \"first_divergence\" (the first step whose "
                       "state differs)."),
        QStringLiteral("SPEC")};
    QCommandLineOption code{
        QStringLiteral("code"),
        QStringLiteral("Check your own JavaScript counter (class HitCounter { hit(timestamp) "
                       "getHits(timestamp) }) against the reference on the lesson's operations "
                       "(with --lesson), adversarial and seeded random ones; shrink the first "
                       "difference to a minimal sequence and name the mistake. W 300 by "
                       "default. Exit 0 agrees, 1 differs, 2 does not compile."),
        QStringLiteral("FILE.js")};
    QCommandLineOption seed{QStringLiteral("seed"),
                            QStringLiteral("With --code: the seed of the random operations "
                                           "(default 1)."),
                            QStringLiteral("N")};

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Runs a teaching lesson (or your own operations) through the ring, the deque and "
            "the naive vector and prints every step as the teaching view shows it: the "
            "operation, the answer, the effective window, the highlighted pseudocode line, the "
            "narration, the slots and the sub-steps. See docs/cli.md and docs/teaching.md."));
        parser.addPositionalArgument(
            QStringLiteral("FILE"),
            QStringLiteral("Operations in the editor's syntax (hit 5, hit 7 x40, getHits 301) or "
                           "the LeetCode input (two JSON arrays); - for stdin. Or use --lesson."));
        parser.addOptions({lesson, window, json, practice, level, variant, code, seed});
    }
};

// What the command line asks for: a lesson, a practice or a file, its text and its window.
struct TeachPlan {
    const teach::Lesson* chosen = nullptr;  // --lesson
    QString source;                         // the lesson id, the seed or the file name
    std::string text;                       // the operations, unparsed
    std::chrono::seconds window{0};
    std::optional<std::uint64_t> seed;                              // --practice
    teach::PracticeLevel level = teach::PracticeLevel::OutOfOrder;  // --level
    std::optional<teach::RingVariant> variant;                      // --variant: the student's ring
    bool json = false;
};

// The lesson's or the file's text into `plan`; false after naming what is wrong.
bool readTeachInput(const QCommandLineParser& parser, const TeachCliOptions& options,
                    TeachPlan& plan) {
    if (parser.isSet(options.lesson)) {
        for (const auto& l : teach::lessons()) {
            if (QString::fromStdString(l.id) == parser.value(options.lesson)) {
                plan.chosen = &l;
            }
        }
        if (!plan.chosen) {
            printError(QStringLiteral("unknown lesson '%1'; expected one of %2")
                           .arg(parser.value(options.lesson), lessonIds()));
            return false;
        }
        plan.text = plan.chosen->operations;
        plan.source = parser.value(options.lesson);
        return true;
    }
    if (parser.isSet(options.practice)) {
        plan.source = parser.value(options.practice);
        return true;
    }
    plan.source = parser.positionalArguments().first();
    try {
        // Whole or refused (larger than 1 MiB, a FIFO, a device): teach_file.h.
        plan.text = teach::readTeachFileOrStdin(plan.source.toStdString(), std::cin);
    } catch (const teach::TeachFileError& e) {
        printError(QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

// --window (else the lesson's, 10 for a practice, the largest for a file) and --practice's
// seed and operations; false after naming a bad value.
bool windowAndPractice(const QCommandLineParser& parser, const TeachCliOptions& options,
                       TeachPlan& plan) {
    plan.window = plan.chosen                      ? plan.chosen->window
                  : parser.isSet(options.practice) ? std::chrono::seconds{10}
                                                   : teach::kMaxTeachWindow;
    if (parser.isSet(options.window)) {
        const auto value = wholeNumberFrom(parser, options.window, teach::kMinTeachWindow.count(),
                                           teach::kMaxTeachWindow.count());
        if (!value) {
            return false;
        }
        plan.window = std::chrono::seconds{*value};
    }
    if (parser.isSet(options.practice)) {
        const auto value = wholeNumberFrom(parser, options.practice, 1, 999'999'999);
        if (!value) {
            return false;
        }
        plan.seed = std::uint64_t(*value);
        if (parser.isSet(options.level)) {
            const auto level = wholeNumberFrom(parser, options.level, 1, 3);
            if (!level) {
                return false;
            }
            plan.level = teach::PracticeLevel(*level);
        }
        plan.text = teach::practiceOperations(*plan.seed, plan.window, plan.level);
    } else if (parser.isSet(options.level)) {
        printError(QStringLiteral("--level goes with --practice SEED"));
        return false;
    }
    return true;
}

// --code: the learner's JavaScript against the reference (teach_code.h).
int runCode(const QCommandLineParser& parser, const TeachCliOptions& options) {
    if (!parser.positionalArguments().isEmpty() || parser.isSet(options.practice) ||
        parser.isSet(options.variant)) {
        printError(
            QStringLiteral("--code checks your JavaScript file; it takes no FILE of "
                           "operations, --practice or --variant (only --lesson ID, "
                           "--window, --seed and --json)"));
        return kExitBadInput;
    }
    CodeCheckRequest request;
    request.file = parser.value(options.code);
    request.json = parser.isSet(options.json);
    if (parser.isSet(options.lesson)) {
        TeachPlan plan;
        if (!readTeachInput(parser, options, plan)) {
            return kExitBadInput;
        }
        if (plan.chosen->kind == teach::LessonKind::RateLimit) {
            printError(QStringLiteral("--code checks a hit counter; '%1' is a rate-limit lesson")
                           .arg(plan.source));
            return kExitBadInput;
        }
        request.window = plan.chosen->window;
        request.lesson =
            std::get<std::vector<Operation>>(teach::parseOperations(plan.chosen->operations));
    }
    if (parser.isSet(options.window)) {
        const auto value = wholeNumberFrom(parser, options.window, teach::kMinTeachWindow.count(),
                                           teach::kMaxTeachWindow.count());
        if (!value) {
            return kExitBadInput;
        }
        request.window = std::chrono::seconds{*value};
    }
    if (parser.isSet(options.seed)) {
        const auto value = wholeNumberFrom(parser, options.seed, 1, 999'999'999);
        if (!value) {
            return kExitBadInput;
        }
        request.seed = std::uint64_t(*value);
    }
    return runCodeCheck(request);
}

// The plan, or the exit code after naming what is wrong.
std::variant<TeachPlan, int> parseTeach(QCommandLineParser& parser, const TeachCliOptions& options,
                                        const QStringList& arguments) {
    if (const auto exit = parseArguments(parser, arguments)) {
        return *exit;
    }
    if (parser.isSet(options.code)) {
        return runCode(parser, options);
    }
    if (parser.isSet(options.seed)) {
        printError(QStringLiteral("--seed goes with --code (a practice takes --practice SEED)"));
        return kExitBadInput;
    }
    const qsizetype sources = parser.positionalArguments().size() +
                              (parser.isSet(options.lesson) ? 1 : 0) +
                              (parser.isSet(options.practice) ? 1 : 0);
    if (sources != 1) {
        printError(
            QStringLiteral("teach expects one FILE, --lesson ID or --practice SEED (lessons: %1)")
                .arg(lessonIds()));
        return kExitBadInput;
    }
    TeachPlan plan;
    plan.json = parser.isSet(options.json);
    if (!readTeachInput(parser, options, plan) || !windowAndPractice(parser, options, plan)) {
        return kExitBadInput;
    }
    if (parser.isSet(options.variant)) {
        if (plan.chosen && plan.chosen->kind == teach::LessonKind::RateLimit) {
            printError(QStringLiteral("--variant builds a ring; '%1' is a rate-limit lesson")
                           .arg(plan.source));
            return kExitBadInput;
        }
        const auto spec = teach::parseVariant(parser.value(options.variant).toStdString());
        if (const auto* problem = std::get_if<TextProblem>(&spec)) {
            printError(
                QStringLiteral("--variant: %1").arg(QString::fromStdString(problem->message)));
            return kExitBadInput;
        }
        plan.variant = std::get<teach::RingVariant>(spec);
    }
    return plan;
}

struct TeachSteps {
    QJsonArray steps;
    QJsonArray questions;
    std::optional<teach::VariantRun> built;  // --variant: the student's ring against the reference
};

// Every step of the lesson, and a practice's questions.
TeachSteps runTeachSteps(const TeachPlan& plan, std::vector<Operation> operations) {
    TeachSteps out;
    if (plan.variant) {
        out.built = teach::runVariant(*plan.variant, operations, plan.window);
    }
    if (plan.chosen && plan.chosen->kind == teach::LessonKind::RateLimit) {
        const teach::LimiterTimeline timeline(std::move(operations),
                                              RateLimit{plan.chosen->limit, plan.window},
                                              plan.chosen->limiters);
        for (const auto& f : timeline.frames()) {
            out.steps.append(limiterStepJson(f, plan.window.count()));
        }
        for (const teach::LimiterQuestion& q : teach::limiterQuestions(timeline)) {
            QJsonObject accepted;
            for (std::size_t i = 0; i < q.accepted.size(); ++i) {
                accepted.insert(QString::fromStdString(timeline.names()[i]), bool(q.accepted[i]));
            }
            out.questions.append(
                QJsonObject{{QStringLiteral("step"), qint64(q.step)},
                            {QStringLiteral("kind"), QStringLiteral("limiters")},
                            {QStringLiteral("prompt"), QString::fromStdString(q.prompt)},
                            {QStringLiteral("accepted"), accepted}});
        }
        return out;
    }
    const teach::Timeline timeline(std::move(operations), plan.window,
                                   plan.chosen ? plan.chosen->code : teach::Code::Scan);
    for (const Frame& f : timeline.frames()) {
        out.steps.append(stepJson(f));
    }
    for (const teach::Question& q : teach::questions(timeline)) {
        out.questions.append(QJsonObject{
            {QStringLiteral("step"), qint64(q.step)},
            {QStringLiteral("kind"), QString::fromStdString(std::string(teach::kindName(q.kind)))},
            {QStringLiteral("prompt"), QString::fromStdString(q.prompt)},
            {QStringLiteral("answer"), jsonCount(q.answer)}});
    }
    return out;
}

int reportTeach(const TeachPlan& plan, const TeachSteps& out) {
    if (!plan.json) {
        if (out.built) {
            printVariant(*out.built, teach::formatVariant(*plan.variant));
        } else {
            printText(out.steps);
        }
        return checkedStdout();
    }
    const bool file = !plan.chosen && !plan.seed;
    QJsonObject root{
        {QStringLiteral("lesson"), plan.chosen ? QJsonValue(plan.source) : QJsonValue()},
        {QStringLiteral("file"), file ? QJsonValue(plan.source) : QJsonValue()},
        {QStringLiteral("practice_seed"),
         plan.seed ? QJsonValue(qint64(*plan.seed)) : QJsonValue()},
        {QStringLiteral("practice_level"), plan.seed ? QJsonValue(int(plan.level)) : QJsonValue()},
        {QStringLiteral("operations"), QString::fromStdString(plan.text)},
        {QStringLiteral("questions"), out.questions},
        {QStringLiteral("window_seconds"), qint64(plan.window.count())},
        {QStringLiteral("written_for_window_seconds"),
         plan.chosen ? QJsonValue(qint64(plan.chosen->window.count())) : QJsonValue()},
        {QStringLiteral("steps"), out.steps},
    };
    if (out.built) {
        root.insert(QStringLiteral("variant"),
                    QString::fromStdString(teach::formatVariant(*plan.variant)));
        root.insert(QStringLiteral("variant_steps"), qint64(out.built->steps.size()));
        root.insert(QStringLiteral("first_difference"), differenceJson(*out.built, true));
        root.insert(QStringLiteral("first_divergence"), differenceJson(*out.built, false));
    }
    QTextStream(stdout) << QJsonDocument(root).toJson(QJsonDocument::Indented);
    return checkedStdout();
}

}  // namespace

int runTeach(const QStringList& arguments) {
    QCommandLineParser parser;
    const TeachCliOptions options;
    options.addTo(parser);
    const auto parsed = parseTeach(parser, options, arguments);
    if (const int* exit = std::get_if<int>(&parsed)) {
        return *exit;
    }
    const TeachPlan& plan = std::get<TeachPlan>(parsed);
    teach::ParseResult operations = teach::parseOperations(plan.text);
    if (const auto* error = std::get_if<TextProblem>(&operations)) {
        printError(
            QStringLiteral("%1: %2").arg(plan.source, QString::fromStdString(error->describe())));
        return kExitBadInput;
    }
    const TeachSteps out =
        runTeachSteps(plan, std::move(std::get<std::vector<Operation>>(operations)));
    return reportTeach(plan, out);
}

}  // namespace hitcounter::cli
