// hitcounter-cli fleet-sim: a fleet of instances simulated on this machine against a real
// Redis or Redis Cluster, and what it cost Redis (docs/redis.md, "Fleet simulation").
#include <sys/resource.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <chrono>
#include <cmath>
#include <variant>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/redis_cli.h"
#include "app/cli/stop_signals.h"
#include "core/fleet/fleet_sim.h"
#include "core/fleet/redis_url.h"

namespace hitcounter::cli {

namespace {

using fleet::FleetSimOptions;
using fleet::FleetSimReport;

// How many of the busiest keys the report lists.
constexpr std::size_t kKeysShown = 20;

struct FleetSimCliOptions {
    QCommandLineOption redis = redisUrlOption();
    QCommandLineOption instances{QStringLiteral("instances"),
                                 QStringLiteral("Instances (web servers), 1 to 10000 "
                                                "(default 200)."),
                                 QStringLiteral("N"), QStringLiteral("200")};
    QCommandLineOption rate{QStringLiteral("rate"),
                            QStringLiteral("Hits per second over the whole fleet (default "
                                           "35000)."),
                            QStringLiteral("R"), QStringLiteral("35000")};
    QCommandLineOption viralKey{QStringLiteral("viral-key"),
                                QStringLiteral("One key taking --viral-rate of the hits."),
                                QStringLiteral("KEY")};
    QCommandLineOption viralRate{QStringLiteral("viral-rate"),
                                 QStringLiteral("Hits per second of the viral key, at most "
                                                "--rate (default 10000)."),
                                 QStringLiteral("V"), QStringLiteral("10000")};
    QCommandLineOption items{QStringLiteral("items"),
                             QStringLiteral("The other keys: a catalogue of M keys with Zipf "
                                            "popularity, 1 to 1000000 (default 1000)."),
                             QStringLiteral("M"), QStringLiteral("1000")};
    QCommandLineOption zipf{QStringLiteral("zipf"),
                            QStringLiteral("The catalogue's Zipf exponent, 0 (uniform) to 10 "
                                           "(default 1)."),
                            QStringLiteral("S"), QStringLiteral("1")};
    QCommandLineOption visitors{QStringLiteral("visitors"),
                                QStringLiteral("Visitors each hit draws from, 1 to 4294967295 "
                                               "(default 1000000)."),
                                QStringLiteral("V"), QStringLiteral("1000000")};
    QCommandLineOption keyPrefix{QStringLiteral("key-prefix"),
                                 QStringLiteral("Catalogue keys are PREFIX1 .. PREFIXM (default "
                                                "sim.)."),
                                 QStringLiteral("PREFIX"), QStringLiteral("sim.")};
    QCommandLineOption instancePrefix{
        QStringLiteral("instance-prefix"),
        QStringLiteral("Instances are named NAME-1 .. NAME-N (default sim)."),
        QStringLiteral("NAME"), QStringLiteral("sim")};
    QCommandLineOption duration{QStringLiteral("duration"),
                                QStringLiteral("Seconds of traffic, 1 to 540 (default 10)."),
                                QStringLiteral("S"), QStringLiteral("10")};
    QCommandLineOption flushInterval{QStringLiteral("flush-interval"),
                                     QStringLiteral("Seconds between an instance's flushes, "
                                                    "0.05 to 60 (default 1)."),
                                     QStringLiteral("S"), QStringLiteral("1")};
    QCommandLineOption seed{QStringLiteral("seed"),
                            QStringLiteral("The traffic's seed (default 1)."), QStringLiteral("N"),
                            QStringLiteral("1")};
    QCommandLineOption top{QStringLiteral("top"),
                           QStringLiteral("Check the top K read back, 1 to 10000 (default 10)."),
                           QStringLiteral("K"), QStringLiteral("10")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print one JSON object.")};
    HotCliOptions hot;

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Runs a fleet of independent instances on this machine (each its own aggregation, "
            "Redis sink, run id and flush schedule) with the design's traffic: --rate hits/s "
            "over a Zipf catalogue, --viral-rate of them on --viral-key, spread over the "
            "instances; then reads the counts back and reports writes per key per second, "
            "commands per node, flush lag, and the count read back against what was sent. "
            "Exit code 1 when they differ. See docs/redis.md."));
        parser.addOptions({redis, instances, rate, viralKey, viralRate, items, zipf, visitors,
                           keyPrefix, instancePrefix, duration, flushInterval, seed, top, json});
        parser.addOptions(hot.all());
    }
};

std::variant<FleetSimOptions, int> parseFleetSim(QCommandLineParser& parser,
                                                 const FleetSimCliOptions& options,
                                                 const QStringList& arguments) {
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("fleet-sim takes no arguments besides options; got '%1'")
                       .arg(parser.positionalArguments().first()));
        return kExitBadInput;
    }
    if (!parser.isSet(options.redis)) {
        printError(QStringLiteral("--redis URL is required"));
        return kExitBadInput;
    }
    const auto instances = wholeNumberFrom(parser, options.instances, 1, 10000);
    const auto rate = numberFrom(parser, options.rate, 0, 1e7);
    const auto viralRate = numberFrom(parser, options.viralRate, 0, 1e7);
    const auto items = wholeNumberFrom(parser, options.items, 1, 1'000'000);
    const auto zipf = numberFrom(parser, options.zipf, 0, 10);
    const auto visitors = wholeNumberFrom(parser, options.visitors, 1, 4294967295LL);
    const auto seconds =
        wholeNumberFrom(parser, options.duration, 1, fleet::FleetSimulation::kMaxDuration.count());
    const auto interval = numberFrom(parser, options.flushInterval, 0.05, 60);
    const auto seed = wholeNumberFrom(parser, options.seed, 0, 1LL << 62);
    const auto top = wholeNumberFrom(parser, options.top, 1, 10000);
    const auto hot = hotSettingsFrom(parser, options.hot);
    if (!instances || !rate || !viralRate || !items || !zipf || !visitors || !seconds ||
        !interval || !seed || !top || !hot)
        return kExitBadInput;
    FleetSimOptions o;
    try {
        o.url = fleet::resolveRedisUrl(parser.value(options.redis).toStdString());
    } catch (const fleet::RedisUrlError& e) {
        return reportFleetError(e);
    }
    const bool viral = parser.isSet(options.viralKey);
    if (!viral && parser.isSet(options.viralRate)) {
        printError(QStringLiteral("--viral-rate needs --viral-key KEY"));
        return kExitBadInput;
    }
    if (viral && *viralRate > *rate) {
        printError(QStringLiteral("--viral-rate %1 is above --rate %2").arg(*viralRate).arg(*rate));
        return kExitBadInput;
    }
    o.traffic = {.instances = int(*instances),
                 .rate = *rate,
                 .viralKey = viral ? parser.value(options.viralKey).toStdString() : std::string(),
                 .viralRate = viral ? *viralRate : 0,
                 .items = std::uint32_t(*items),
                 .zipf = *zipf,
                 .visitors = std::uint32_t(*visitors),
                 .prefix = parser.value(options.keyPrefix).toStdString(),
                 .seed = std::uint64_t(*seed)};
    o.duration = std::chrono::seconds(*seconds);
    o.flushInterval = std::chrono::milliseconds(std::llround(*interval * 1000));
    o.hotShards = hot->shards;
    o.hotWrites = hot->writes;
    o.hotPinned = hot->pinned;
    o.instancePrefix = parser.value(options.instancePrefix).toStdString();
    o.topK = std::size_t(*top);
    return o;
}

