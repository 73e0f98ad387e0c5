#include "app/cli/redis_cli.h"

#include <unistd.h>
#include <QCoreApplication>
#include <QFile>
#include <cmath>
#include <utility>

#include "app/cli/cli_options.h"
#include "core/fleet/redis_url.h"

namespace hitcounter::cli {

namespace {

using namespace std::chrono_literals;

constexpr auto kDrainTimeout = 5s;
constexpr long long kMaxBufferMiB = 65536;

QString defaultInstanceName() {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    QString name;
    for (const QChar c : QString::fromLocal8Bit(host))
        name += fleet::isValidInstanceName(QString(c).toStdString()) ? c : QChar('-');
    return (name.isEmpty() ? QStringLiteral("host") : name) + QLatin1Char('-') +
           QString::number(::getpid());
}

// The URL of `option`, with its password from --redis-password-file or the environment
// (redis_url.h); a password in the URL itself is taken with a warning (once per process).
std::optional<fleet::RedisUrl> urlFrom(const QCommandLineParser& parser,
                                       const QCommandLineOption& option, int& exit) {
    const std::string text = parser.value(option).toStdString();
    const QCommandLineOption passwordFile = redisPasswordFileOption();
    try {
        const fleet::RedisUrl url = fleet::resolveRedisUrl(
            text, parser.isSet(passwordFile)
                      ? std::optional<std::filesystem::path>(
                            QFile::encodeName(parser.value(passwordFile)).toStdString())
                      : std::nullopt);
        static bool warned = false;
        if (!warned && !fleet::parseRedisUrl(text).password.empty()) {
            warned = true;
            printError(QStringLiteral("warning: the --redis URL carries a password, which every "
                                      "user of this machine can read (ps); give it in %1 or "
                                      "--redis-password-file FILE instead")
                           .arg(QLatin1String(fleet::kRedisPasswordVariable)));
        }
        return url;
    } catch (const fleet::RedisUrlError& e) {
        exit = reportFleetError(e);
        return std::nullopt;
    }
}

}  // namespace

RedisCliOptions::RedisCliOptions()
    : redis(redisUrlOption()),
      passwordFile(redisPasswordFileOption()),
      instance(QStringLiteral("instance"),
               QStringLiteral("With --redis: this instance's name (A-Z a-z 0-9 . _ -; default "
                              "HOST-PID)."),
               QStringLiteral("NAME")),
      flushInterval(QStringLiteral("flush-interval"),
                    QStringLiteral("With --redis: seconds between flushes, 0.05 to 60 "
                                   "(default 1)."),
                    QStringLiteral("S"), QStringLiteral("1")),
      acceptPast(QStringLiteral("accept-past"),
                 QStringLiteral("With --redis: a hit's own time (statsd |T, Graphite) may be up "
                                "to S seconds before now, else the line is bad (default 86400)."),
                 QStringLiteral("S"), QString::number(AcceptedTimes::kDefaultPast)),
      acceptFuture(QStringLiteral("accept-future"),
                   QStringLiteral("With --redis: a hit's own time may be up to S seconds after "
                                  "now, else the line is bad (default 300)."),
                   QStringLiteral("S"), QString::number(AcceptedTimes::kDefaultFuture)),
      buffer(QStringLiteral("redis-buffer"),
             QStringLiteral("With --redis: hold at most MIB MiB (by estimate) of hits not yet "
                            "sent while Redis is slow or down, 1 to 65536; the rest is dropped "
                            "and counted (default 128)."),
             QStringLiteral("MIB"), QString::number(fleet::RedisSinkOptions().bufferBytes >> 20)) {}

QList<QCommandLineOption> RedisCliOptions::all() const {
    return QList<QCommandLineOption>{redis,      passwordFile, instance, flushInterval,
                                     acceptPast, acceptFuture, buffer} +
           hot.all();
}

std::optional<AcceptedTimes> acceptedTimesFrom(const QCommandLineParser& parser,
                                               const RedisCliOptions& options) {
    const auto past = wholeNumberFrom(parser, options.acceptPast, 0, AcceptedTimes::kMaxAcceptance);
    const auto future =
        wholeNumberFrom(parser, options.acceptFuture, 0, AcceptedTimes::kMaxAcceptance);
    if (!past || !future)
        return std::nullopt;
    return AcceptedTimes{Timestamp(*past), Timestamp(*future)};
}

HotCliOptions::HotCliOptions()
    : shards(QStringLiteral("hot-shards"),
             QStringLiteral("With --redis: split a hot item over N sub-keys in other slots, 1 "
                            "to 1024, or off (default 16; docs/redis.md)."),
             QStringLiteral("N"), QStringLiteral("16")),
      writes(QStringLiteral("hot-writes"),
             QStringLiteral("With --redis: an item written this many times in one second by "
                            "the whole fleet is hot, 0 (only --hot-items) to 1000000 (default "
                            "100)."),
             QStringLiteral("W"), QStringLiteral("100")),
      items(QStringLiteral("hot-items"),
            QStringLiteral("With --redis: items always split (comma-separated; repeatable)."),
            QStringLiteral("LIST")) {}

std::optional<HotSettings> hotSettingsFrom(const QCommandLineParser& parser,
                                           const HotCliOptions& options) {
    HotSettings hot;
    std::optional<long long> shards = 0;
    if (parser.value(options.shards) != QLatin1String("off"))
        shards = wholeNumberFrom(parser, options.shards, 1, 1024);
    const auto writes = numberFrom(parser, options.writes, 0, 1e6);
    if (!shards || !writes)
        return std::nullopt;
    hot.shards = int(*shards);
    hot.writes = *writes;
    for (const QString& list : parser.values(options.items))
        for (const QString& item : list.split(QLatin1Char(','))) {
            if (item.isEmpty() || item.size() > 1000 || item.contains(QChar(0x1f))) {
                printError(QStringLiteral("--hot-items '%1': an item must be 1 to 1000 "
                                          "characters, without the byte 0x1F")
                               .arg(list));
                return std::nullopt;
            }
            hot.pinned.insert(item.toStdString());
        }
    if (!hot.pinned.empty() && hot.shards == 0) {
        printError(QStringLiteral("--hot-items needs --hot-shards other than off"));
        return std::nullopt;
    }
    return hot;
}

QCommandLineOption redisUrlOption() {
    return QCommandLineOption(
        QStringLiteral("redis"),
        QStringLiteral("The fleet's Redis: redis://[USER@]HOST:PORT[/DB]; its password from "
                       "--redis-password-file or %1 (docs/redis.md).")
            .arg(QLatin1String(fleet::kRedisPasswordVariable)),
        QStringLiteral("URL"));
}

QCommandLineOption redisPasswordFileOption() {
    return QCommandLineOption(QStringLiteral("redis-password-file"),
                              QStringLiteral("With --redis: read the password from the first "
                                             "line of FILE (keep it mode 0600)."),
                              QStringLiteral("FILE"));
}

int reportFleetError(const std::exception& error) {
    printError(QString::fromStdString(error.what()));
    if (dynamic_cast<const fleet::RedisUrlError*>(&error))
        return kExitBadInput;
    if (const auto* redis = dynamic_cast<const fleet::RedisError*>(&error))
        return redis->kind() == fleet::RedisError::Kind::Rejected ? kExitBadInput : kExitFailure;
    return kExitFailure;
}

std::unique_ptr<fleet::RedisClient> connectRedis(const QCommandLineParser& parser,
                                                 const QCommandLineOption& option, int& exit) {
    if (!parser.isSet(option)) {
        printError(QStringLiteral("--redis URL is required"));
        exit = kExitBadInput;
        return nullptr;
    }
    const auto url = urlFrom(parser, option, exit);
    if (!url)
        return nullptr;
    try {
        return std::make_unique<fleet::RedisClient>(*url);
    } catch (const fleet::RedisError& e) {
        exit = reportFleetError(e);
        return nullptr;
    }
}

bool checkFleetValues(const QCommandLineParser& parser, const RedisCliOptions& options) {
    int exit = kExitOk;
    const bool url = !parser.isSet(options.redis) || urlFrom(parser, options.redis, exit);
    const bool interval =
        !parser.isSet(options.flushInterval) || numberFrom(parser, options.flushInterval, 0.05, 60);
    const bool hot = hotSettingsFrom(parser, options.hot).has_value();
    const bool times = acceptedTimesFrom(parser, options).has_value();
    const bool buffer = wholeNumberFrom(parser, options.buffer, 1, kMaxBufferMiB).has_value();
    bool instance = true;
    if (parser.isSet(options.instance) &&
        !fleet::isValidInstanceName(parser.value(options.instance).toStdString())) {
        printError(QStringLiteral("--instance '%1' is not a name; expected 1 to 128 of "
                                  "A-Z a-z 0-9 . _ -")
                       .arg(parser.value(options.instance)));
        instance = false;
    }
    return url && interval && hot && times && buffer && instance;
}

FleetSink startFleetSink(const QCommandLineParser& parser, const RedisCliOptions& options) {
    FleetSink result;
    if (!parser.isSet(options.redis)) {
        for (const auto& o : options.all().mid(1))
            if (parser.isSet(o)) {
                printError(QStringLiteral("--%1 needs --redis URL").arg(o.names().first()));
                result.exit = kExitBadInput;
            }
        return result;
    }
    if (!checkFleetValues(parser, options)) {
        result.exit = kExitBadInput;
        return result;
    }
    int exit = kExitOk;
    fleet::RedisSinkOptions o;
    const auto url = urlFrom(parser, options.redis, exit);
    const auto interval = numberFrom(parser, options.flushInterval, 0.05, 60);
    const auto hot = hotSettingsFrom(parser, options.hot);
    o.instance =
        (parser.isSet(options.instance) ? parser.value(options.instance) : defaultInstanceName())
            .toStdString();
    o.url = *url;
    o.version = QCoreApplication::applicationVersion().toStdString();
    o.flushInterval = std::chrono::milliseconds(std::llround(*interval * 1000));
    o.hotShards = hot->shards;
    o.hotWrites = hot->writes;
    o.hotPinned = hot->pinned;
    o.hotShare = 0;  // split by the fleet's write rate (and the pins), not one instance's share
    o.acceptedTimes = *acceptedTimesFrom(parser, options);
    o.bufferBytes = std::size_t(*wholeNumberFrom(parser, options.buffer, 1, kMaxBufferMiB)) << 20;
    // Once per outage and once at its end (on the flush thread: one line each).
    o.onOutage = [](const fleet::OutageNotice& n) {
        if (n.down)
            printError(QStringLiteral("redis: cannot write (%1); %2 hit(s) held, retrying")
                           .arg(QString::fromStdString(n.error))
                           .arg(n.bufferedHits));
        else
            printError(QStringLiteral("redis: writing again after %1 s (%2 failed attempt(s)); "
                                      "%3 hit(s) held meanwhile sent or queued, %4 dropped")
                           .arg(n.seconds, 0, 'f', 1)
                           .arg(n.failedAttempts)
                           .arg(n.bufferedHits)
                           .arg(n.droppedHits));
    };
    // The first refusal in full; the others are counted in the report (refused_hits).
    o.onRefused = [printed = false](const fleet::RefusedNotice& n) mutable {
        if (std::exchange(printed, true))
            return;
        printError(QStringLiteral("redis: a flush was refused and will not be resent (%1); %2 "
                                  "hit(s) not counted; further refusals are only counted "
                                  "(refused_hits in the report)")
                       .arg(QString::fromStdString(n.error))
                       .arg(n.hits));
    };
    try {
        auto connection = std::make_unique<fleet::RedisClient>(o.url, o.timeouts);
        result.sink = std::make_unique<fleet::RedisSink>(o, std::move(connection));
    } catch (const std::exception& e) {
        result.exit = reportFleetError(e);
        return result;
    }
    printError(
        QStringLiteral("flushing to %1%3 as instance %2")
            .arg(QString::fromStdString(o.url.describe()), QString::fromStdString(o.instance),
                 result.sink->stats().cluster ? QStringLiteral(" (Redis Cluster)") : QString()));
    return result;
}

QJsonObject stopFleetSink(fleet::RedisSink& sink) {
    sink.stop(kDrainTimeout);
    const fleet::RedisSinkStats s = sink.stats();
    if (s.droppedHits > 0)
        printError(QStringLiteral("redis: %1 hit(s) could not be sent and were dropped (last "
                                  "error: %2)")
                       .arg(s.droppedHits)
                       .arg(QString::fromStdString(s.lastError)));
    if (s.refusedFlushes > 0)
        printError(QStringLiteral("redis: %1 flush(es) refused, %2 hit(s) not counted")
                       .arg(s.refusedFlushes)
                       .arg(s.refusedHits));
    if (s.outOfWindowHits > 0)
        printError(QStringLiteral("redis: %1 hit(s) had a time outside the accepted window "
                                  "(--accept-past, --accept-future) and were not sent")
                       .arg(s.outOfWindowHits));
    QJsonObject perNode;
    for (const auto& [node, commands] : s.commandsPerNode)
        perNode.insert(QString::fromStdString(node), jsonCount(commands));
    return QJsonObject{
        {QStringLiteral("flushes"), jsonCount(s.flushes)},
        {QStringLiteral("commands"), jsonCount(s.commands)},
        {QStringLiteral("retries"), jsonCount(s.retries)},
        {QStringLiteral("dropped_hits"), jsonCount(s.droppedHits)},
        {QStringLiteral("out_of_window_hits"), jsonCount(s.outOfWindowHits)},
        {QStringLiteral("refused_flushes"), jsonCount(s.refusedFlushes)},
        {QStringLiteral("refused_hits"), jsonCount(s.refusedHits)},
        {QStringLiteral("flush_bytes"), jsonCount(s.flushBytes)},
        {QStringLiteral("lag_seconds"), s.lagSeconds},
        {QStringLiteral("connected"), s.connected},
        {QStringLiteral("sent_hits"), jsonCount(s.sentHits)},
        {QStringLiteral("duplicates_skipped"), jsonCount(s.duplicatesSkipped)},
        {QStringLiteral("run"), QString::fromStdString(sink.run())},
        {QStringLiteral("last_error"), QString::fromStdString(s.lastError)},
        {QStringLiteral("cluster"), s.cluster},
        {QStringLiteral("moved"), jsonCount(s.moved)},
        {QStringLiteral("ask"), jsonCount(s.ask)},
        {QStringLiteral("unreplicated_acks"), jsonCount(s.unreplicatedAcks)},
        {QStringLiteral("hot_items"), jsonCount(s.hotItems)},
        {QStringLiteral("hot_items_now"), jsonCount(s.hotItemsNow)},
        {QStringLiteral("hot_merges"), jsonCount(s.hotMerges)},
        {QStringLiteral("commands_per_node"), perNode},
    };
}

}  // namespace hitcounter::cli
