#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <limits>
#include <optional>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/hit_file_options.h"
#include "app/cli/keyed_replay.h"
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

void printJson(const ReplayRun& run, const QString& trace, const TraceProgress& progress,
               std::chrono::seconds window) {
    QJsonArray answers;
    for (const auto& answer : run.answers()) {
        QJsonObject counts;
        for (std::size_t i = 0; i < answer.counts.size(); ++i)
            counts.insert(policyName(*run.counters()[i]), jsonCount(answer.counts[i]));
        answers.append(QJsonObject{{QStringLiteral("time"), static_cast<qint64>(answer.time)},
                                   {QStringLiteral("counts"), counts}});
    }
    QJsonArray policies;
    for (std::size_t i = 0; i < run.counters().size(); ++i) {
        const auto& counter = *run.counters()[i];
        const auto& summary = run.summaries()[i];
        policies.append(QJsonObject{
            {QStringLiteral("policy"), policyName(counter)},
            {QStringLiteral("exact"), counter.isExact()},
            {QStringLiteral("final_count"), jsonCount(summary.finalCount)},
            {QStringLiteral("memory_bytes"), static_cast<qint64>(summary.memoryBytes)},
            {QStringLiteral("ns_per_hit"), summary.nsPerHit},
            {QStringLiteral("dropped_late"), jsonCount(summary.droppedLate)},
        });
    }
    const QJsonObject root{
        {QStringLiteral("trace"), trace},
        {QStringLiteral("window"), static_cast<qint64>(window.count())},
        {QStringLiteral("rows"), static_cast<qint64>(progress.rows)},
        {QStringLiteral("bad_rows"), static_cast<qint64>(progress.badRows)},
        {QStringLiteral("final_time"),
         run.newest() ? QJsonValue(static_cast<qint64>(*run.newest())) : QJsonValue()},
        {QStringLiteral("answers"), answers},
        {QStringLiteral("policies"), policies},
    };
    QTextStream(stdout) << QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace

int runReplay(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Replays a trace CSV or a web server access log, plain or gzipped (see docs/formats.md), "
        "through counting policies and prints "
        "time,policy,count rows for each query time (--top and --uniques: per-key tables)."));
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("The trace CSV or access log, or - for stdin."));
    const auto policy = policyOption(true);
    const auto window = windowOption();
    const QCommandLineOption at(
        QStringLiteral("at"),
        QStringLiteral(
            "Query times T1,T2,... (repeatable; default: the newest timestamp in the trace)."),
        QStringLiteral("T1,T2,..."));
    const QCommandLineOption json(
        QStringLiteral("json"), QStringLiteral("Print a JSON summary per policy instead of CSV."));
    const QCommandLineOption strict(
        QStringLiteral("strict"),
        QStringLiteral("Stop at the first bad row with exit code 2 (default: skip and count)."));
    const QCommandLineOption top(
        QStringLiteral("top"),
        QStringLiteral("Print time,rank,key,count: the K keys with the most hits in each window."),
        QStringLiteral("K"));
    const QCommandLineOption uniques(
        QStringLiteral("uniques"),
        QStringLiteral("Print time,key,uniques: distinct visitors in each window per key, and "
                       "for all keys as key *."));
    parser.addOptions({policy, window, at, json, strict, top, uniques});
    const auto fileOptions = hitFileCliOptions();
    addHitFileCliOptions(parser, fileOptions);
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (parser.positionalArguments().size() != 1) {
        printError(QStringLiteral("replay expects one trace FILE (or - for stdin), got %1")
                       .arg(parser.positionalArguments().size()));
        return kExitBadInput;
    }
    const auto policies = policiesFrom(parser, policy, true);
    const auto options = counterOptionsFrom(parser, window);
    const auto queries = parser.isSet(at) ? queryTimes(parser.values(at).join(QLatin1Char(',')))
                                          : std::optional(std::vector<Timestamp>{});
    const auto hitFileOptions = hitFileOptionsFrom(parser, fileOptions);
    if (!policies || !options || !queries || !hitFileOptions)
        return kExitBadInput;
    std::optional<KeyedReplay> keyed;
    if (parser.isSet(top) || parser.isSet(uniques)) {
        if (parser.isSet(top) && parser.isSet(uniques)) {
            printError(QStringLiteral("--top and --uniques print different tables; give one"));
            return kExitBadInput;
        }
        if (parser.isSet(json)) {
            printError(
                QStringLiteral("--json summarizes the policies; it does not combine with "
                               "--top or --uniques"));
            return kExitBadInput;
        }
        const auto k = parser.isSet(top)
                           ? wholeNumberFrom(parser, top, 1, std::numeric_limits<int>::max())
                           : std::optional<long long>(0);
        if (!k)
            return kExitBadInput;
        keyed.emplace(parser.isSet(top) ? KeyedReplay::Mode::Top : KeyedReplay::Mode::Uniques,
                      options->window, static_cast<std::size_t>(*k));
    }

    TraceInput input(parser.positionalArguments().first(), *hitFileOptions);
    if (!input.open())
        return kExitBadInput;

    std::vector<std::unique_ptr<WindowCounter>> counters;
    for (const auto& name : *policies)
        counters.push_back(makeCounter(name, *options));
    ReplayRun run(std::move(counters), *queries);
    if (keyed)
        run.setOnAnswer([&keyed](Timestamp time) { keyed->answer(time); });
    if (const auto exit = input.read(parser.isSet(strict), [&](const HitEvent& event) {
            run.add(event);
            if (keyed)
                keyed->add(event);
        }))
        return *exit;
    run.finish();

    if (keyed)
        QTextStream(stdout) << QString::fromStdString(keyed->csv());
    else if (parser.isSet(json))
        printJson(run, input.name(), input.progress(), options->window);
    else
        printCsv(run);
    return checkedStdout();
}

}  // namespace hitcounter::cli
