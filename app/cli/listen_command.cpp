// hitcounter-cli listen: the socket listeners and followed access logs headless, with a report
// at the end.
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QMap>
#include <QProcessEnvironment>
#include <QSet>
#include <QTextStream>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <functional>
#include <memory>
#include <variant>
#include <vector>

#include "app/cli/alert_cli.h"
#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/hit_file_options.h"
#include "app/cli/listen_config.h"
#include "app/cli/listen_metrics.h"
#include "app/cli/listen_report.h"
#include "app/cli/redis_cli.h"
#include "app/cli/service_notify.h"
#include "app/cli/stop_signals.h"
#include "core/fleet/redis_url.h"
#include "core/io/trace_recorder.h"
#include "core/net/key_totals.h"
#include "core/net/tcp_listener.h"
#include "core/net/udp_listener.h"
#include "core/sources/bad_lines.h"
#include "core/sources/follow_source.h"

namespace hitcounter::cli {

namespace {

using namespace std::chrono_literals;

constexpr std::size_t kMiB = std::size_t{1} << 20;

// The memory and connection limits of a run (docs/listener.md, "Limits and defences").
struct Limits {
    ListenerOptions listener;  // everything but the address
    std::size_t keyMemory = 64 * kMiB;
    std::size_t queueMemory = 64 * kMiB;
};

struct LimitOptions {
    QCommandLineOption maxKeyLength{QStringLiteral("max-key-length"),
                                    QStringLiteral("Longer keys make a bad line (default 1024)."),
                                    QStringLiteral("BYTES"), QStringLiteral("1024")};
    QCommandLineOption keyMemory{
        QStringLiteral("key-memory"),
        QStringLiteral("Memory for the per-key totals; beyond it the keys idle longest are "
                       "folded into one \"other keys\" total (default 64)."),
        QStringLiteral("MIB"), QStringLiteral("64")};
    QCommandLineOption queueMemory{
        QStringLiteral("queue-memory"),
        QStringLiteral("Memory for hits received but not yet counted (default 64)."),
        QStringLiteral("MIB"), QStringLiteral("64")};
    QCommandLineOption idleTimeout{
        QStringLiteral("idle-timeout"),
        QStringLiteral("TCP: close a connection that completes no line for S seconds "
                       "(default 30)."),
        QStringLiteral("S"), QStringLiteral("30")};
    QCommandLineOption maxConnections{
        QStringLiteral("max-connections"),
        QStringLiteral("TCP: open connections per listener, at most (default 256)."),
        QStringLiteral("N"), QStringLiteral("256")};

    QList<QCommandLineOption> all() const {
        return {maxKeyLength, keyMemory, queueMemory, idleTimeout, maxConnections};
    }
};

// The limits given on the command line, or std::nullopt after naming a bad value.
std::optional<Limits> limitsFrom(const QCommandLineParser& parser, const LimitOptions& options) {
    const auto keyLength = wholeNumberFrom(parser, options.maxKeyLength, 1, kMaxLineBytes);
    const auto keyMemory = wholeNumberFrom(parser, options.keyMemory, 1, 1 << 20);
    const auto queueMemory = wholeNumberFrom(parser, options.queueMemory, 1, 1 << 20);
    const auto idle = numberFrom(parser, options.idleTimeout, 0.01, 1e6);
    const auto connections = wholeNumberFrom(parser, options.maxConnections, 1, 100000);
    if (!keyLength || !keyMemory || !queueMemory || !idle || !connections)
        return std::nullopt;
    Limits limits;
    limits.listener.maxKeyBytes = static_cast<std::size_t>(*keyLength);
    limits.listener.idleTimeout = std::chrono::milliseconds(std::llround(*idle * 1000));
    limits.listener.maxConnections = static_cast<std::size_t>(*connections);
    limits.keyMemory = static_cast<std::size_t>(*keyMemory) * kMiB;
    limits.queueMemory = static_cast<std::size_t>(*queueMemory) * kMiB;
    return limits;
}

// The unix second now, for the alert rules' clock.
Timestamp unixSecondNow() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Where each counted batch goes: the key totals, and each of the others that is not null.
struct Consumers {
    KeyTotals& keys;
    TraceRecorder* recorder = nullptr;
    fleet::RedisSink* sink = nullptr;
    ListenMetrics* metrics = nullptr;
    AlertRun* alerts = nullptr;
};

void consume(const HitBatch& batch, const Consumers& to) {
    for (const HitEvent& e : batch)
        to.keys.add(e.key, e.count);
    if (to.recorder)
        to.recorder->write(batch);
    if (to.sink)
        to.sink->add(batch);
    if (to.metrics)
        to.metrics->count(batch);
    if (to.alerts)
        to.alerts->addLive(batch, unixSecondNow());
}

// --follow FILE (repeatable) and --from-start, with replay's input options for the format.
struct FollowCliOptions {
    QCommandLineOption follow{
        QStringLiteral("follow"),
        QStringLiteral("Follow a web server access log like tail -F: every line appended is a "
                       "hit, across rotation and truncation (repeatable)."),
        QStringLiteral("FILE")};
    QCommandLineOption fromStart{
        QStringLiteral("from-start"),
        QStringLiteral("--follow: read the lines already in the file too (default: only new "
                       "ones).")};
    HitFileCliOptions file = hitFileCliOptions();