// Every instance holds a connection per master: lift the soft limit on open files.
void allowManyConnections() {
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
}

QJsonArray rankedJson(const std::vector<fleet::RankedItem>& items) {
    QJsonArray array;
    for (const auto& item : items)
        array.append(QJsonObject{{QStringLiteral("key"), QString::fromStdString(item.key)},
                                 {QStringLiteral("count"), jsonCount(item.count)}});
    return array;
}

bool sameTop(const FleetSimReport& r) {
    if (r.truthTop.size() != r.readTop.size())
        return false;
    for (std::size_t i = 0; i < r.truthTop.size(); ++i)
        if (r.truthTop[i].key != r.readTop[i].key || r.truthTop[i].count != r.readTop[i].count)
            return false;
    return true;
}

double uniquesError(const FleetSimReport& r) {
    return r.viralUniques == 0
               ? 0
               : (double(r.viralUniquesRead) - double(r.viralUniques)) / double(r.viralUniques);
}

QJsonObject reportJson(const FleetSimOptions& o, const FleetSimReport& r) {
    QJsonObject perNode;
    for (const fleet::NodeLoad& n : r.nodes) {
        const auto& c = n.commands;
        perNode.insert(
            QString::fromStdString(n.address),
            QJsonObject{
                {QStringLiteral("commands"), jsonCount(c.commands)},
                {QStringLiteral("settled_commands"), jsonCount(c.settledCommands)},
                {QStringLiteral("role"), QString::fromStdString(n.role)},
                {QStringLiteral("commands_per_second"),
                 QJsonObject{{QStringLiteral("max"), jsonCount(c.maxPerSecond)},
                             {QStringLiteral("p99"), jsonCount(c.p99PerSecond)}}},
                {QStringLiteral("commands_per_flush"),
                 QJsonObject{{QStringLiteral("mean"),
                              c.flushParts ? double(c.commands) / double(c.flushParts) : 0.0},
                             {QStringLiteral("max"), jsonCount(c.maxPerFlush)}}},
                {QStringLiteral("calls"), jsonCount(n.calls)},
                {QStringLiteral("cpu_seconds"), n.cpuSeconds},
            });
    }
    QJsonArray keys;
    for (std::size_t i = 0; i < std::min(r.tally.keys.size(), kKeysShown); ++i) {
        const auto& k = r.tally.keys[i];
        keys.append(
            QJsonObject{{QStringLiteral("key"), QString::fromStdString(k.tag)},
                        {QStringLiteral("writes"), jsonCount(k.writes)},
                        {QStringLiteral("max_per_second"), jsonCount(k.maxPerSecond)},
                        {QStringLiteral("p99_per_second"), jsonCount(k.p99PerSecond)},
                        {QStringLiteral("median_per_second"), jsonCount(k.medianPerSecond)}});
    }
    QJsonObject root{
        {QStringLiteral("sent"), jsonCount(r.sent)},
        {QStringLiteral("global_count"), jsonCount(r.globalCount)},
        {QStringLiteral("max_writes_per_key_per_second"),
         jsonCount(r.tally.maxWritesPerKeyPerSecond)},
        {QStringLiteral("per_node"), perNode},
        {QStringLiteral("exact"), r.globalCount == r.sent},
        {QStringLiteral("instances"), r.instances},
        {QStringLiteral("rate"), o.traffic.rate},
        {QStringLiteral("duration_seconds"), r.wallSeconds},
        {QStringLiteral("flush_interval_seconds"), double(o.flushInterval.count()) / 1000},
        {QStringLiteral("cluster"), r.cluster},
        {QStringLiteral("first_second"), qint64(r.firstSecond)},
        {QStringLiteral("last_second"), qint64(r.lastSecond)},
        {QStringLiteral("acknowledged"), jsonCount(r.acknowledged)},
        {QStringLiteral("dropped_hits"), jsonCount(r.dropped)},
        {QStringLiteral("fleet_total"), jsonCount(r.fleetTotal)},
        {QStringLiteral("flushes"), jsonCount(r.tally.flushes)},
        {QStringLiteral("retries"), jsonCount(r.retries)},
        {QStringLiteral("unreplicated_acks"), jsonCount(r.unreplicatedAcks)},
        {QStringLiteral("moved"), jsonCount(r.moved)},
        {QStringLiteral("flush_lag_seconds"),
         QJsonObject{{QStringLiteral("median"), r.tally.lagMedian},
                     {QStringLiteral("p99"), r.tally.lagP99},
                     {QStringLiteral("max"), r.tally.lagMax}}},
        {QStringLiteral("keys"), keys},
        {QStringLiteral("hot_shards"), o.hotShards},
        {QStringLiteral("hot_items_split"), qint64(r.tally.splitItems)},
        {QStringLiteral("node_balance"), r.nodeBalance},
        {QStringLiteral("settled_node_balance"), r.settledNodeBalance},
        {QStringLiteral("settled_from_second"), qint64(r.tally.settledFrom)},
        {QStringLiteral("top"), rankedJson(r.truthTop)},
        {QStringLiteral("top_read"), rankedJson(r.readTop)},
        {QStringLiteral("top_exact"), sameTop(r)},
    };
    if (!r.viralKey.empty()) {
        // The viral key's own writes, and its sub-items' (the busiest of them).
        const std::string subPrefix = r.viralKey + '\x1f';
        fleet::KeyWriteStats own, subs;
        int subItems = 0;
        for (const auto& k : r.tally.keys) {
            if (k.tag == r.viralKey) {
                own = k;
            } else if (k.tag.starts_with(subPrefix)) {
                ++subItems;
                subs.maxPerSecond = std::max(subs.maxPerSecond, k.maxPerSecond);
                subs.p99PerSecond = std::max(subs.p99PerSecond, k.p99PerSecond);
                subs.medianPerSecond = std::max(subs.medianPerSecond, k.medianPerSecond);
            }
        }
        const auto perSecond = [](const fleet::KeyWriteStats& k) {
            return QJsonObject{{QStringLiteral("max"), jsonCount(k.maxPerSecond)},
                               {QStringLiteral("p99"), jsonCount(k.p99PerSecond)},
                               {QStringLiteral("median"), jsonCount(k.medianPerSecond)}};
        };
        root.insert(QStringLiteral("viral"),
                    QJsonObject{{QStringLiteral("key"), QString::fromStdString(r.viralKey)},
                                {QStringLiteral("sent"), jsonCount(r.viralSent)},
                                {QStringLiteral("read"), jsonCount(r.viralRead)},
                                {QStringLiteral("uniques_exact"), qint64(r.viralUniques)},
                                {QStringLiteral("uniques_read"), jsonCount(r.viralUniquesRead)},
                                {QStringLiteral("uniques_error"), uniquesError(r)},
                                {QStringLiteral("writes_per_second"), perSecond(own)},
                                {QStringLiteral("sub_items"), subItems},
                                {QStringLiteral("sub_item_writes_per_second"), perSecond(subs)}});
    }
    return root;
}

