// hitcounter-cli listen: the socket listeners and followed access logs headless, with a report
// at the end.
#include <QFile>
#include <QJsonDocument>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <variant>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/hit_file_options.h"
#include "app/cli/listen_report.h"
#include "app/cli/redis_cli.h"
#include "app/cli/stop_signals.h"
#include "core/io/trace_recorder.h"
#include "core/net/key_totals.h"
#include "core/net/tcp_listener.h"
#include "core/net/udp_listener.h"
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

void consume(const HitBatch& batch, KeyTotals& keys, TraceRecorder* recorder,
             fleet::RedisSink* sink) {
    for (const HitEvent& e : batch)
        keys.add(e.key, e.count);
    if (recorder)
        recorder->write(batch);
    if (sink)
        sink->add(batch);
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
        return {follow, fromStart, file.format, file.logFormat, file.key};
    }
};

// One FollowSource per --follow FILE, or std::nullopt after naming a bad option value.
std::optional<std::vector<std::unique_ptr<FollowSource>>> followersFrom(
    const QCommandLineParser& parser, const FollowCliOptions& options) {
    const auto format = hitFileOptionsFrom(parser, options.file);
    if (!format)
        return std::nullopt;
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
                   KeyTotals& keys, TraceRecorder* recorder, fleet::RedisSink* sink) {
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
            consume(*batch, keys, recorder, sink);
    }
    for (const auto& l : listeners)
        l->stop();
    for (const auto& batch : queue.drain())
        consume(batch, keys, recorder, sink);
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
    QCommandLineOption receivers{
        QStringLiteral("receivers"),
        QStringLiteral("Receiver threads per --udp/--tcp/--graphite listener, each with its own "
                       "socket on the port (SO_REUSEPORT; default: one per core, here %1).")
            .arg(receiverCount(0)),
        QStringLiteral("N"), QString::number(receiverCount(0))};
    RedisCliOptions fleet;
    LimitOptions limits;
    FollowCliOptions follow;

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Listens for statsd (UDP, TCP) and Graphite plaintext (TCP), and follows access "
            "logs, until the duration ends or a stop signal, then prints what arrived. Without "
            "a listener or --follow option: --udp 127.0.0.1:8125. HOST:PORT may be [IPv6]:PORT "
            "or just PORT (host 127.0.0.1); port 0 picks a free port. See docs/listener.md."));
        parser.addOptions({udp, tcp, graphite, duration, record, json, receivers});
        parser.addOptions(fleet.all());
        parser.addOptions(limits.all());
        parser.addOptions(follow.all());
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
    auto followers = followersFrom(parser, options.follow);
    if (!limits || !receivers || !followers)
        return kExitBadInput;
    plan.limits = *limits;
    plan.limits.listener.receivers = static_cast<std::size_t>(*receivers);
    plan.followers = std::move(*followers);
    plan.followed = parser.values(options.follow.follow);
    try {
        plan.listeners =
            listenersFrom(parser, options, plan.limits.listener, !plan.followers.empty());
        // Recorded on the consuming thread, as counted: the trace holds exactly the hits of
        // the report.
        if (parser.isSet(options.record))
            plan.recorder = std::make_unique<TraceRecorder>(
                QFile::encodeName(parser.value(options.record)).toStdString(),
                TraceColumns{.key = true, .visitor = false, .count = true});
    } catch (const std::exception& e) {
        printError(QString::fromStdString(e.what()));
        return kExitBadInput;
    }
    return plan;
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

// Consumes until the duration ends or a stop signal, then stops the sources; the seconds run.
double consumeUntilStopped(ListenPlan& plan, BatchQueue& queue, KeyTotals& keys,
                           fleet::RedisSink* sink, const sigset_t& stopSignals) {
    const auto started = std::chrono::steady_clock::now();
    while (!stopSignalArrived(stopSignals) &&
           !(plan.runFor && std::chrono::steady_clock::now() - started >= *plan.runFor)) {
        if (auto batch = queue.popFor(20ms))
            consume(*batch, keys, plan.recorder.get(), sink);
        if (plan.recorder)
            plan.recorder->flushIfDue(std::chrono::steady_clock::now().time_since_epoch());
    }
    stopListening(plan.listeners, plan.followers, queue, keys, plan.recorder.get(), sink);
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
    // A write error is reported by checkedStdout.
    const ReportEnd report = printListenReport(stdout, summary, keys, plan.json,
                                               [&] { return stopSignalArrived(stopSignals); });
    if (report == ReportEnd::Interrupted) {
        printError(QStringLiteral("report interrupted by a second stop signal"));
        exitCode = kExitFailure;
    }
    if (!recorded.isEmpty())
        printError(recorded);
    return checkedStdout(exitCode);
}

}  // namespace

int runListen(const QStringList& arguments) {
    QCommandLineParser parser;
    const ListenCliOptions options;
    options.addTo(parser);
    auto parsed = parseListen(parser, options, arguments);
    if (const int* exit = std::get_if<int>(&parsed))
        return *exit;
    ListenPlan& plan = std::get<ListenPlan>(parsed);

    const sigset_t stopSignals = blockStopSignals();  // before the sink's thread starts
    const FleetSink fleet = startFleetSink(parser, options.fleet);
    if (fleet.exit)
        return *fleet.exit;
    BatchQueue queue(4096, plan.limits.queueMemory);
    KeyTotals keys(plan.limits.keyMemory);
    if (!startSources(plan, queue))
        return kExitFailure;
    const double seconds = consumeUntilStopped(plan, queue, keys, fleet.sink.get(), stopSignals);
    return reportListen(plan, keys, seconds, fleet.sink.get(), stopSignals);
}

}  // namespace hitcounter::cli