    QList<QCommandLineOption> all() const {
        // --max-inflation-ratio too: hitFileOptionsFrom reads it (a followed file is never gzip).
        // --filter applies to the listeners' lines as well (parseListen).
        return {follow,         fromStart, file.format,
                file.logFormat, file.key,  file.maxInflationRatio,
                file.filter};
    }
};

// One FollowSource per --follow FILE, its lines marked for `series` (the alert rules'
// filters), or std::nullopt after naming a bad option value.
std::optional<std::vector<std::unique_ptr<FollowSource>>> followersFrom(
    const QCommandLineParser& parser, const FollowCliOptions& options,
    std::shared_ptr<const SeriesFilters> series) {
    auto format = hitFileOptionsFrom(parser, options.file);
    if (!format)
        return std::nullopt;
    format->series = std::move(series);
    std::vector<std::unique_ptr<FollowSource>> followers;
    for (const QString& file : parser.values(options.follow))
        followers.push_back(std::make_unique<FollowSource>(
            FollowOptions{.file = QFile::encodeName(file).toStdString(),
                          .format = *format,
                          .fromStart = parser.isSet(options.fromStart)}));
    return followers;
}

// Stops every listener while still consuming, so that what a TCP listener drains after the
// stop finds room in the queue (it waits for room rather than dropping). A follower reads
// what was written before its stop, then ends.
void stopListening(const std::vector<std::unique_ptr<SocketListener>>& listeners,
                   const std::vector<std::unique_ptr<FollowSource>>& followers, BatchQueue& queue,
                   const Consumers& to) {
    for (const auto& f : followers)
        f->stop();
    for (const auto& l : listeners)
        l->requestStop();
    const auto anyRunning = [&] {
        for (const auto& l : listeners)
            if (l->running())
                return true;
        return false;
    };
    while (anyRunning()) {
        if (auto batch = queue.popFor(std::chrono::milliseconds(20)))
            consume(*batch, to);
    }
    for (const auto& l : listeners)
        l->stop();
    for (const auto& batch : queue.drain())
        consume(batch, to);
    if (to.metrics)
        to.metrics->publish();
}

ListenSummary summarize(const std::vector<std::unique_ptr<SocketListener>>& listeners,
                        const std::vector<std::unique_ptr<FollowSource>>& followers,
                        double seconds) {
    ListenSummary summary;
    summary.seconds = seconds;
    for (const auto& l : listeners) {
        ListenerSummary s;
        s.description = l->describe();
        s.stats = l->stats();
        s.problems = l->problems();
        s.lastProblem = l->lastProblem();
        if (const auto* tcp = dynamic_cast<const TcpListener*>(l.get())) {
            s.tcp = true;
            s.deferredConnections = tcp->deferredConnections();
            s.timedOutConnections = tcp->timedOutConnections();
            s.evictedConnections = tcp->evictedConnections();
        }
        summary.listeners.push_back(std::move(s));
    }
    for (const auto& f : followers) {
        ListenerSummary s;
        s.description = f->describe();
        s.stats = f->stats();
        s.follow = f->followStats();
        // Its bad lines as one kind of problem, the newest named with its place and the line.
        if (const std::vector<BadLine> bad = f->recentBadLines(); !bad.empty()) {
            const BadLine& last = bad.back();
            s.lastProblem =
                last.source + " at " + last.origin + ": " + last.problem + ": " + last.line;
            s.problems.push_back({"bad line", s.stats.badLines, s.lastProblem});
        }
        summary.listeners.push_back(std::move(s));
    }
    return summary;
}

// Every option of `listen`, added to one parser.
struct ListenCliOptions {
    QCommandLineOption udp{QStringLiteral("udp"), QStringLiteral("statsd over UDP on HOST:PORT."),
                           QStringLiteral("HOST:PORT")};
    QCommandLineOption tcp{QStringLiteral("tcp"), QStringLiteral("statsd over TCP on HOST:PORT."),
                           QStringLiteral("HOST:PORT")};
    QCommandLineOption graphite{QStringLiteral("graphite"),
                                QStringLiteral("Graphite plaintext over TCP on HOST:PORT."),
                                QStringLiteral("HOST:PORT")};
    QCommandLineOption duration{
        QStringLiteral("duration"),
        QStringLiteral("Stop after S seconds (default: run until SIGINT or SIGTERM)."),
        QStringLiteral("S")};
    QCommandLineOption record{
        QStringLiteral("record"),
        QStringLiteral("Record the hits to trace FILE (FILE.partial until the run ends)."),
        QStringLiteral("FILE")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print the report as one JSON object.")};
    AlertCliOptions alerts = alertCliOptions();
    QCommandLineOption receivers{
        QStringLiteral("receivers"),
        QStringLiteral("Receiver threads per --udp/--tcp/--graphite listener, each with its own "
                       "socket on the port (SO_REUSEPORT; default: one per core, here %1).")
            .arg(receiverCount(0)),
        QStringLiteral("N"), QString::number(receiverCount(0))};
    QCommandLineOption config{
        QStringLiteral("config"),
        QStringLiteral("Read options from TOML FILE (keys: the option names without --); the "
                       "command line overrides it. With it, SIGHUP reloads instead of "
                       "stopping. See docs/metrics.md."),
        QStringLiteral("FILE")};
    QCommandLineOption printConfig{
        QStringLiteral("print-config"),
        QStringLiteral("Print the configuration in force (file, command line, environment) as "
                       "TOML and exit.")};
    RedisCliOptions fleet;
    LimitOptions limits;
    FollowCliOptions follow;
    MetricsCliOptions metrics;

    // Every option, with what the config file and the environment may say about it; a new
    // option goes here, so that it gets its key in the file.
    std::vector<ConfigurableOption> configurable() const {
        std::vector<ConfigurableOption> table;
        const auto add = [&](const QCommandLineOption& o, bool repeatable = false,
                             QString environment = {}) {
            table.push_back({o, repeatable, std::move(environment), true});
        };
        const auto withoutPassword = [](const QString& url) {
            return QString::fromStdString(fleet::redactedRedisUrl(url.toStdString()));
        };
        add(udp, true);
        add(tcp, true);
        add(graphite, true);
        add(duration);
        add(record);
        add(json);
        add(alerts.alert, true);
        add(alerts.alertFile);
        add(alerts.alertCommand);
        add(receivers);
        add(fleet.redis, false, QStringLiteral("HITCOUNTER_REDIS"));
        table.back().printed = withoutPassword;
        add(fleet.passwordFile);
        add(fleet.instance, false, QStringLiteral("HITCOUNTER_INSTANCE"));
        add(fleet.flushInterval);
        add(fleet.acceptPast);
        add(fleet.acceptFuture);
        add(fleet.buffer);
        add(fleet.hot.shards);
        add(fleet.hot.writes);
        add(fleet.hot.items, true);  // hot-items = ["a", "b"]: the pinned hot items
        for (const auto& o : limits.all())
            add(o);
        add(follow.follow, true);
        for (const auto& o : follow.all().mid(1))
            add(o);
        add(metrics.metrics, false, QStringLiteral("HITCOUNTER_METRICS"));
        add(metrics.metricsKeys);
        table.push_back({config, false, {}, false});
        table.push_back({printConfig, false, {}, false});
        return table;
    }

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Listens for statsd (UDP, TCP) and Graphite plaintext (TCP), and follows access "
            "logs, until the duration ends or a stop signal, then prints what arrived. Without "
            "a listener or --follow option: --udp 127.0.0.1:8125. HOST:PORT may be [IPv6]:PORT "
            "or just PORT (host 127.0.0.1); port 0 picks a free port. See docs/listener.md."));
        for (const ConfigurableOption& o : configurable())
            parser.addOption(o.option);
    }
};

