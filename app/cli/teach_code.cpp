#include "app/cli/teach_code.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <iostream>

#include "app/cli/cli_options.h"
#include "app/teach_js/js_counter.h"
#include "core/teach/student_check.h"
#include "core/teach/teach_file.h"

namespace hitcounter::cli {

namespace {

using teach::CallResult;
using teach::StepResult;

// What the learner's call gave: the answer as a number, else what came back or why it did not.
QJsonValue yoursJson(const StepResult& s) {
    if (!s.yours.ok()) {
        return QString::fromStdString(s.yours.message);
    }
    if (s.op.kind == teach::Operation::Kind::Hit) {
        return QJsonValue();
    }
    return s.yours.answer ? jsonCount(*s.yours.answer)
                          : QJsonValue(QString::fromStdString(s.yours.returned));
}

QJsonObject variablesJson(const CallResult& r) {
    QJsonObject out;
    for (const teach::Variable& v : r.variables) {
        if (v.isList) {
            QJsonArray items;
            for (const std::string& item : v.items) {
                items.append(QString::fromStdString(item));
            }
            out.insert(QString::fromStdString(v.name),
                       QJsonObject{{QStringLiteral("length"), qint64(v.length)},
                                   {QStringLiteral("items"), items}});
        } else {
            out.insert(QString::fromStdString(v.name), QString::fromStdString(v.text));
        }
    }
    return out;
}

QJsonArray stepsJson(const teach::TraceRun& run) {
    QJsonArray steps;
    for (const StepResult& s : run.steps) {
        steps.append(QJsonObject{
            {QStringLiteral("operation"), QString::fromStdString(teach::operationText(s.op))},
            {QStringLiteral("yours"), yoursJson(s)},
            {QStringLiteral("reference"), s.reference ? jsonCount(*s.reference) : QJsonValue()},
            {QStringLiteral("differs"), s.differs},
            {QStringLiteral("operations"), qint64(s.yours.operations)},
            {QStringLiteral("memory_bytes"), qint64(s.yours.memoryBytes)},
            {QStringLiteral("variables"), variablesJson(s.yours)},
        });
    }
    return steps;
}

QJsonValue firstDifferenceJson(const teach::CheckReport& report) {
    if (!report.failing) {
        return QJsonValue();
    }
    const teach::TraceRun& run = *report.failing;
    const std::size_t at = *run.difference;
    if (at >= run.steps.size()) {  // the constructor
        return QJsonObject{{QStringLiteral("step"), 0},
                           {QStringLiteral("operation"), QStringLiteral("new HitCounter(W)")},
                           {QStringLiteral("yours"), QString::fromStdString(run.started.message)},
                           {QStringLiteral("reference"), QJsonValue()},
                           {QStringLiteral("trace"), QString::fromStdString(run.name)}};
    }
    const StepResult& s = run.steps[at];
    return QJsonObject{
        {QStringLiteral("step"), qint64(at + 1)},
        {QStringLiteral("operation"), QString::fromStdString(teach::operationText(s.op))},
        {QStringLiteral("yours"), yoursJson(s)},
        {QStringLiteral("reference"), s.reference ? jsonCount(*s.reference) : QJsonValue()},
        {QStringLiteral("trace"), QString::fromStdString(run.name)},
    };
}

QJsonObject reportJson(const CodeCheckRequest& request, const teach::CheckReport& report) {
    QJsonArray minimal;
    for (const teach::Operation& op : report.minimal) {
        minimal.append(QString::fromStdString(teach::operationText(op)));
    }
    QJsonArray growth;
    for (const teach::GrowthPoint& g : report.growth) {
        growth.append(QJsonObject{
            {QStringLiteral("hits"), qint64(g.hits)},
            {QStringLiteral("idle_get_hits_operations"), qint64(g.idleOperations)},
            {QStringLiteral("popping_get_hits_operations"), qint64(g.poppingOperations)},
            {QStringLiteral("bytes_held"), qint64(g.bytesHeld)},
            {QStringLiteral("bytes_after_window"), qint64(g.bytesAfter)}});
    }
    const auto* mistake = report.mistake ? &teach::mistakeInfo(*report.mistake) : nullptr;
    return QJsonObject{
        {QStringLiteral("file"), request.file},
        {QStringLiteral("window_seconds"), qint64(request.window.count())},
        {QStringLiteral("seed"), qint64(request.seed)},
        {QStringLiteral("agrees"), report.agrees},
        {QStringLiteral("first_difference"), firstDifferenceJson(report)},
        {QStringLiteral("minimal"), minimal},
        {QStringLiteral("minimal_steps"), stepsJson(report.minimalRun)},
        {QStringLiteral("mistake"),
         mistake ? QJsonValue(QString::fromStdString(std::string(mistake->name))) : QJsonValue()},
        {QStringLiteral("mistake_title"),
         mistake ? QJsonValue(QString::fromStdString(std::string(mistake->title))) : QJsonValue()},
        {QStringLiteral("mistake_why"),
         mistake ? QJsonValue(QString::fromStdString(std::string(mistake->why))) : QJsonValue()},
        {QStringLiteral("mistake_evidence"),
         report.mistakeEvidence.empty()
             ? QJsonValue()
             : QJsonValue(QString::fromStdString(report.mistakeEvidence))},
        {QStringLiteral("operations_per_call"),
         QJsonObject{{QStringLiteral("max"), qint64(report.maxOperations)},
                     {QStringLiteral("mean"), report.meanOperations}}},
        {QStringLiteral("memory_bytes"), qint64(report.memoryBytes)},
        {QStringLiteral("traces"), qint64(report.traces)},
        {QStringLiteral("calls"), qint64(report.calls)},
        {QStringLiteral("lesson_note"),
         report.lessonNote.empty() ? QJsonValue()
                                   : QJsonValue(QString::fromStdString(report.lessonNote))},
        {QStringLiteral("growth"), growth},
    };
}

void printReport(const CodeCheckRequest& request, const teach::CheckReport& report) {
    QTextStream out(stdout);
    out << request.file << " at W = " << request.window.count() << ", seed " << request.seed << ": "
        << (report.agrees ? "agrees with the reference" : "differs") << " (" << report.traces
        << " sequences, " << report.calls << " calls)\n";
    if (!report.lessonNote.empty()) {
        out << "    " << QString::fromStdString(report.lessonNote) << '\n';
    }
    const QJsonValue first = firstDifferenceJson(report);
    if (first.isObject()) {
        const QJsonObject d = first.toObject();
        out << "first difference: " << d.value(QStringLiteral("trace")).toString() << ", step "
            << d.value(QStringLiteral("step")).toInteger() << ": "
            << d.value(QStringLiteral("operation")).toString() << ": yours "
            << d.value(QStringLiteral("yours")).toVariant().toString() << ", the reference "
            << (d.value(QStringLiteral("reference")).isNull()
                    ? QStringLiteral("-")
                    : d.value(QStringLiteral("reference")).toVariant().toString())
            << '\n';
    }
    if (!report.minimal.empty()) {
        out << (report.agrees ? "the sequence that shows it:\n" : "smallest failing sequence:\n");
        for (const QJsonValue& v : stepsJson(report.minimalRun)) {
            const QJsonObject s = v.toObject();
            out << "    " << s.value(QStringLiteral("operation")).toString().leftJustified(18)
                << " yours "
                << (s.value(QStringLiteral("yours")).isNull()
                        ? QStringLiteral("-")
                        : s.value(QStringLiteral("yours")).toVariant().toString())
                       .leftJustified(8)
                << " reference "
                << (s.value(QStringLiteral("reference")).isNull()
                        ? QStringLiteral("-")
                        : s.value(QStringLiteral("reference")).toVariant().toString())
                << "    (" << s.value(QStringLiteral("operations")).toInteger() << " operations)\n";
        }
    }
    if (report.mistake) {
        const teach::MistakeInfo& m = teach::mistakeInfo(*report.mistake);
        out << "mistake: " << QString::fromStdString(std::string(m.title)) << " ("
            << QString::fromStdString(std::string(m.name))
            << "): " << QString::fromStdString(std::string(m.why)) << '\n';
        if (!report.mistakeEvidence.empty()) {
            out << "    " << QString::fromStdString(report.mistakeEvidence) << '\n';
        }
    }
    out << "operations per call: max " << report.maxOperations << ", mean "
        << QString::number(report.meanOperations, 'f', 1) << "; memory: " << report.memoryBytes
        << " bytes at most\n";
}

}  // namespace

int runCodeCheck(const CodeCheckRequest& request) {
    std::string source;
    try {
        // Whole or refused (larger than 1 MiB, a FIFO, a device): core/teach/teach_file.h.
        source = teach::readTeachFileOrStdin(request.file.toStdString(), std::cin);
    } catch (const teach::TeachFileError& e) {
        printError(QString::fromStdString(e.what()));
        return kExitBadInput;
    }
    teach::LoadedCounter loaded = teachjs::loadJsCounter(source);
    if (const auto* error = std::get_if<TextProblem>(&loaded)) {
        printError(
            QStringLiteral("%1: %2").arg(request.file, QString::fromStdString(error->describe())));
        return kExitBadInput;
    }
    teach::CounterUnderTest& counter = *std::get<std::unique_ptr<teach::CounterUnderTest>>(loaded);
    teach::CheckOptions options;
    options.window = request.window;
    options.seed = request.seed;
    options.lessonOperations = request.lesson;
    const teach::CheckReport report = teach::checkCounter(counter, options);
    if (request.json) {
        QTextStream(stdout)
            << QJsonDocument(reportJson(request, report)).toJson(QJsonDocument::Indented);
    } else {
        printReport(request, report);
    }
    return checkedStdout(report.agrees ? kExitOk : kExitFailure);
}

}  // namespace hitcounter::cli
