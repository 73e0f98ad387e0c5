// hitcounter-cli rebuild: restores the fleet's counting keys from the instances' logs.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/redis_cli.h"
#include "core/fleet/fleet_reader.h"

namespace hitcounter::cli {

int runRebuild(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Re-applies every flush kept in the instances' logs (the streams hc:log:{INSTANCE}) to "
        "the counting keys of the same Redis. Flushes already applied are skipped, so it can run "
        "at any time; after a wipe of the counting keys every query answers as before. See "
        "docs/redis.md."));
    const QCommandLineOption redis = redisUrlOption();
    const QCommandLineOption wipe(
        QStringLiteral("wipe-first"),
        QStringLiteral("Delete every counting key (hc:{*) before rebuilding; logs and "
                       "heartbeats stay."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOptions({redis, redisPasswordFileOption(), wipe, json});
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("rebuild takes no arguments besides options; got '%1'")
                       .arg(parser.positionalArguments().first()));
        return kExitBadInput;
    }
    int exit = kExitOk;
    const auto connection = connectRedis(parser, redis, exit);
    if (!connection)
        return exit;
    try {
        fleet::FleetReader reader(*connection);
        const std::size_t wiped = parser.isSet(wipe) ? reader.wipeCounts() : 0;
        const fleet::RebuildResult r = reader.rebuild();
        QTextStream out(stdout);
        if (parser.isSet(json)) {
            const QJsonObject root{{QStringLiteral("wiped_keys"), qint64(wiped)},
                                   {QStringLiteral("logs"), qint64(r.logs)},
                                   {QStringLiteral("entries"), qint64(r.entries)},
                                   {QStringLiteral("applied"), qint64(r.applied)},
                                   {QStringLiteral("skipped"), qint64(r.skipped)}};
            out << QJsonDocument(root).toJson(QJsonDocument::Indented);
        } else {
            out << "rebuilt from " << r.logs << " log(s), " << r.entries
                << " flush(es): " << r.applied << " script(s) applied, " << r.skipped
                << " already present";
            if (parser.isSet(wipe))
                out << " (" << wiped << " key(s) wiped first)";
            out << '\n';
        }
    } catch (const std::exception& e) {
        return reportFleetError(e);
    }
    return kExitOk;
}

}  // namespace hitcounter::cli
