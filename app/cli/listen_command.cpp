// hitcounter-cli listen: the socket listeners and followed access logs headless, with a report
// at the end.
#include <QFile>
#include <QJsonDocument>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
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

}  // namespace

int runListen(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Listens for statsd (UDP, TCP) and Graphite plaintext (TCP), and follows access logs, "
        "until the duration ends or a stop signal, then prints what arrived. Without a listener "
        "or --follow option: --udp 127.0.0.1:8125. HOST:PORT may be [IPv6]:PORT or just PORT (host "
        "127.0.0.1); port 0 "
        "picks a free port. See docs/listener.md."));
    const QCommandLineOption udp(QStringLiteral("udp"),
                                 QStringLiteral("statsd over UDP on HOST:PORT."),
                                 QStringLiteral("HOST:PORT"));
    const QCommandLineOption tcp(QStringLiteral("tcp"),
                                 QStringLiteral("statsd over TCP on HOST:PORT."),
                                 QStringLiteral("HOST:PORT"));
    const QCommandLineOption graphite(QStringLiteral("graphite"),
                                      QStringLiteral("Graphite plaintext over TCP on HOST:PORT."),
                                      QStringLiteral("HOST:PORT"));
    const QCommandLineOption duration(
        QStringLiteral("duration"),
        QStringLiteral("Stop after S seconds (default: run until SIGINT or SIGTERM)."),
        QStringLiteral("S"));
    const QCommandLineOption record(
        QStringLiteral("record"),
        QStringLiteral("Record the hits to trace FILE (FILE.partial until the run ends)."),
        QStringLiteral("FILE"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print the report as one JSON object."));
    parser.addOptions({udp, tcp, graphite, duration, record, json});
    const RedisCliOptions fleetOptions;
    parser.addOptions(fleetOptions.all());
    const LimitOptions limitOptions;
    parser.addOptions(limitOptions.all());
    const FollowCliOptions followOptions;
    parser.addOptions(followOptions.all());
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("listen takes no FILE arguments, got '%1'")
                       .arg(parser.positionalArguments().join(QLatin1Char(' '))));
        return kExitBadInput;
    }

    std::optional<std::chrono::steady_clock::duration> runFor;
    if (parser.isSet(duration)) {
        const double seconds = plainNumber(parser.value(duration)).value_or(0);
        if (!(seconds > 0) || seconds > 1e9) {
            printError(QStringLiteral("--duration '%1' is not a duration; expected seconds > 0, "
                                      "such as 10 or 0.5")
                           .arg(parser.value(duration)));
            return kExitBadInput;
        }
        runFor = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(seconds));
    }

    const auto limits = limitsFrom(parser, limitOptions);
    auto followers = followersFrom(parser, followOptions);
    if (!limits || !followers)
        return kExitBadInput;

    std::vector<std::unique_ptr<SocketListener>> listeners;
    const auto add = [&](const QString& address, auto make) {
        ListenerOptions o = limits->listener;
        o.address = address.toStdString();
        (void)parseEndpoint(o.address);  // a malformed HOST:PORT is bad input, not a bind error
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
    try {
        for (const QString& a : parser.values(udp))
            add(a, udpListener);
        for (const QString& a : parser.values(tcp))
            add(a, tcpListener(WireProtocol::Statsd));
        for (const QString& a : parser.values(graphite))
            add(a, tcpListener(WireProtocol::Graphite));
        if (listeners.empty() && followers->empty())
            add(QStringLiteral("127.0.0.1:8125"), udpListener);
    } catch (const SourceError& e) {
        printError(QString::fromStdString(e.what()));
        return kExitBadInput;
    }

    // Recorded on this thread, as counted: the trace holds exactly the hits of the report.
    std::unique_ptr<TraceRecorder> recorder;
    if (parser.isSet(record)) {
        try {
            recorder = std::make_unique<TraceRecorder>(
                QFile::encodeName(parser.value(record)).toStdString(),
                TraceColumns{.key = true, .visitor = false, .count = true});
        } catch (const std::exception& e) {
            printError(QString::fromStdString(e.what()));
            return kExitBadInput;
        }
    }

    const sigset_t stopSignals = blockStopSignals();  // before the sink's thread starts
    const FleetSink fleet = startFleetSink(parser, fleetOptions);
    if (fleet.exit)
        return *fleet.exit;
    BatchQueue queue(4096, limits->queueMemory);
    KeyTotals keys(limits->keyMemory);
    try {
        for (const auto& l : listeners) {
            l->start(queue);
            printError(
                QStringLiteral("listening on %1").arg(QString::fromStdString(l->describe())));
        }
        const QStringList followed = parser.values(followOptions.follow);
        for (std::size_t i = 0; i < followers->size(); ++i) {
            (*followers)[i]->start(queue);
            printError(QStringLiteral("following %1").arg(followed[static_cast<qsizetype>(i)]));
        }
    } catch (const SourceError& e) {
        printError(QString::fromStdString(e.what()));
        return kExitFailure;
    }

    const auto started = std::chrono::steady_clock::now();
    while (!stopSignalArrived(stopSignals) &&
           !(runFor && std::chrono::steady_clock::now() - started >= *runFor)) {
        if (auto batch = queue.popFor(20ms))
            consume(*batch, keys, recorder.get(), fleet.sink.get());
        if (recorder)
            recorder->flushIfDue(std::chrono::steady_clock::now().time_since_epoch());
    }
    stopListening(listeners, *followers, queue, keys, recorder.get(), fleet.sink.get());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // The recording is finished before the report, so a report that cannot be written (a
    // closed pipe, a full disk) or is cut short never costs the recording.
    int exitCode = kExitOk;
    QString recorded;
    if (recorder) {
        try {
            recorder->finish();
            recorded = QStringLiteral("recorded %1 hits to %2")
                           .arg(recorder->hitsWritten())
                           .arg(QString::fromStdString(recorder->file().string()));
        } catch (const std::exception& e) {
            printError(QString::fromStdString(e.what()));
            exitCode = kExitFailure;
        }
    }
    ListenSummary summary = summarize(listeners, *followers, seconds);
    if (fleet.sink)
        summary.redisJson =
            QJsonDocument(stopFleetSink(*fleet.sink)).toJson(QJsonDocument::Compact).toStdString();
    // A second stop signal ends the report early. A write error is reported by checkedStdout.
    const ReportEnd report = printListenReport(stdout, summary, keys, parser.isSet(json),
                                               [&] { return stopSignalArrived(stopSignals); });
    if (report == ReportEnd::Interrupted) {
        printError(QStringLiteral("report interrupted by a second stop signal"));
        exitCode = kExitFailure;
    }
    if (!recorded.isEmpty())
        printError(recorded);
    return checkedStdout(exitCode);
}

}  // namespace hitcounter::cli
