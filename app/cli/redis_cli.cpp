#include "app/cli/redis_cli.h"

#include <unistd.h>
#include <QCoreApplication>
#include <cmath>

#include "app/cli/cli_options.h"
#include "core/fleet/redis_url.h"

namespace hitcounter::cli {

namespace {

using namespace std::chrono_literals;

constexpr auto kDrainTimeout = 5s;

QString defaultInstanceName() {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    QString name;
    for (const QChar c : QString::fromLocal8Bit(host))
        name += fleet::isValidInstanceName(QString(c).toStdString()) ? c : QChar('-');
    return (name.isEmpty() ? QStringLiteral("host") : name) + QLatin1Char('-') +
           QString::number(::getpid());
}

std::optional<fleet::RedisUrl> urlFrom(const QString& text, int& exit) {
    try {
        return fleet::parseRedisUrl(text.toStdString());
    } catch (const fleet::RedisUrlError& e) {
        exit = reportFleetError(e);
        return std::nullopt;
    }
}

}  // namespace

RedisCliOptions::RedisCliOptions()
    : redis(redisUrlOption()),
      instance(QStringLiteral("instance"),
               QStringLiteral("With --redis: this instance's name (A-Z a-z 0-9 . _ -; default "
                              "HOST-PID)."),
               QStringLiteral("NAME")),
      flushInterval(QStringLiteral("flush-interval"),
                    QStringLiteral("With --redis: seconds between flushes, 0.05 to 60 "
                                   "(default 1)."),
                    QStringLiteral("S"), QStringLiteral("1")),
      hotShards(QStringLiteral("hot-shards"),
                QStringLiteral("With --redis: split an item holding half of a flush's hits (and "
                               "at least 1000) over N sub-keys in other slots, 1 to 1024 "
                               "(default 0: never; docs/redis.md)."),
                QStringLiteral("N"), QStringLiteral("0")) {}

QList<QCommandLineOption> RedisCliOptions::all() const {
    return {redis, instance, flushInterval, hotShards};
}

QCommandLineOption redisUrlOption() {
    return QCommandLineOption(
        QStringLiteral("redis"),
        QStringLiteral("The fleet's Redis: redis://HOST:PORT[/DB] or redis://:PASSWORD@HOST:PORT "
                       "(docs/redis.md)."),
        QStringLiteral("URL"));
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
    const auto url = urlFrom(parser.value(option), exit);
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
    const bool url = !parser.isSet(options.redis) || urlFrom(parser.value(options.redis), exit);
    const bool interval =
        !parser.isSet(options.flushInterval) || numberFrom(parser, options.flushInterval, 0.05, 60);
    const bool shards =
        !parser.isSet(options.hotShards) || wholeNumberFrom(parser, options.hotShards, 1, 1024);
    bool instance = true;
    if (parser.isSet(options.instance) &&
        !fleet::isValidInstanceName(parser.value(options.instance).toStdString())) {
        printError(QStringLiteral("--instance '%1' is not a name; expected 1 to 128 of "
                                  "A-Z a-z 0-9 . _ -")
                       .arg(parser.value(options.instance)));
        instance = false;
    }
    return url && interval && shards && instance;
}

FleetSink startFleetSink(const QCommandLineParser& parser, const RedisCliOptions& options) {
    FleetSink result;
    if (!parser.isSet(options.redis)) {
        for (const auto& o : {options.instance, options.flushInterval, options.hotShards})
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
    const auto url = urlFrom(parser.value(options.redis), exit);
    const auto interval = numberFrom(parser, options.flushInterval, 0.05, 60);
    const auto shards = parser.isSet(options.hotShards)
                            ? wholeNumberFrom(parser, options.hotShards, 1, 1024)
                            : std::optional<long long>(0);
    o.instance =
        (parser.isSet(options.instance) ? parser.value(options.instance) : defaultInstanceName())
            .toStdString();
    o.url = *url;
    o.version = QCoreApplication::applicationVersion().toStdString();
    o.flushInterval = std::chrono::milliseconds(std::llround(*interval * 1000));
    o.hotShards = int(*shards);
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
    QJsonObject perNode;
    for (const auto& [node, commands] : s.commandsPerNode)
        perNode.insert(QString::fromStdString(node), jsonCount(commands));
    return QJsonObject{
        {QStringLiteral("flushes"), jsonCount(s.flushes)},
        {QStringLiteral("commands"), jsonCount(s.commands)},
        {QStringLiteral("retries"), jsonCount(s.retries)},
        {QStringLiteral("dropped_hits"), jsonCount(s.droppedHits)},
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
        {QStringLiteral("commands_per_node"), perNode},
    };
}

}  // namespace hitcounter::cli
