#include "app/gui/gui_options.h"

#include <QCommandLineParser>
#include <algorithm>
#include <cstdio>

#include "core/fleet/redis_url.h"
#include "core/io/access_log_parser.h"
#include "core/limiters/limiter_factory.h"
#include "core/sim/traffic_model.h"
#include "core/sim/traffic_pattern.h"
#include "core/teach/lessons.h"
#include "core/teach/ring_variant.h"

namespace hitcounter::app {

namespace {

QStringList lessonIds() {
    QStringList ids;
    for (const auto& lesson : teach::lessons()) {
        ids << QString::fromStdString(lesson.id);
    }
    return ids;
}

}  // namespace

std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString* error) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("hitcounter: watch hits in the last 5 minutes, live or replayed. "
                       "With no option it starts on the traffic simulator."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption simulate(
        QStringLiteral("simulate"),
        QStringLiteral("Simulate traffic: steady, poisson, burst, diurnal or viral."),
        QStringLiteral("PATTERN"));
    const QCommandLineOption rate(
        QStringLiteral("rate"), QStringLiteral("Simulated hits per second."), QStringLiteral("R"));
    const QCommandLineOption replay(
        QStringLiteral("replay"),
        QStringLiteral("Replay a trace CSV (time,key,visitor) or a web server access log "
                       "(combined, common, JSON lines; plain or .gz; detected)."),
        QStringLiteral("FILE"));
    const QCommandLineOption follow(
        QStringLiteral("follow"),
        QStringLiteral("Follow a live web server access log like tail -F (rotation and "
                       "truncation included), from its end."),
        QStringLiteral("FILE"));
    const QCommandLineOption fromStart(
        QStringLiteral("from-start"),
        QStringLiteral("With --follow: count the lines already in the log too."));
    const QCommandLineOption key(
        QStringLiteral("key"),
        QStringLiteral("With an access log: what a line counts as: path (default, without the "
                       "query), path+query, status, method, vhost or client."),
        QStringLiteral("KEY"));
    const QCommandLineOption logFormat(
        QStringLiteral("log-format"),
        QStringLiteral("With --replay or --follow: the log's nginx log_format, e.g. "
                       "'$remote_addr - [$time_local] \"$request\" $status' (default: detect)."),
        QStringLiteral("FORMAT"));
    const QCommandLineOption statusSplit(
        QStringLiteral("status-split"),
        QStringLiteral("Split the live plot's hits per second by HTTP status class: off, "
                       "stacked or lines."),
        QStringLiteral("MODE"));
    const QCommandLineOption seek(
        QStringLiteral("seek"),
        QStringLiteral("With --replay: seek to trace time T once loaded (every view rebuilt)."),
        QStringLiteral("T"));
    const QCommandLineOption stateJson(
        QStringLiteral("state-json"),
        QStringLiteral("With --replay and --seek: write what the window shows at T as JSON to "
                       "OUT, then exit."),
        QStringLiteral("OUT"));
    const QCommandLineOption udp(QStringLiteral("listen-udp"),
                                 QStringLiteral("Listen for statsd over UDP."),
                                 QStringLiteral("HOST:PORT"));
    const QCommandLineOption tcp(QStringLiteral("listen-tcp"),
                                 QStringLiteral("Listen for statsd over TCP."),
                                 QStringLiteral("HOST:PORT"));
    const QCommandLineOption redis(
        QStringLiteral("redis"),
        QStringLiteral("Watch a fleet in the Fleet tab: the Redis its instances flush to, "
                       "redis://HOST:PORT[/DB] or redis://:PASSWORD@HOST:PORT, any node of a "
                       "cluster (docs/redis.md)."),
        QStringLiteral("URL"));
    const QCommandLineOption graphite(QStringLiteral("listen-graphite"),
                                      QStringLiteral("Listen for Graphite plaintext over TCP."),
                                      QStringLiteral("HOST:PORT"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Save the whole window as PNG after --after seconds, then exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption after(QStringLiteral("after"),
                                   QStringLiteral("Seconds before --screenshot (default 3)."),
                                   QStringLiteral("SECONDS"));
    const QCommandLineOption bench(
        QStringLiteral("bench-frames"),
        QStringLiteral("Time N frames (update + replot), print median/p99 and RSS, exit."),
        QStringLiteral("N"));
    const QCommandLineOption teach(
        QStringLiteral("teach"),
        QStringLiteral("Open the teaching mode (the ring buffer step by step) instead of the "
                       "monitor."));
    const QCommandLineOption lesson(QStringLiteral("lesson"),
                                    QStringLiteral("With --teach: the lesson to open (%1).")
                                        .arg(lessonIds().join(QStringLiteral(", "))),
                                    QStringLiteral("ID"));
    const QCommandLineOption step(QStringLiteral("step"),
                                  QStringLiteral("With --teach: the step to show first (default "
                                                 "0, or the last step with --screenshot)."),
                                  QStringLiteral("N"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("The tab to open: monitor (default), limits (the Rate limits lab) or "
                       "fleet (with --redis, the default)."),
        QStringLiteral("VIEW"));
    const QCommandLineOption limit(
        QStringLiteral("limit"),
        QStringLiteral("Rate limits lab: L requests per key per period (starts the lab)."),
        QStringLiteral("L"));
    const QCommandLineOption per(QStringLiteral("per"),
                                 QStringLiteral("Rate limits lab: the period W in seconds."),
                                 QStringLiteral("W"));
    const QCommandLineOption scope(
        QStringLiteral("limit-scope"),
        QStringLiteral("Rate limits lab: key (each key its own limiter, default) or all (all "
                       "traffic as one key)."),
        QStringLiteral("SCOPE"));
    const QCommandLineOption algorithms(
        QStringLiteral("algorithms"),
        QStringLiteral("Rate limits lab: comma-separated fixed, log, counter, bucket (default "
                       "all)."),
        QStringLiteral("LIST"));
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("The window's theme: light or dark."),
                                   QStringLiteral("NAME"));
    const QCommandLineOption size(
        QStringLiteral("size"),
        QStringLiteral("The window's size in pixels, e.g. 1280x720 (for --screenshot)."),
        QStringLiteral("WxH"));
    const QCommandLineOption lessonFile(
        QStringLiteral("lesson-file"),
        QStringLiteral("With --teach: open a saved lesson file (docs/teaching.md)."),
        QStringLiteral("FILE"));
    const QCommandLineOption build(
        QStringLiteral("build"),
        QStringLiteral("With --teach: open the Build tab with this ring (compare=>|>=, "
                       "index=t%W|t%(W+1)|t%(W-1), reset=second|never|zero|sweep, "
                       "store=second+count|count) and run it on the lesson."),
        QStringLiteral("SPEC"));
    parser.addOptions({simulate,    rate,  replay, follow,     fromStart,  key,      logFormat,
                       statusSplit, theme, size,   seek,       stateJson,  udp,      tcp,
                       screenshot,  after, bench,  teach,      lesson,     step,     view,
                       limit,       per,   scope,  algorithms, lessonFile, graphite, redis,
                       build});

    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        parser.showVersion();
    }
    if (!parser.positionalArguments().isEmpty()) {
        *error =
            QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first());
        return std::nullopt;
    }

    // Options that cannot go together: an error naming both, never a silent choice.
    const auto given = [&](std::initializer_list<const QCommandLineOption*> options) {
        QStringList names;
        for (const QCommandLineOption* option : options) {
            if (parser.isSet(*option)) {
                names << QStringLiteral("--") + option->names().first();
            }
        }
        return names;
    };
    const QStringList sources = given({&simulate, &replay, &follow, &udp, &tcp, &graphite, &redis});
    if (sources.size() > 1) {
        *error = QStringLiteral("%1 and %2: choose one source").arg(sources[0], sources[1]);
        return std::nullopt;
    }
    if (parser.isSet(rate) && !sources.isEmpty() && !parser.isSet(simulate)) {
        *error = QStringLiteral(
                     "--rate and %1: --rate sets the simulator's rate and %1 chooses another "
                     "source; choose one")
                     .arg(sources[0]);
        return std::nullopt;
    }
    const QStringList endings = given({&screenshot, &bench, &stateJson});
    if (endings.size() > 1) {
        *error = QStringLiteral("%1 and %2: each ends the run its own way; choose one")
                     .arg(endings[0], endings[1]);
        return std::nullopt;
    }
    if (parser.isSet(after) && !parser.isSet(screenshot)) {
        *error = QStringLiteral("--after needs --screenshot FILE");
        return std::nullopt;
    }
    if (parser.isSet(teach)) {
        const QStringList monitorOnly =
            given({&simulate, &rate, &replay, &follow, &udp, &tcp, &graphite, &redis, &bench,
                   &stateJson, &seek, &statusSplit, &view, &limit, &per, &scope, &algorithms});
        if (!monitorOnly.isEmpty()) {
            *error = QStringLiteral(
                         "--teach and %1: the teaching view runs its own lessons; %1 is for "
                         "the monitor")
                         .arg(monitorOnly.first());
            return std::nullopt;
        }
    }

    GuiOptions o;
    o.simulatePattern = parser.value(simulate);
    o.replayFile = parser.value(replay);
    o.followFile = parser.value(follow);
    o.fromStart = parser.isSet(fromStart);
    o.key = parser.value(key);
    o.logFormat = parser.value(logFormat);
    if (parser.isSet(logFormat) && o.replayFile.isEmpty() && o.followFile.isEmpty()) {
        *error = QStringLiteral("--log-format needs --replay FILE or --follow FILE");
        return std::nullopt;
    }
    o.redisUrl = parser.value(redis);
    if (parser.isSet(redis)) {
        try {
            fleet::parseRedisUrl(o.redisUrl.toStdString());
        } catch (const fleet::RedisUrlError& e) {
            *error = QStringLiteral("--redis: %1").arg(QString::fromStdString(e.what()));
            return std::nullopt;
        }
    }
    o.statusSplit = parser.value(statusSplit);
    o.theme = parser.value(theme);
    if (parser.isSet(theme) && o.theme != QLatin1String("light") &&
        o.theme != QLatin1String("dark")) {
        *error = QStringLiteral("--theme: expected light or dark, got '%1'").arg(o.theme);
        return std::nullopt;
    }
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(QLatin1Char('x'));
        bool okW = false;
        bool okH = false;
        if (parts.size() == 2) {
            o.width = parts[0].toInt(&okW);
            o.height = parts[1].toInt(&okH);
        }
        if (!okW || !okH || o.width < 320 || o.height < 240 || o.width > 8192 || o.height > 8192) {
            *error = QStringLiteral("--size: expected WxH from 320x240 to 8192x8192, got '%1'")
                         .arg(parser.value(size));
            return std::nullopt;
        }
    }
    if (o.fromStart && o.followFile.isEmpty()) {
        *error = QStringLiteral("--from-start needs --follow FILE");
        return std::nullopt;
    }
    if (parser.isSet(key) && !accessLogKeyFromName(o.key.toStdString())) {
        *error = QStringLiteral(
                     "--key: unknown key '%1' (path, path+query, status, method, vhost, client)")
                     .arg(o.key);
        return std::nullopt;
    }
    if (parser.isSet(key) && o.replayFile.isEmpty() && o.followFile.isEmpty()) {
        *error = QStringLiteral("--key needs --replay FILE or --follow FILE");
        return std::nullopt;
    }
    if (parser.isSet(statusSplit) && o.statusSplit != QLatin1String("off") &&
        o.statusSplit != QLatin1String("stacked") && o.statusSplit != QLatin1String("lines")) {
        *error = QStringLiteral("--status-split: expected off, stacked or lines, got '%1'")
                     .arg(o.statusSplit);
        return std::nullopt;
    }
    o.listenUdp = parser.value(udp);
    o.listenTcp = parser.value(tcp);
    o.listenGraphite = parser.value(graphite);
    o.screenshotFile = parser.value(screenshot);
    o.stateJsonFile = parser.value(stateJson);
    bool ok = true;
    if (parser.isSet(seek)) {
        const qlonglong t = parser.value(seek).toLongLong(&ok);
        if (!ok || t < 0) {
            *error = QStringLiteral("--seek: expected a trace time >= 0 (seconds), got '%1'")
                         .arg(parser.value(seek));
            return std::nullopt;
        }
        o.seek = t;
    }
    if ((o.seek || parser.isSet(stateJson)) && o.replayFile.isEmpty()) {
        *error = QStringLiteral("--seek and --state-json need --replay FILE");
        return std::nullopt;
    }
    if (parser.isSet(stateJson) && !o.seek) {
        *error = QStringLiteral("--state-json needs --seek T");
        return std::nullopt;
    }
    if (parser.isSet(rate) && (o.rate = parser.value(rate).toDouble(&ok),
                               !ok || !(o.rate > 0 && o.rate <= TrafficModel::kMaxRate))) {
        *error = QStringLiteral("--rate: expected hits per second above 0, at most %1, got '%2'")
                     .arg(formatNumber(TrafficModel::kMaxRate), parser.value(rate));
        return std::nullopt;
    }
    if (parser.isSet(after) && (o.screenshotAfterSeconds = parser.value(after).toDouble(&ok),
                                !ok || o.screenshotAfterSeconds < 0)) {
        *error =
            QStringLiteral("--after: expected seconds >= 0, got '%1'").arg(parser.value(after));
        return std::nullopt;
    }
    if (parser.isSet(bench) &&
        (o.benchFrames = parser.value(bench).toInt(&ok), !ok || o.benchFrames <= 0)) {
        *error = QStringLiteral("--bench-frames: expected a count > 0, got '%1'")
                     .arg(parser.value(bench));
        return std::nullopt;
    }
    o.teach = parser.isSet(teach);
    o.teachLesson = parser.value(lesson);
    o.teachLessonFile = parser.value(lessonFile);
    if ((parser.isSet(lesson) || parser.isSet(step) || parser.isSet(lessonFile) ||
         parser.isSet(build)) &&
        !o.teach) {
        *error = QStringLiteral("--lesson, --lesson-file, --step and --build need --teach");
        return std::nullopt;
    }
    o.teachBuild = parser.value(build);
    if (parser.isSet(build)) {
        const auto spec = teach::parseVariant(o.teachBuild.toStdString());
        if (const auto* message = std::get_if<std::string>(&spec)) {
            *error = QStringLiteral("--build: %1").arg(QString::fromStdString(*message));
            return std::nullopt;
        }
    }
    if (parser.isSet(lesson) && parser.isSet(lessonFile)) {
        *error = QStringLiteral("choose --lesson or --lesson-file, not both");
        return std::nullopt;
    }
    if (parser.isSet(lesson) && !lessonIds().contains(o.teachLesson)) {
        *error = QStringLiteral("--lesson: no lesson '%1'; choose one of %2")
                     .arg(o.teachLesson, lessonIds().join(QStringLiteral(", ")));
        return std::nullopt;
    }
    if (parser.isSet(step) &&
        (o.teachStep = parser.value(step).toInt(&ok), !ok || o.teachStep < 0)) {
        *error = QStringLiteral("--step: expected a step >= 0, got '%1'").arg(parser.value(step));
        return std::nullopt;
    }
    o.view = parser.value(view);
    if (parser.isSet(view) && o.view != QLatin1String("monitor") &&
        o.view != QLatin1String("limits") && o.view != QLatin1String("fleet")) {
        *error = QStringLiteral("--view: expected monitor, limits or fleet, got '%1'").arg(o.view);
        return std::nullopt;
    }
    o.limitsSet =
        parser.isSet(limit) || parser.isSet(per) || parser.isSet(scope) || parser.isSet(algorithms);
    if (parser.isSet(limit) && (o.limit = parser.value(limit).toLongLong(&ok),
                                !ok || o.limit < 1 || o.limit > 1'000'000'000)) {
        *error = QStringLiteral("--limit: expected L from 1 to 1000000000, got '%1'")
                     .arg(parser.value(limit));
        return std::nullopt;
    }
    if (parser.isSet(per) &&
        (o.per = parser.value(per).toLongLong(&ok), !ok || o.per < 1 || o.per > 86400 * 7)) {
        *error = QStringLiteral("--per: expected W from 1 to 604800 seconds, got '%1'")
                     .arg(parser.value(per));
        return std::nullopt;
    }
    if (parser.isSet(scope)) {
        const QString value = parser.value(scope);
        if (value != QLatin1String("key") && value != QLatin1String("all")) {
            *error = QStringLiteral("--limit-scope: expected key or all, got '%1'").arg(value);
            return std::nullopt;
        }
        o.perKey = value == QLatin1String("key");
    }
    if (parser.isSet(algorithms)) {
        for (const QString& name : parser.value(algorithms).split(QLatin1Char(','))) {
            const std::string n = name.trimmed().toStdString();
            const auto names = hitcounter::limiterNames();
            if (std::find(names.begin(), names.end(), n) == names.end()) {
                *error = QStringLiteral(
                             "--algorithms: unknown '%1'; choose from fixed, log, "
                             "counter, bucket")
                             .arg(name);
                return std::nullopt;
            }
            o.algorithms.push_back(n);
        }
    }
    return o;
}

