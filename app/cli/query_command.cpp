// hitcounter-cli query: the fleet's counts, read from Redis (docs/redis.md).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <chrono>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/redis_cli.h"
#include "core/fleet/fleet_keys.h"
#include "core/fleet/fleet_reader.h"

namespace hitcounter::cli {

namespace {

QJsonArray jsonStrings(const std::vector<std::string>& values) {
    QJsonArray array;
    for (const std::string& v : values)
        array.append(QString::fromStdString(v));
    return array;
}

void printItem(const fleet::ItemAnswer& a, Timestamp at, bool json) {
    QTextStream out(stdout);
    if (json) {
        const QJsonObject root{
            {QStringLiteral("key"), QString::fromStdString(a.key)},
            {QStringLiteral("all_time"), jsonCount(a.allTime)},
            {QStringLiteral("window"), jsonCount(a.window)},
            {QStringLiteral("window_seconds"), qint64(a.windowSeconds)},
            {QStringLiteral("exact"), a.exact},
            {QStringLiteral("uniques"), jsonCount(a.uniques)},
            {QStringLiteral("instances"), jsonStrings(a.instances)},
            {QStringLiteral("at"), qint64(at)},
        };
        out << QJsonDocument(root).toJson(QJsonDocument::Indented);
        return;
    }
    out << QString::fromStdString(a.key) << ": " << a.window << " hit(s) in the last "
        << a.windowSeconds << " s" << (a.exact ? "" : " (whole minutes)") << ", " << a.allTime
        << " all time, about " << a.uniques << " unique visitor(s); instances: "
        << (a.instances.empty() ? QStringLiteral("none alive") : QString::fromStdString([&] {
               std::string joined;
               for (const auto& i : a.instances)
                   joined += (joined.empty() ? "" : ", ") + i;
               return joined;
           }()))
        << '\n';
}

void printTop(const std::vector<fleet::RankedItem>& top, Timestamp window, Timestamp at,
              bool json) {
    QTextStream out(stdout);
    if (json) {
        QJsonArray items;
        for (const auto& item : top)
            items.append(QJsonObject{{QStringLiteral("key"), QString::fromStdString(item.key)},
                                     {QStringLiteral("count"), jsonCount(item.count)}});
        const QJsonObject root{{QStringLiteral("window_seconds"), qint64(window)},
                               {QStringLiteral("at"), qint64(at)},
                               {QStringLiteral("top"), items}};
        out << QJsonDocument(root).toJson(QJsonDocument::Indented);
        return;
    }
    out << "rank,key,count\n";
    for (std::size_t i = 0; i < top.size(); ++i)
        out << i + 1 << ',' << QString::fromStdString(top[i].key) << ',' << top[i].count << '\n';
}

}  // namespace

int runQuery(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Prints the fleet's count for KEY (all time, in the window, unique visitors, alive "
        "instances that sent it), or with --top K the K keys with the most hits in the window, "
        "read from the Redis the instances flush to. See docs/redis.md."));
    parser.addPositionalArgument(QStringLiteral("KEY"), QStringLiteral("The item to count."));
    const QCommandLineOption redis = redisUrlOption();
    const QCommandLineOption window(
        QStringLiteral("window"),
        QStringLiteral("Window in seconds, 1 to %1 (default 300); exact up to %2, whole minutes "
                       "above.")
            .arg(fleet::kMaxQueryWindow)
            .arg(fleet::kExactWindowSeconds),
        QStringLiteral("S"), QStringLiteral("300"));
    const QCommandLineOption at(
        QStringLiteral("at"),
        QStringLiteral("The window's end as a unix time in seconds (default now)."),
        QStringLiteral("T"));
    const QCommandLineOption top(QStringLiteral("top"),
                                 QStringLiteral("The K keys with the most hits, 1 to 10000."),
                                 QStringLiteral("K"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOptions({redis, redisPasswordFileOption(), window, at, top, json});
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    const QStringList keys = parser.positionalArguments();
    if (parser.isSet(top) ? !keys.isEmpty() : keys.size() != 1) {
        printError(parser.isSet(top)
                       ? QStringLiteral("query --top K takes no KEY; got '%1'").arg(keys.join(' '))
                       : QStringLiteral("query needs exactly one KEY (or --top K); got %1")
                             .arg(keys.size()));
        return kExitBadInput;
    }
    const auto seconds = wholeNumberFrom(parser, window, 1, fleet::kMaxQueryWindow);
    const auto k = parser.isSet(top) ? wholeNumberFrom(parser, top, 1, 10000) : 1LL;
    const Timestamp wallNow = std::chrono::duration_cast<std::chrono::seconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
    const auto end = parser.isSet(at) ? wholeNumberFrom(parser, at, 0, 1LL << 40) : wallNow;
    if (!seconds || !k || !end)
        return kExitBadInput;
    int exit = kExitOk;
    const auto connection = connectRedis(parser, redis, exit);
    if (!connection)
        return exit;
    try {
        fleet::FleetReader reader(*connection);
        if (parser.isSet(top))
            printTop(reader.top(std::size_t(*k), *seconds, *end), *seconds, *end,
                     parser.isSet(json));
        else
            printItem(reader.item(keys.first().toStdString(), *seconds, *end), *end,
                      parser.isSet(json));
    } catch (const std::exception& e) {
        return reportFleetError(e);
    }
    return kExitOk;
}

}  // namespace hitcounter::cli