// Sub-items shown as ITEM#K (their separator is a control byte).
QString tagText(const std::string& tag) {
    return QString::fromStdString(tag).replace(QChar(0x1f), QLatin1Char('#'));
}

void printText(const FleetSimOptions& o, const FleetSimReport& r) {
    QTextStream out(stdout);
    out << "fleet-sim: " << r.instances << " instances, " << o.traffic.rate << " hits/s";
    if (!r.viralKey.empty())
        out << " (" << o.traffic.viralRate << " on " << QString::fromStdString(r.viralKey) << ")";
    out << " for " << r.wallSeconds << " s, " << (r.cluster ? "Redis Cluster" : "one Redis")
        << ", hot splitting " << (o.hotShards > 0 ? QString::number(o.hotShards) : "off") << '\n';
    out << "sent " << r.sent << " hits, read back " << r.globalCount
        << (r.globalCount == r.sent ? " (exact)" : " (DIFFERENT)") << ", fleet total "
        << r.fleetTotal << ", dropped " << r.dropped << '\n';
    out << "writes per key per second: max " << r.tally.maxWritesPerKeyPerSecond << " ("
        << r.tally.splitItems << " item(s) split); busiest keys:\n";
    out << "  key,writes,max_per_s,p99_per_s,median_per_s\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(r.tally.keys.size(), 10); ++i) {
        const auto& k = r.tally.keys[i];
        out << "  " << tagText(k.tag) << ',' << k.writes << ',' << k.maxPerSecond << ','
            << k.p99PerSecond << ',' << k.medianPerSecond << '\n';
    }
    out << "nodes (busiest master / quietest: " << QString::number(r.nodeBalance, 'f', 2)
        << ", once every split settled: " << QString::number(r.settledNodeBalance, 'f', 2)
        << "):\n  node,role,commands,max_per_s,p99_per_s,per_flush,calls,cpu_s\n";
    for (const fleet::NodeLoad& n : r.nodes) {
        const auto& c = n.commands;
        out << "  " << QString::fromStdString(n.address) << ',' << QString::fromStdString(n.role)
            << ',' << c.commands << ',' << c.maxPerSecond << ',' << c.p99PerSecond << ','
            << QString::number(c.flushParts ? double(c.commands) / double(c.flushParts) : 0, 'f', 1)
            << ',' << n.calls << ',' << QString::number(n.cpuSeconds, 'f', 2) << '\n';
    }
    out << "flush lag: median " << QString::number(r.tally.lagMedian, 'f', 3) << " s, p99 "
        << QString::number(r.tally.lagP99, 'f', 3) << " s, max "
        << QString::number(r.tally.lagMax, 'f', 3) << " s; " << r.tally.flushes << " flushes, "
        << r.retries << " retries, " << r.unreplicatedAcks << " unreplicated acks, " << r.moved
        << " MOVED\n";
    out << "top " << r.truthTop.size() << " read back: "
        << (sameTop(r) ? "identical to what was sent" : "DIFFERENT from what was sent") << '\n';
    if (!r.viralKey.empty())
        out << "viral key: sent " << r.viralSent << ", read " << r.viralRead << "; uniques "
            << r.viralUniques << ", HyperLogLog " << r.viralUniquesRead << " ("
            << QString::number(100 * uniquesError(r), 'f', 2) << " %)\n";
}

}  // namespace

