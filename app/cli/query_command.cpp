// hitcounter-cli query: the fleet's counts, read from Redis (docs/redis.md).
#include <chrono>
#include <cstdio>
#include <string>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/json_writer.h"
#include "app/cli/redis_cli.h"
#include "core/fleet/fleet_keys.h"
#include "core/fleet/fleet_reader.h"
#include "core/net/text_escape.h"

namespace hitcounter::cli {

namespace {

// A client-sent key in JSON: "key" through jsonString() (escaped when it is not UTF-8) and,
// for such a key, its bytes in "key_hex" (two hex digits each), so that no two keys print alike.
void jsonKey(JsonWriter& out, const std::string& key) {
    out.key("key").string(key);
    if (!isValidUtf8(key))
        out.key("key_hex").string(hexBytes(key));
}

void print(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
}

// Object members in ascending order, as QJsonDocument wrote them before counts had to be exact.
void printItem(const fleet::ItemAnswer& a, Timestamp at, bool json) {
    if (json) {
        JsonWriter out;
        out.beginObject().key("all_time").count(a.allTime).key("at").integer(at);
        out.key("exact").boolean(a.exact).key("instances").beginArray();
        for (const std::string& instance : a.instances)
            out.string(instance);
        out.endArray();
        jsonKey(out, a.key);
        out.key("uniques").count(a.uniques).key("window").count(a.window);
        out.key("window_seconds").integer(a.windowSeconds).endObject();
        print(out.take());
        return;
    }
    std::string instances;
    for (const auto& i : a.instances)
        instances += (instances.empty() ? "" : ", ") + escapeForTerminal(i);
    print(escapeForTerminal(a.key) + ": " + std::to_string(a.window) + " hit(s) in the last " +
          std::to_string(a.windowSeconds) + " s" + (a.exact ? "" : " (whole minutes)") + ", " +
          std::to_string(a.allTime) + " all time, about " + std::to_string(a.uniques) +
          " unique visitor(s); instances: " + (instances.empty() ? "none alive" : instances) +
          '\n');
}

void printTop(const std::vector<fleet::RankedItem>& top, Timestamp window, Timestamp at,
              bool json) {
    if (json) {
        JsonWriter out;
        out.beginObject().key("at").integer(at).key("top").beginArray();
        for (const auto& item : top) {
            out.beginObject().key("count").count(item.count);
            jsonKey(out, item.key);
            out.endObject();
        }
        out.endArray().key("window_seconds").integer(window).endObject();
        print(out.take());
        return;
    }
    std::string csv = "rank,key,count\n";
    for (std::size_t i = 0; i < top.size(); ++i)
        csv += std::to_string(i + 1) + ',' + csvField(top[i].key) + ',' +
               std::to_string(top[i].count) + '\n';
    print(csv);
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