QString formatNumber(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.15g", value);
    return QString::fromLatin1(text);
}

std::optional<ui::SourceSpec> sourceSpecFromOptions(const GuiOptions& o,
                                                    const ui::SourceSpec& remembered,
                                                    QString* error) {
    using Kind = ui::SourceSpec::Kind;
    const bool chosen = !o.simulatePattern.isEmpty() || o.rate > 0 || !o.replayFile.isEmpty() ||
                        !o.followFile.isEmpty() || !o.listenUdp.isEmpty() ||
                        !o.listenTcp.isEmpty() || !o.listenGraphite.isEmpty() ||
                        !o.redisUrl.isEmpty();
    if (!chosen) {
        return remembered;
    }
    // A source chosen on the command line starts from the defaults: a remembered rate, file,
    // speed or loop of the last run must not leak into it.
    ui::SourceSpec spec;
    if (!o.simulatePattern.isEmpty() || o.rate > 0) {
        spec.kind = Kind::Simulator;
        if (!o.simulatePattern.isEmpty()) {
            const auto pattern = trafficPatternFromName(o.simulatePattern.toStdString());
            if (!pattern) {
                *error = QStringLiteral(
                             "--simulate: unknown pattern '%1' (steady, poisson, burst, "
                             "diurnal, viral)")
                             .arg(o.simulatePattern);
                return std::nullopt;
            }
            spec.pattern = *pattern;
        }
        if (o.rate > 0) {
            spec.rate = o.rate;
        }
    } else if (!o.replayFile.isEmpty()) {
        spec.kind = Kind::Replay;
        spec.file = o.replayFile;
    } else if (!o.followFile.isEmpty()) {
        spec.kind = Kind::Follow;
        spec.file = o.followFile;
        spec.fromStart = o.fromStart;
    } else if (!o.redisUrl.isEmpty()) {
        spec.kind = Kind::Redis;
        spec.redisUrl = o.redisUrl;
    } else if (!o.listenUdp.isEmpty()) {
        spec.kind = Kind::StatsdUdp;
        spec.address = o.listenUdp;
    } else if (!o.listenTcp.isEmpty()) {
        spec.kind = Kind::StatsdTcp;
        spec.address = o.listenTcp;
    } else {
        spec.kind = Kind::GraphiteTcp;
        spec.address = o.listenGraphite;
    }
    if (!o.key.isEmpty()) {
        spec.key = o.key;
    }
    spec.logFormat = o.logFormat;
    return spec;
}

}  // namespace hitcounter::app