int runFleetSim(const QStringList& arguments) {
    QCommandLineParser parser;
    const FleetSimCliOptions options;
    options.addTo(parser);
    const auto parsed = parseFleetSim(parser, options, arguments);
    if (const int* exit = std::get_if<int>(&parsed))
        return *exit;
    const FleetSimOptions& o = std::get<FleetSimOptions>(parsed);
    allowManyConnections();
    const sigset_t stopSignals = blockStopSignals();  // before any sink's thread starts
    FleetSimReport report;
    try {
        fleet::FleetSimulation sim(o);
        printError(QStringLiteral("starting %1 instances on %2")
                       .arg(o.traffic.instances)
                       .arg(QString::fromStdString(o.url.describe())));
        report = sim.run(
            [&](const fleet::FleetSimProgress& p) {
                printError(QStringLiteral("%1/%2 s, %3 hits sent, %4 flushes")
                               .arg(std::llround(p.elapsedSeconds))
                               .arg(o.duration.count())
                               .arg(p.sent)
                               .arg(p.flushes));
            },
            [&] { return stopSignalArrived(stopSignals) != 0; });
    } catch (const std::invalid_argument& e) {
        printError(QString::fromStdString(e.what()));
        return kExitBadInput;
    } catch (const std::exception& e) {
        return reportFleetError(e);
    }
    if (parser.isSet(options.json))
        QTextStream(stdout) << QJsonDocument(reportJson(o, report)).toJson(QJsonDocument::Indented);
    else
        printText(o, report);
    if (report.globalCount != report.sent) {
        printError(QStringLiteral("read back %1 hits of the %2 sent (%3 dropped)")
                       .arg(report.globalCount)
                       .arg(report.sent)
                       .arg(report.dropped));
        return checkedStdout(kExitFailure);
    }
    return checkedStdout();
}

}  // namespace hitcounter::cli