// What the command line asks for: the sources made (not started), the recorder opened.
struct ListenPlan {
    std::optional<std::chrono::steady_clock::duration> runFor;
    Limits limits;
    std::vector<std::unique_ptr<SocketListener>> listeners;
    std::vector<std::unique_ptr<FollowSource>> followers;
    QStringList followed;  // the --follow FILE names, as given
    std::unique_ptr<TraceRecorder> recorder;
    MetricsPlan metrics;
    std::unique_ptr<AlertRun> alerts;  // --alert; null without
    bool json = false;
};

// --duration S, or std::nullopt (run until a stop signal); false after naming a bad value.
bool durationFrom(const QCommandLineParser& parser, const ListenCliOptions& options,
                  ListenPlan& plan) {
    if (!parser.isSet(options.duration))
        return true;
    app::OptionReader reader(parser);
    const auto seconds =
        reader.number(options.duration, {.min = 0, .max = 1e9, .aboveMin = true},
                      QStringLiteral("{option} '{value}' is not a duration; expected seconds > 0, "
                                     "such as 10 or 0.5"));
    if (!seconds) {
        printError(reader.error());
        return false;
    }
    plan.runFor = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(*seconds));
    return true;
}

// One listener per --udp/--tcp/--graphite address (--udp 127.0.0.1:8125 when there is no
// source at all). Throws SourceError for a malformed HOST:PORT: bad input, not a bind error.
std::vector<std::unique_ptr<SocketListener>> listenersFrom(const QCommandLineParser& parser,
                                                           const ListenCliOptions& options,
                                                           const ListenerOptions& limits,
                                                           bool anyFollower) {
    std::vector<std::unique_ptr<SocketListener>> listeners;
    const auto add = [&](const QString& address, auto make) {
        ListenerOptions o = limits;
        o.address = address.toStdString();
        (void)parseEndpoint(o.address);
        listeners.push_back(make(std::move(o)));
    };
    const auto udpListener = [](ListenerOptions o) {
        return std::make_unique<UdpStatsdListener>(std::move(o));
    };
    const auto tcpListener = [](WireProtocol protocol) {
        return [protocol](ListenerOptions o) {
            return std::make_unique<TcpListener>(std::move(o), protocol);
        };
    };
    for (const QString& a : parser.values(options.udp))
        add(a, udpListener);
    for (const QString& a : parser.values(options.tcp))
        add(a, tcpListener(WireProtocol::Statsd));
    for (const QString& a : parser.values(options.graphite))
        add(a, tcpListener(WireProtocol::Graphite));
    if (listeners.empty() && !anyFollower)
        add(QStringLiteral("127.0.0.1:8125"), udpListener);
    return listeners;
}

