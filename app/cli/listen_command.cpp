// hitcounter-cli listen: the socket listeners headless, with a report at the end.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <algorithm>
#include <chrono>
#include <memory>
#include <unordered_map>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/stop_signals.h"
#include "core/io/trace_recorder.h"
#include "core/net/tcp_listener.h"
#include "core/net/udp_listener.h"

namespace hitcounter::cli {

namespace {

using namespace std::chrono_literals;

// Keys listed one by one in the text report (the JSON report lists them all).
constexpr std::size_t kTextKeys = 20;

struct Totals {
    SourceStats stats;
    std::unordered_map<std::string, Count> keys;
};

void addStats(SourceStats& to, const SourceStats& s) {
    to.packets += s.packets;
    to.lines += s.lines;
    to.hits += s.hits;
    to.badLines += s.badLines;
    to.ignoredLines += s.ignoredLines;
    to.dropped += s.dropped;
    to.lateHits += s.lateHits;
}

void consume(const HitBatch& batch, Totals& totals, TraceRecorder* recorder) {
    for (const HitEvent& e : batch)
        totals.keys[e.key] += e.count;
    if (recorder)
        recorder->write(batch);
}

std::vector<std::pair<std::string, Count>> keysByHits(const Totals& totals) {
    std::vector<std::pair<std::string, Count>> sorted(totals.keys.begin(), totals.keys.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return sorted;
}

void printText(const std::vector<std::unique_ptr<SocketListener>>& listeners, const Totals& totals,
               double seconds) {
    QTextStream out(stdout);
    const SourceStats& s = totals.stats;
    out << "listened " << QString::number(seconds, 'f', 1) << " s on";
    for (const auto& l : listeners)
        out << ' ' << QString::fromStdString(l->describe()) << (&l == &listeners.back() ? "" : ",");
    out << "\npackets " << s.packets << "  lines " << s.lines << "  hits " << s.hits
        << "  bad_lines " << s.badLines << "  ignored " << s.ignoredLines << "  dropped "
        << s.dropped << "  late " << s.lateHits << '\n';
    const auto keys = keysByHits(totals);
    out << keys.size() << " key(s)" << (keys.empty() ? "" : ", by hits:") << '\n';
    for (std::size_t i = 0; i < keys.size() && i < kTextKeys; ++i)
        out << "  " << QString::fromUtf8(keys[i].first) << ' ' << keys[i].second << '\n';
    if (keys.size() > kTextKeys)
        out << "  ... " << keys.size() - kTextKeys << " more (--json lists them all)\n";
}

void printJson(const std::vector<std::unique_ptr<SocketListener>>& listeners, const Totals& totals,
               double seconds) {
    QJsonArray described;
    QStringList problems;
    for (const auto& l : listeners) {
        described.append(QString::fromStdString(l->describe()));
        if (!l->lastProblem().empty())
            problems << QString::fromStdString(l->lastProblem());
    }
    // Keys are bytes; two that differ only in invalid UTF-8 meet in one JSON name and add up.
    QHash<QString, Count> merged;
    for (const auto& [key, hits] : totals.keys)
        merged[QString::fromUtf8(key)] += hits;
    QJsonObject keys;
    for (auto it = merged.cbegin(); it != merged.cend(); ++it)
        keys.insert(it.key(), jsonCount(it.value()));
    const SourceStats& s = totals.stats;
    const QJsonObject root{
        {QStringLiteral("listeners"), described},
        {QStringLiteral("seconds"), seconds},
        {QStringLiteral("packets"), jsonCount(s.packets)},
        {QStringLiteral("lines"), jsonCount(s.lines)},
        {QStringLiteral("hits"), jsonCount(s.hits)},
        {QStringLiteral("bad_lines"), jsonCount(s.badLines)},
        {QStringLiteral("ignored"), jsonCount(s.ignoredLines)},
        {QStringLiteral("dropped"), jsonCount(s.dropped)},
        {QStringLiteral("late_hits"), jsonCount(s.lateHits)},
        {QStringLiteral("last_problems"), QJsonArray::fromStringList(problems)},
        {QStringLiteral("keys"), keys},
    };
    QTextStream(stdout) << QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace

int runListen(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Listens for statsd (UDP, TCP) and Graphite plaintext (TCP) until the duration ends or "
        "SIGINT/SIGTERM, then prints what arrived. Without a listener option: --udp "
        "127.0.0.1:8125. HOST:PORT may be [IPv6]:PORT or just PORT (host 127.0.0.1); port 0 "
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

    std::vector<std::unique_ptr<SocketListener>> listeners;
    const auto add = [&](const QString& address, auto make) {
        ListenerOptions o;
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
        if (listeners.empty())
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

    const sigset_t stopSignals = blockStopSignals();
    BatchQueue queue(4096);
    Totals totals;
    try {
        for (const auto& l : listeners) {
            l->start(queue);
            printError(
                QStringLiteral("listening on %1").arg(QString::fromStdString(l->describe())));
        }
    } catch (const SourceError& e) {
        printError(QString::fromStdString(e.what()));
        return kExitFailure;
    }

    const auto started = std::chrono::steady_clock::now();
    while (!stopSignalArrived(stopSignals) &&
           !(runFor && std::chrono::steady_clock::now() - started >= *runFor)) {
        if (auto batch = queue.popFor(20ms))
            consume(*batch, totals, recorder.get());
        if (recorder)
            recorder->flushIfDue(std::chrono::steady_clock::now().time_since_epoch());
    }
    for (const auto& l : listeners)
        l->stop();
    for (const auto& batch : queue.drain())
        consume(batch, totals, recorder.get());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    for (const auto& l : listeners)
        addStats(totals.stats, l->stats());
    // Finished before the report, so a report that cannot be written (a closed pipe, a full
    // disk) never costs the recording.
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
    if (parser.isSet(json))
        printJson(listeners, totals, seconds);
    else
        printText(listeners, totals, seconds);
    if (!recorded.isEmpty())
        printError(recorded);
    return checkedStdout(exitCode);
}

}  // namespace hitcounter::cli
