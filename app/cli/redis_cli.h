// Fleet mode on the command line: the --redis/--instance/--flush-interval options shared by
// the commands that feed Redis (listen, simulate), the connection for the commands that read
// it (query, rebuild), and the "redis" part of their reports.
//
// Threading: main thread only. Exit codes follow cli_options.h: a malformed URL, instance or
// interval, a wrong password or a refused database are bad input (kExitBadInput); a server
// that cannot be reached or fails mid-way is the environment (kExitFailure). Every error is
// one line on stderr, never with the password; connects and commands are bounded by timeouts,
// nothing hangs.
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonObject>
#include <QList>
#include <exception>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "core/base/accepted_times.h"
#include "core/fleet/redis_client.h"
#include "core/fleet/redis_sink.h"

namespace hitcounter::cli {

// --hot-shards N|off, --hot-writes W, --hot-items LIST: how hot items are split
// (docs/redis.md, "Hot items"); shared by listen, simulate and fleet-sim.
struct HotCliOptions {
    HotCliOptions();
    QList<QCommandLineOption> all() const { return {shards, writes, items}; }

    QCommandLineOption shards;
    QCommandLineOption writes;
    QCommandLineOption items;
};

struct HotSettings {
    int shards = 16;  // 0: off
    double writes = 100;
    std::set<std::string> pinned;
};

// The hot-item options' values, or std::nullopt after naming a bad one.
std::optional<HotSettings> hotSettingsFrom(const QCommandLineParser& parser,
                                           const HotCliOptions& options);

struct RedisCliOptions {
    RedisCliOptions();
    QList<QCommandLineOption> all() const;

    QCommandLineOption redis;
    QCommandLineOption passwordFile;
    QCommandLineOption instance;
    QCommandLineOption flushInterval;
    QCommandLineOption acceptPast;
    QCommandLineOption acceptFuture;
    QCommandLineOption buffer;
    HotCliOptions hot;
};

// --accept-past S, --accept-future S: the hit times sent to Redis (docs/redis.md, "Accepted
// times"), or std::nullopt after naming a bad value.
std::optional<AcceptedTimes> acceptedTimesFrom(const QCommandLineParser& parser,
                                               const RedisCliOptions& options);

// The --redis option alone, for query and rebuild.
QCommandLineOption redisUrlOption();
// --redis-password-file FILE; every command with --redis adds it (urlFrom reads it).
QCommandLineOption redisPasswordFileOption();

struct FleetSink {
    std::unique_ptr<fleet::RedisSink> sink;  // null without --redis, or after an error
    std::optional<int> exit;                 // set: the command must end with this code
};

// Checks the values of the fleet options given (the URL's form, the instance name, the
// interval and shard ranges) without connecting and without requiring --redis (listen
// --config checks each key of its file alone); false after naming each problem.
bool checkFleetValues(const QCommandLineParser& parser, const RedisCliOptions& options);

// Without --redis: an empty FleetSink. With it: checks the options, connects (bounded),
// prints "flushing to URL as instance NAME" on stderr and starts the sink.
FleetSink startFleetSink(const QCommandLineParser& parser, const RedisCliOptions& options);

// Connects to the URL of `option` (required); on failure prints the error and sets `exit`.
std::unique_ptr<fleet::RedisClient> connectRedis(const QCommandLineParser& parser,
                                                 const QCommandLineOption& option, int& exit);

// Prints the error (RedisUrlError, RedisError, anything else) and returns its exit code.
int reportFleetError(const std::exception& error);

// Stops the sink (flushing what it holds, bounded) and returns its final counters as
// {"flushes", "commands", "retries", "dropped_hits", "lag_seconds", "connected", ...}.
QJsonObject stopFleetSink(fleet::RedisSink& sink);

}  // namespace hitcounter::cli