// The plan, or the exit code after naming what is wrong.
std::variant<ListenPlan, int> parseListen(QCommandLineParser& parser,
                                          const ListenCliOptions& options,
                                          const QStringList& arguments) {
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("listen takes no FILE arguments, got '%1'")
                       .arg(parser.positionalArguments().join(QLatin1Char(' '))));
        return kExitBadInput;
    }
    ListenPlan plan;
    plan.json = parser.isSet(options.json);
    if (!durationFrom(parser, options, plan))
        return kExitBadInput;
    const auto limits = limitsFrom(parser, options.limits);
    const auto receivers = wholeNumberFrom(parser, options.receivers, 1, 1024);
    const auto filter = filterFrom(parser, options.follow.file.filter);
    auto alerts = alertRunFrom(parser, options.alerts, kDefaultWindow, stdout, !plan.json,
                               AlertCommand::Mode::Concurrent);
    if (!filter || !alerts)
        return kExitBadInput;
    plan.alerts = std::move(*alerts);
    const auto series = plan.alerts ? plan.alerts->series() : nullptr;
    auto followers = followersFrom(parser, options.follow, series);
    const auto metrics = metricsPlanFrom(parser, options.metrics);
    if (!limits || !receivers || !followers || !metrics)
        return kExitBadInput;
    plan.limits = *limits;
    plan.limits.listener.filter = *filter;
    plan.limits.listener.series = series;
    plan.limits.listener.receivers = static_cast<std::size_t>(*receivers);
    if (parser.isSet(options.fleet.redis)) {
        // What reaches Redis must have a time Redis can keep (docs/redis.md, "Accepted times").
        plan.limits.listener.acceptedTimes = acceptedTimesFrom(parser, options.fleet);
        if (!plan.limits.listener.acceptedTimes)
            return kExitBadInput;
    }
    plan.metrics = *metrics;
    plan.followers = std::move(*followers);
    plan.followed = parser.values(options.follow.follow);
    try {
        plan.listeners =
            listenersFrom(parser, options, plan.limits.listener, !plan.followers.empty());
    } catch (const std::exception& e) {
        printError(QString::fromStdString(e.what()));
        return kExitBadInput;
    }
    return plan;
}

