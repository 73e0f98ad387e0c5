#include <QTextStream>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <variant>

#include "app/cli/alert_cli.h"
#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/hit_file_options.h"
#include "app/cli/json_writer.h"
#include "app/cli/keyed_replay.h"
#include "app/cli/measure_replay.h"
#include "app/cli/replay_run.h"
#include "app/cli/trace_input.h"
#include "core/io/trace_format.h"

namespace hitcounter::cli {

namespace {

std::optional<std::vector<Timestamp>> queryTimes(const QString& text) {
    std::vector<Timestamp> times;
    for (const QString& part : text.split(QLatin1Char(','))) {
        const auto time = plainWholeNumber(part);
        if (!time || *time < 0 || *time > kTraceMaxTimestamp) {
            printError(QStringLiteral("--at '%1' is not a time; expected whole seconds >= 0, "
                                      "separated by commas, such as 300,600")
                           .arg(part));
            return std::nullopt;
        }
        times.push_back(*time);
    }
    return times;
}

QString policyName(const WindowCounter& counter) {
    return QString::fromUtf8(counter.name().data(), counter.name().size());
}

void printCsv(const ReplayRun& run) {
    QTextStream out(stdout);
    out << "time,policy,count\n";
    for (const auto& answer : run.answers()) {
        for (std::size_t i = 0; i < answer.counts.size(); ++i)
            out << answer.time << ',' << policyName(*run.counters()[i]) << ',' << answer.counts[i]
                << '\n';
    }
}

// Object keys in ascending order, as QJsonDocument wrote them before counts had to be exact.
// With a filter, its text and the lines it refused too.
void printJson(const ReplayRun& run, const TraceInput& input, std::chrono::seconds window,
               const RecordFilter* filter) {
    const TraceProgress& progress = input.progress();
    std::vector<std::size_t> byName(run.counters().size());
    std::iota(byName.begin(), byName.end(), std::size_t{0});
    std::sort(byName.begin(), byName.end(), [&](std::size_t a, std::size_t b) {
        return run.counters()[a]->name() < run.counters()[b]->name();
    });
    JsonWriter out;
    out.beginObject().key("answers").beginArray();
    for (const auto& answer : run.answers()) {
        out.beginObject().key("counts").beginObject();
        for (const std::size_t i : byName)
            out.key(run.counters()[i]->name()).count(answer.counts[i]);
        out.endObject().key("time").integer(answer.time).endObject();
    }
    out.endArray().key("bad_rows").count(progress.badRows);
    if (filter)
        out.key("filter").string(filter->text()).key("filtered_rows").count(progress.filtered);
    out.key("final_time");
    if (run.newest())
        out.integer(*run.newest());
    else
        out.null();
    out.key("policies").beginArray();
    for (std::size_t i = 0; i < run.counters().size(); ++i) {
        const auto& counter = *run.counters()[i];
        const auto& summary = run.summaries()[i];
        out.beginObject()
            .key("dropped_late")
            .count(summary.droppedLate)
            .key("exact")
            .boolean(counter.isExact())
            .key("final_count")
            .count(summary.finalCount)
            .key("memory_bytes")
            .count(summary.memoryBytes)
            .key("ns_per_hit")
            .real(summary.nsPerHit)
            .key("policy")
            .string(counter.name())
            .endObject();
    }
    out.endArray()
        .key("rows")
        .count(progress.rows)
        .key("trace")
        .string(input.name().toStdString())
        .key("truncated")
        .boolean(input.truncated())
        .key("window")
        .integer(window.count())
        .endObject();
    const std::string text = out.take();
    std::fwrite(text.data(), 1, text.size(), stdout);
}

// Every option of `replay`, added to one parser.
struct ReplayCliOptions {
    QCommandLineOption policy = policyOption(true);
    QCommandLineOption window = windowOption();
    QCommandLineOption at{
        QStringLiteral("at"),
        QStringLiteral(
            "Query times T1,T2,... (repeatable; default: the newest timestamp in the trace)."),
        QStringLiteral("T1,T2,...")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print a JSON summary per policy instead of CSV.")};
    QCommandLineOption strict{
        QStringLiteral("strict"),
        QStringLiteral("Stop at the first bad row with exit code 2 (default: skip and count).")};
    QCommandLineOption top{
        QStringLiteral("top"),
        QStringLiteral("Print time,rank,key,count: the K keys with the most hits in each window."),
        QStringLiteral("K")};
    QCommandLineOption uniques{
        QStringLiteral("uniques"),
        QStringLiteral("Print time,key,uniques: distinct visitors in each window per key, and "
                       "for all keys as key *.")};
    QCommandLineOption bytes{
        QStringLiteral("bytes"),
        QStringLiteral("Print time,key,bytes: the bytes sent in each window per key, and for all "
                       "keys as key * (access logs with $body_bytes_sent, %b, ...).")};
    QCommandLineOption latency{
        QStringLiteral("latency"),
        QStringLiteral("Print time,key,p50,p90,p99,max: response times in seconds in each window "
                       "per key and for all keys as key * (logs with $request_time, %D, ...; "
                       "quantiles within 1 %).")};
    AlertCliOptions alerts = alertCliOptions();
    HitFileCliOptions file = hitFileCliOptions();

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Replays a trace CSV or a web server access log, plain or gzipped (see "
            "docs/formats.md), through counting policies and prints time,policy,count rows for "
            "each query time (--top, --uniques, --bytes and --latency: per-key tables)."));
        parser.addPositionalArgument(
            QStringLiteral("FILE..."),
            QStringLiteral("Trace CSVs or access logs, read as one in time order (a rotation "
                           "set such as access.log* oldest first), or - alone for stdin."));
        parser.addOptions({policy, window, at, json, strict, top, uniques, bytes, latency});
        parser.addOptions(alerts.all());
        addHitFileCliOptions(parser, file);
    }
};

// What the command line asks for.
struct ReplayPlan {
    ReplayedFiles files;
    std::vector<std::string> policies;
    CounterOptions counter;
    std::vector<Timestamp> queries;
    std::unique_ptr<KeyedReplay> keyed;       // --top or --uniques; null: the policies' answers
    std::unique_ptr<MeasureReplay> measures;  // --bytes or --latency
    std::unique_ptr<AlertRun> alerts;         // --alert
    bool json = false;
    bool strict = false;
};

// --top K or --uniques (one of them, not with --json): the keyed tables; false after naming
// a clash or a bad K.
bool keyedFrom(const QCommandLineParser& parser, const ReplayCliOptions& options,
               ReplayPlan& plan) {
    if (!parser.isSet(options.top) && !parser.isSet(options.uniques))
        return true;
    if (parser.isSet(options.top) && parser.isSet(options.uniques)) {
        printError(QStringLiteral("--top and --uniques print different tables; give one"));
        return false;
    }
    if (plan.json) {
        printError(
            QStringLiteral("--json summarizes the policies; it does not combine with "
                           "--top or --uniques"));
        return false;
    }
    const bool top = parser.isSet(options.top);
    const auto k = top ? wholeNumberFrom(parser, options.top, 1, std::numeric_limits<int>::max())
                       : std::optional<long long>(0);
    if (!k)
        return false;
    plan.keyed =
        std::make_unique<KeyedReplay>(top ? KeyedReplay::Mode::Top : KeyedReplay::Mode::Uniques,
                                      plan.counter.window, static_cast<std::size_t>(*k));
    return true;
}

// --bytes or --latency (one of them, not with --top or --uniques): the measure tables; false
// after naming a clash.
bool measuresFrom(const QCommandLineParser& parser, const ReplayCliOptions& options,
                  ReplayPlan& plan) {
    const bool bytes = parser.isSet(options.bytes);
    if (!bytes && !parser.isSet(options.latency))
        return true;
    if (bytes && parser.isSet(options.latency)) {
        printError(QStringLiteral("--bytes and --latency print different tables; give one"));
        return false;
    }
    if (parser.isSet(options.top) || parser.isSet(options.uniques)) {
        printError(QStringLiteral("--%1 prints its own table; it does not combine with --top or "
                                  "--uniques")
                       .arg(bytes ? QStringLiteral("bytes") : QStringLiteral("latency")));
        return false;
    }
    plan.measures = std::make_unique<MeasureReplay>(
        bytes ? MeasureReplay::Measure::Bytes : MeasureReplay::Measure::Latency,
        plan.counter.window);
    return true;
}

// --alert RULE... (not with the other tables or --at: the rules are evaluated every second);
// false after naming a clash or a bad rule. The files' lines are marked for the rules' filters.
bool alertsFrom(const QCommandLineParser& parser, const ReplayCliOptions& options,
                ReplayPlan& plan) {
    if (!parser.isSet(options.alerts.alert) && !parser.isSet(options.alerts.alertFile) &&
        !parser.isSet(options.alerts.alertCommand))
        return true;
    for (const QCommandLineOption* other :
         {&options.at, &options.top, &options.uniques, &options.bytes, &options.latency})
        if (parser.isSet(*other)) {
            printError(QStringLiteral("--alert evaluates every second and prints what fires; "
                                      "it is not used with --%1")
                           .arg(other->names().constFirst()));
            return false;
        }
    auto alerts = alertRunFrom(parser, options.alerts, plan.counter.window, stdout, !plan.json,
                               AlertCommand::Mode::Sequential);
    if (!alerts)
        return false;
    plan.alerts = std::move(*alerts);
    plan.files.options.series = plan.alerts->series();
    return true;
}

// The plan, or the exit code after naming what is wrong.
std::variant<ReplayPlan, int> parseReplay(QCommandLineParser& parser,
                                          const ReplayCliOptions& options,
                                          const QStringList& arguments) {
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    const auto policies = policiesFrom(parser, options.policy, true);
    const auto counter = counterOptionsFrom(parser, options.window);
    const auto queries = parser.isSet(options.at)
                             ? queryTimes(parser.values(options.at).join(QLatin1Char(',')))
                             : std::optional(std::vector<Timestamp>{});
    const auto files = replayedFilesFrom(parser, options.file, QStringLiteral("replay"));
    if (!policies || !counter || !queries || !files)
        return kExitBadInput;
    ReplayPlan plan{.files = *files,
                    .policies = *policies,
                    .counter = *counter,
                    .queries = *queries,
                    .keyed = nullptr,
                    .measures = nullptr,
                    .alerts = nullptr,
                    .json = parser.isSet(options.json),
                    .strict = parser.isSet(options.strict)};
    if (!measuresFrom(parser, options, plan) || !keyedFrom(parser, options, plan) ||
        !alertsFrom(parser, options, plan))
        return kExitBadInput;
    return plan;
}

// Reads the whole input through the policies (and the keyed tables); an exit code when the
// input cannot be read or, with --strict, has a bad row.
std::optional<int> replayInput(ReplayPlan& plan, TraceInput& input, ReplayRun& run) {
    if (plan.keyed)
        run.setOnAnswer([&plan](Timestamp time) { plan.keyed->answer(time); });
    if (plan.measures)
        run.setOnAnswer([&plan](Timestamp time) { plan.measures->answer(time); });
    if (plan.alerts)
        plan.alerts->begin();
    if (const auto exit = input.read(plan.strict, [&](const HitEvent& event) {
            run.add(event);
            if (plan.keyed)
                plan.keyed->add(event);
            if (plan.measures)
                plan.measures->add(event);
            if (plan.alerts) {
                plan.alerts->advanceTo(event.time - 1);  // the seconds before this hit's
                plan.alerts->add(event);
            }
        }))
        return exit;
    run.finish();
    if (plan.alerts && run.newest())
        plan.alerts->advanceTo(*run.newest());
    if (plan.alerts)
        plan.alerts->reportAtEnd();
    // Rows that never name the measure: the log's format lacks it (an input with no rows, or
    // whose rows the filter all refused, answers 0 bytes and no times instead).
    if (plan.measures && input.progress().rows > 0 && !plan.measures->named()) {
        printError(plan.measures->measure() == MeasureReplay::Measure::Bytes
                       ? QStringLiteral("%1: no line names the bytes it sent; --bytes needs "
                                        "them in the log ($body_bytes_sent or $bytes_sent, "
                                        "Apache's %b, %B or %O, a JSON bytes member; "
                                        "docs/measures.md)")
                             .arg(input.name())
                       : QStringLiteral("%1: no line names its response time; --latency needs "
                                        "it in the log ($request_time or "
                                        "$upstream_response_time, Apache's %D or %T, a JSON "
                                        "request_time member; docs/measures.md)")
                             .arg(input.name()));
        return kExitBadInput;
    }
    return std::nullopt;
}

// What every JSON table says of the input after its own members: bad_rows, filter and
// filtered_rows (with --filter), final_time, rows, trace, truncated and window; then the
// object ends and is printed.
void finishJsonWithInput(JsonWriter& out, const ReplayPlan& plan, const ReplayRun& run,
                         const TraceInput& input) {
    out.key("bad_rows").count(input.progress().badRows);
    if (const RecordFilter* filter = plan.files.options.filter.get())
        out.key("filter")
            .string(filter->text())
            .key("filtered_rows")
            .count(input.progress().filtered);
    out.key("final_time");
    if (run.newest())
        out.integer(*run.newest());
    else
        out.null();
    out.key("rows")
        .count(input.progress().rows)
        .key("trace")
        .string(input.name().toStdString())
        .key("truncated")
        .boolean(input.truncated())
        .key("window")
        .integer(plan.counter.window.count())
        .endObject();
    const std::string text = out.take();
    std::fwrite(text.data(), 1, text.size(), stdout);
}

// --bytes or --latency with --json: the answers (keys in ascending order as in printJson),
// the measure and what was read.
void printMeasuresJson(const ReplayPlan& plan, const ReplayRun& run, const TraceInput& input) {
    JsonWriter out;
    out.beginObject().key("answers");
    plan.measures->writeJson(out);
    out.key("measure").string(
        plan.measures->measure() == MeasureReplay::Measure::Bytes ? "bytes" : "latency");
    finishJsonWithInput(out, plan, run, input);
}

// --alert with --json: the transitions, the rules and what was read.
void printAlertsJson(const ReplayPlan& plan, const ReplayRun& run, const TraceInput& input) {
    JsonWriter out;
    out.beginObject();
    plan.alerts->writeJson(out);
    finishJsonWithInput(out, plan, run, input);
}

void reportReplay(const ReplayPlan& plan, const ReplayRun& run, const TraceInput& input) {
    if (plan.alerts) {
        if (plan.json)
            printAlertsJson(plan, run, input);  // without --json: printed as they fired
    } else if (plan.measures && plan.json) {
        printMeasuresJson(plan, run, input);
    } else if (plan.measures) {
        const std::string text = plan.measures->csv();
        std::fwrite(text.data(), 1, text.size(), stdout);
    } else if (plan.keyed)
        std::fwrite(plan.keyed->csv().data(), 1, plan.keyed->csv().size(), stdout);
    else if (plan.json)
        printJson(run, input, plan.counter.window, plan.files.options.filter.get());
    else
        printCsv(run);
}

}  // namespace

int runReplay(const QStringList& arguments) {
    QCommandLineParser parser;
    const ReplayCliOptions options;
    options.addTo(parser);
    auto parsed = parseReplay(parser, options, arguments);
    if (const int* exit = std::get_if<int>(&parsed))
        return *exit;
    ReplayPlan& plan = std::get<ReplayPlan>(parsed);

    TraceInput input(plan.files.files, plan.files.options, plan.files.keyBySource);
    if (!input.open())
        return kExitBadInput;
    std::vector<std::unique_ptr<WindowCounter>> counters;
    for (const auto& name : plan.policies)
        counters.push_back(makeCounter(name, plan.counter));
    ReplayRun run(std::move(counters), plan.queries);
    if (const auto exit = replayInput(plan, input, run))
        return *exit;
    reportReplay(plan, run, input);
    const int exit = checkedStdout();
    return exit == kExitOk && plan.alerts && plan.alerts->anyFired() ? kExitAlertFired : exit;
}

}  // namespace hitcounter::cli