// Opens the --record FILE (FILE.partial until finished), or none; false after naming why not.
// Recorded on the consuming thread, as counted: the trace holds exactly the hits of the
// report.
bool openRecording(const QCommandLineParser& parser, const ListenCliOptions& options,
                   ListenPlan& plan) {
    if (!parser.isSet(options.record))
        return true;
    try {
        plan.recorder = std::make_unique<TraceRecorder>(
            QFile::encodeName(parser.value(options.record)).toStdString(),
            TraceColumns{.key = true, .visitor = false, .count = true});
    } catch (const std::exception& e) {
        printError(QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

// Starts every source on `queue`, naming each on stderr; false after naming one that failed.
bool startSources(ListenPlan& plan, BatchQueue& queue) {
    try {
        for (const auto& l : plan.listeners) {
            l->start(queue);
            printError(QStringLiteral("listening on %1 (%2 receiver thread%3)")
                           .arg(QString::fromStdString(l->describe()))
                           .arg(l->receivers())
                           .arg(l->receivers() == 1 ? "" : "s"));
        }
        for (std::size_t i = 0; i < plan.followers.size(); ++i) {
            plan.followers[i]->start(queue);
            printError(
                QStringLiteral("following %1").arg(plan.followed[static_cast<qsizetype>(i)]));
        }
    } catch (const SourceError& e) {
        printError(QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

// What the counting loop does besides counting: the metrics' snapshots, systemd's watchdog,
// and with --config what SIGHUP does instead of stopping.
struct LoopHooks {
    ListenMetrics* metrics = nullptr;
    ServiceNotifier* notifier = nullptr;
    std::function<void()> reload;
};

// Names on stderr each file a follower refused since the last call (a FIFO, a device or a file
// it may not read put at its path: it goes on with the old file and looks again).
void reportRefusedFiles(const std::vector<std::unique_ptr<FollowSource>>& followers,
                        std::vector<std::uint64_t>& reported) {
    reported.resize(followers.size());
    for (std::size_t i = 0; i < followers.size(); ++i) {
        const std::uint64_t refused = followers[i]->followStats().refusedFiles;
        if (refused != reported[i]) {
            reported[i] = refused;
            printError(QString::fromStdString(followers[i]->refusal()));
        }
    }
}

// Consumes until the duration ends or a stop signal, then stops the sources; the seconds run.
double consumeUntilStopped(ListenPlan& plan, BatchQueue& queue, KeyTotals& keys,
                           fleet::RedisSink* sink, const sigset_t& stopSignals,
                           const LoopHooks& hooks) {
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::uint64_t> refusalsReported;
    for (;;) {
        reportRefusedFiles(plan.followers, refusalsReported);
        const int signal = stopSignalArrived(stopSignals);
        if (signal == SIGHUP && hooks.reload) {
            hooks.reload();
            continue;
        }
        const auto now = std::chrono::steady_clock::now();
        if (signal != 0 || (plan.runFor && now - started >= *plan.runFor))
            break;
        const Consumers to{keys, plan.recorder.get(), sink, hooks.metrics, plan.alerts.get()};
        if (auto batch = queue.popFor(20ms))
            consume(*batch, to);
        if (plan.alerts)  // each second once the next has passed: its hits have arrived
            plan.alerts->advanceTo(unixSecondNow() - 2);
        if (plan.recorder)
            plan.recorder->flushIfDue(std::chrono::steady_clock::now().time_since_epoch());
        if (hooks.metrics)
            hooks.metrics->tick();
        hooks.notifier->keepAlive(now);
    }
    hooks.notifier->stopping();
    stopListening(plan.listeners, plan.followers, queue,
                  {keys, plan.recorder.get(), sink, hooks.metrics, plan.alerts.get()});
    if (plan.alerts) {  // every second that ended: the sources have sent all they had
        plan.alerts->advanceTo(unixSecondNow() - 1);
        plan.alerts->reportAtEnd();
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// Finishes the recording before the report, so a report that cannot be written (a closed
// pipe, a full disk) or is cut short never costs the recording. Returns the line to print
// after the report, or sets `exitCode`.
QString finishRecording(TraceRecorder* recorder, int& exitCode) {
    if (!recorder)
        return {};
    try {
        recorder->finish();
        return QStringLiteral("recorded %1 hits to %2")
            .arg(recorder->hitsWritten())
            .arg(QString::fromStdString(recorder->file().string()));
    } catch (const std::exception& e) {
        printError(QString::fromStdString(e.what()));
        exitCode = kExitFailure;
        return {};
    }
}

// The report on stdout (a second stop signal ends it early), then the recording's line.
int reportListen(ListenPlan& plan, const KeyTotals& keys, double seconds, fleet::RedisSink* sink,
                 const sigset_t& stopSignals) {
    int exitCode = kExitOk;
    const QString recorded = finishRecording(plan.recorder.get(), exitCode);
    ListenSummary summary = summarize(plan.listeners, plan.followers, seconds);
    if (sink)
        summary.redisJson =
            QJsonDocument(stopFleetSink(*sink)).toJson(QJsonDocument::Compact).toStdString();
    if (plan.alerts && plan.json)
        summary.alertsJson = plan.alerts->membersJson();
    // A write error is reported by checkedStdout.
    const ReportEnd report = printListenReport(stdout, summary, keys, plan.json,
                                               [&] { return stopSignalArrived(stopSignals); });
    if (report == ReportEnd::Interrupted) {
        printError(QStringLiteral("report interrupted by a second stop signal"));
        exitCode = kExitFailure;
    }
    if (!recorded.isEmpty())
        printError(recorded);
    exitCode = checkedStdout(exitCode);
    return exitCode == kExitOk && plan.alerts && plan.alerts->anyFired() ? kExitAlertFired
                                                                         : exitCode;
}

// Reads --config FILE and checks each value as listen would on the command line (naming the
// file, line and key); std::nullopt after the problems are printed.
std::optional<ConfigFile> loadConfig(const QString& path, const QString& program,
                                     const ListenCliOptions& options) {
    auto config = readConfigFile(path, options.configurable());
    if (!config)
        return std::nullopt;
    const bool valid = checkConfigValues(*config, program, [&](const QStringList& arguments) {
        QCommandLineParser parser;
        options.addTo(parser);
        return std::holds_alternative<ListenPlan>(parseListen(parser, options, arguments)) &&
               checkFleetValues(parser, options.fleet);
    });
    return valid ? config : std::nullopt;
}

// The options in force: the command line's, over the config file's, under the environment's.
struct ListenSettings {
    QString program;
    const QCommandLineParser& commandLine;
    const ListenCliOptions& options;
    QString configPath;  // empty without --config

    QStringList arguments(const ConfigFile* config) const {
        return mergedArguments(program, commandLine, options.configurable(), config,
                               QProcessEnvironment::systemEnvironment());
    }
};

// SIGHUP with --config: reads the file again and applies what may change while running:
// the recording is finished and opened again (at the new `record` path, if it changed; on
// every SIGHUP, so that a recording moved away by a rotation job starts anew) and
// --metrics-keys takes effect. Other changes are named: they need a restart. A file with
// errors changes nothing.
void reloadConfig(const ListenSettings& settings, ListenPlan& plan, ListenMetrics* metrics,
                  ServiceNotifier& notifier, QMap<QString, QStringList>& inForce) {
    notifier.reloading();
    const auto failed = [&] {
        printError(QStringLiteral("reload: %1 not applied; still running as before")
                       .arg(settings.configPath));
        notifier.ready("counting (the last reload failed: see the log)");
    };
    const auto config = loadConfig(settings.configPath, settings.program, settings.options);
    if (!config)
        return failed();
    QCommandLineParser parser;
    settings.options.addTo(parser);
    auto parsed = parseListen(parser, settings.options, settings.arguments(&*config));
    if (!std::holds_alternative<ListenPlan>(parsed))
        return failed();
    const auto wanted = optionValues(parser, settings.options.configurable());
    const QString recordKey = settings.options.record.names().constLast();
    const QString keysKey = settings.options.metrics.metricsKeys.names().constLast();
    for (const QString& key : QSet<QString>(wanted.keyBegin(), wanted.keyEnd()) +
                                  QSet<QString>(inForce.keyBegin(), inForce.keyEnd()))
        if (key != recordKey && key != keysKey && wanted.value(key) != inForce.value(key))
            printError(
                QStringLiteral("reload: '%1' changed; it takes effect at the next start").arg(key));
    int exitCode = kExitOk;
    const QString recorded = finishRecording(plan.recorder.get(), exitCode);
    if (!recorded.isEmpty())
        printError(recorded);
    plan.recorder.reset();
    if (!openRecording(parser, settings.options, plan))
        printError(QStringLiteral("reload: not recording until the next reload"));
    if (metrics)
        metrics->setMaxKeys(std::get<ListenPlan>(parsed).metrics.keys);
    for (const QString& key : {recordKey, keysKey}) {
        if (wanted.contains(key))
            inForce.insert(key, wanted.value(key));
        else
            inForce.remove(key);
    }
    printError(QStringLiteral("reloaded %1").arg(settings.configPath));
    notifier.ready("counting (reloaded)");
}

// The metrics endpoint, if --metrics asks for one (null otherwise, or `exit` set after naming
// why it could not start).
std::unique_ptr<ListenMetrics> startMetrics(const ListenPlan& plan, const BatchQueue& queue,
                                            const fleet::RedisSink* sink, int& exit) {
    if (plan.metrics.address.empty())
        return nullptr;
    try {
        auto metrics = std::make_unique<ListenMetrics>(
            plan.metrics, MetricsSources{plan.listeners, plan.followers, queue, sink},
            QCoreApplication::applicationVersion().toStdString());
        metrics->publish();
        printError(
            QStringLiteral("serving metrics on %1").arg(QString::fromStdString(metrics->url())));
        return metrics;
    } catch (const std::exception& e) {
        printError(QString::fromStdString(e.what()));
        exit = kExitFailure;
        return nullptr;
    }
}

}  // namespace

int runListen(const QStringList& arguments) {
    const ListenCliOptions options;
    QCommandLineParser commandLine;
    options.addTo(commandLine);
    if (const auto exit = parseArguments(commandLine, arguments))
        return *exit;
    const ListenSettings settings{arguments.value(0), commandLine, options,
                                  commandLine.value(options.config)};
    std::optional<ConfigFile> config;
    if (!settings.configPath.isEmpty()) {
        config = loadConfig(settings.configPath, settings.program, options);
        if (!config)
            return kExitBadInput;
    }
    QCommandLineParser parser;
    options.addTo(parser);
    auto parsed = parseListen(parser, options, settings.arguments(config ? &*config : nullptr));
    if (const int* exit = std::get_if<int>(&parsed))
        return *exit;
    ListenPlan& plan = std::get<ListenPlan>(parsed);
    if (parser.isSet(options.printConfig)) {
        QTextStream(stdout) << configAsToml(parser, options.configurable());
        return checkedStdout();
    }
    if (!openRecording(parser, options, plan))
        return kExitBadInput;

    const sigset_t stopSignals = blockStopSignals();  // before the sink's thread starts
    const FleetSink fleet = startFleetSink(parser, options.fleet);
    if (fleet.exit)
        return *fleet.exit;
    BatchQueue queue(4096, plan.limits.queueMemory);
    KeyTotals keys(plan.limits.keyMemory);
    if (!startSources(plan, queue))
        return kExitFailure;
    if (plan.alerts)
        plan.alerts->beginLive(unixSecondNow());
    int exit = kExitOk;
    const auto metrics = startMetrics(plan, queue, fleet.sink.get(), exit);
    if (exit != kExitOk)
        return exit;
    ServiceNotifier notifier;
    notifier.ready("counting");
    LoopHooks hooks{.metrics = metrics.get(), .notifier = &notifier, .reload = {}};
    auto inForce = optionValues(parser, options.configurable());
    if (config)
        hooks.reload = [&] { reloadConfig(settings, plan, metrics.get(), notifier, inForce); };
    const double seconds =
        consumeUntilStopped(plan, queue, keys, fleet.sink.get(), stopSignals, hooks);
    return reportListen(plan, keys, seconds, fleet.sink.get(), stopSignals);
}

}  // namespace hitcounter::cli
