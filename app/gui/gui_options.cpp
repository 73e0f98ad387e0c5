#include "app/gui/gui_options.h"

#include <QCommandLineParser>
#include <algorithm>
#include <cstdio>
#include <limits>

#include "app/common/option_reader.h"

#include "core/filter/record_filter.h"
#include "core/fleet/redis_url.h"
#include "core/io/access_log_parser.h"
#include "core/limiters/limiter_factory.h"
#include "core/sim/traffic_model.h"
#include "core/sim/traffic_pattern.h"
#include "core/teach/lessons.h"
#include "core/teach/ring_variant.h"
#include "ui/sources/kinds/speeds.h"

namespace hitcounter::app {

namespace {

QStringList lessonIds() {
    QStringList ids;
    for (const auto& lesson : teach::lessons()) {
        ids << QString::fromStdString(lesson.id);
    }
    return ids;
}

// Every option of the GUI, added to one parser.
struct GuiCliOptions {
    QCommandLineOption simulate{
        QStringLiteral("simulate"),
        QStringLiteral("Simulate traffic: steady, poisson, burst, diurnal or viral."),
        QStringLiteral("PATTERN")};
    QCommandLineOption rate{QStringLiteral("rate"), QStringLiteral("Simulated hits per second."),
                            QStringLiteral("R")};
    QCommandLineOption speed{QStringLiteral("speed"),
                             QStringLiteral("With --simulate, --rate or --replay: simulated or "
                                            "replayed seconds per wall-clock second: 0.5, 1, 2, "
                                            "10, 100 or 1000 (default 1)."),
                             QStringLiteral("X")};
    QCommandLineOption replay{
        QStringLiteral("replay"),
        QStringLiteral("Replay a trace CSV (a header line naming its columns in any order: "
                       "timestamp required; key, visitor and count optional; e.g. "
                       "timestamp,key,visitor) or a web server access log (combined, common, "
                       "JSON lines; plain or .gz; detected). Given several times, the files are "
                       "replayed as one: a rotation set (access.log, access.log.1, "
                       "access.log.2.gz) oldest first, other files merged in time order."),
        QStringLiteral("FILE")};
    QCommandLineOption follow{
        QStringLiteral("follow"),
        QStringLiteral("Follow a live web server access log like tail -F (rotation and "
                       "truncation included), from its end. Given several times, every log is "
                       "followed into the one window (several servers)."),
        QStringLiteral("FILE")};
    QCommandLineOption fromStart{
        QStringLiteral("from-start"),
        QStringLiteral("With --follow: count the lines already in the log too.")};
    QCommandLineOption key{
        QStringLiteral("key"),
        QStringLiteral("With an access log: what a line counts as: path (default, without the "
                       "query), path+query, status, method, vhost or client; with several "
                       "--replay files also source (each file, a rotation set as one)."),
        QStringLiteral("KEY")};
    QCommandLineOption logFormat{
        QStringLiteral("log-format"),
        QStringLiteral("With --replay or --follow: the log's nginx log_format, e.g. "
                       "'$remote_addr - [$time_local] \"$request\" $status' (default: detect)."),
        QStringLiteral("FORMAT")};
    QCommandLineOption filter{
        QStringLiteral("filter"),
        QStringLiteral("With --replay or --follow: count only the lines EXPR accepts, e.g. "
                       "\"status=5xx and path~'^/api/'\" (see docs/filters.md)."),
        QStringLiteral("EXPR")};
    QCommandLineOption statusSplit{
        QStringLiteral("status-split"),
        QStringLiteral("Split the live plot's hits per second by HTTP status class: off, "
                       "stacked or lines."),
        QStringLiteral("MODE")};
    QCommandLineOption seek{
        QStringLiteral("seek"),
        QStringLiteral("With --replay: seek to trace time T once loaded (every view rebuilt; "
                       "past the trace's end: its last second). T1,T2,...: one seek after the "
                       "other, as a user would; with --state-json one state per seek."),
        QStringLiteral("T")};
    QCommandLineOption stateJson{
        QStringLiteral("state-json"),
        QStringLiteral("Write what the window shows as JSON to OUT, then exit: a replay at "
                       "--seek T (or after --after seconds of playing; one JSON line per seek, "
                       "with seek_ms), any other source after --after seconds (default 3); 2 if "
                       "the source cannot start, or a trace cannot be read or holds no hit."),
        QStringLiteral("OUT")};
    QCommandLineOption timeZone{
        QStringLiteral("time-zone"),
        QStringLiteral("Show every time in utc, local (the default) or log time (the access "
                       "log's own UTC offset); remembered."),
        QStringLiteral("ZONE")};
    QCommandLineOption udp{QStringLiteral("listen-udp"),
                           QStringLiteral("Listen for statsd over UDP."),
                           QStringLiteral("HOST:PORT")};
    QCommandLineOption tcp{QStringLiteral("listen-tcp"),
                           QStringLiteral("Listen for statsd over TCP."),
                           QStringLiteral("HOST:PORT")};
    QCommandLineOption graphite{QStringLiteral("listen-graphite"),
                                QStringLiteral("Listen for Graphite plaintext over TCP."),
                                QStringLiteral("HOST:PORT")};
    QCommandLineOption receivers{
        QStringLiteral("receivers"),
        QStringLiteral("With --listen-udp, --listen-tcp or --listen-graphite: receiver threads, "
                       "each with its own socket on the port (default: one per core)."),
        QStringLiteral("N")};
    QCommandLineOption redis{
        QStringLiteral("redis"),
        QStringLiteral("Watch a fleet in the Fleet tab: the Redis its instances flush to, "
                       "redis://HOST:PORT[/DB] or redis://:PASSWORD@HOST:PORT, any node of a "
                       "cluster (docs/redis.md)."),
        QStringLiteral("URL")};
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QStringLiteral("Save the whole window as PNG after --after seconds, then exit."),
        QStringLiteral("FILE")};
    QCommandLineOption after{
        QStringLiteral("after"),
        QStringLiteral("Seconds before --screenshot or --state-json (default 3)."),
        QStringLiteral("SECONDS")};
    QCommandLineOption bench{
        QStringLiteral("bench-frames"),
        QStringLiteral("Time N frames (update + replot), print median/p99 and RSS, exit."),
        QStringLiteral("N")};
    QCommandLineOption teach{
        QStringLiteral("teach"),
        QStringLiteral("Open the teaching mode (the ring buffer step by step) instead of the "
                       "monitor.")};
    QCommandLineOption lesson{QStringLiteral("lesson"),
                              QStringLiteral("With --teach: the lesson to open (%1).")
                                  .arg(lessonIds().join(QStringLiteral(", "))),
                              QStringLiteral("ID")};
    QCommandLineOption step{QStringLiteral("step"),
                            QStringLiteral("With --teach: the step to show first (default "
                                           "0, or the last step with --screenshot)."),
                            QStringLiteral("N")};
    QCommandLineOption view{
        QStringLiteral("view"),
        QStringLiteral("The tab to open: monitor (default), limits (the Rate limits lab) or "
                       "fleet (with --redis, the default)."),
        QStringLiteral("VIEW")};
    QCommandLineOption limit{
        QStringLiteral("limit"),
        QStringLiteral("Rate limits lab: L requests per key per period (starts the lab)."),
        QStringLiteral("L")};
    QCommandLineOption per{QStringLiteral("per"),
                           QStringLiteral("Rate limits lab: the period W in seconds."),
                           QStringLiteral("W")};
    QCommandLineOption scope{
        QStringLiteral("limit-scope"),
        QStringLiteral("Rate limits lab: key (each key its own limiter, default) or all (all "
                       "traffic as one key)."),
        QStringLiteral("SCOPE")};
    QCommandLineOption algorithms{
        QStringLiteral("algorithms"),
        QStringLiteral("Rate limits lab: comma-separated fixed, log, counter, bucket (default "
                       "all)."),
        QStringLiteral("LIST")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("The window's theme: light or dark."),
                             QStringLiteral("NAME")};
    QCommandLineOption size{
        QStringLiteral("size"),
        QStringLiteral("The window's size in pixels, e.g. 1280x720 (for --screenshot)."),
        QStringLiteral("WxH")};
    QCommandLineOption lessonFile{
        QStringLiteral("lesson-file"),
        QStringLiteral("With --teach: open a saved lesson file (docs/teaching.md)."),
        QStringLiteral("FILE")};
    QCommandLineOption build{
        QStringLiteral("build"),
        QStringLiteral("With --teach: open the Build tab with this ring (compare=>|>=, "
                       "index=t%W|t%(W+1)|t%(W-1), reset=second|never|zero|sweep, "
                       "store=second+count|count) and run it on the lesson."),
        QStringLiteral("SPEC")};
    QCommandLineOption handout{
        QStringLiteral("handout"),
        QStringLiteral("With --teach: write the lesson's handout (goal, ring, steps, questions, "
                       "answers) as a PDF and exit."),
        QStringLiteral("FILE.pdf")};
    QCommandLineOption code{
        QStringLiteral("code"),
        QStringLiteral("With --teach: open the Code tab with this JavaScript file and check it "
                       "against the reference (docs/teaching.md)."),
        QStringLiteral("FILE.js")};

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(
            QStringLiteral("hitcounter: watch hits in the last 5 minutes, live or replayed. "
                           "With no option it starts on the traffic simulator."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({simulate,  rate,       speed,       replay,     follow, fromStart,
                           key,       logFormat,  statusSplit, theme,      size,   seek,
                           stateJson, udp,        tcp,         screenshot, after,  bench,
                           teach,     lesson,     step,        view,       limit,  per,
                           scope,     algorithms, lessonFile,  graphite,   redis,  build,
                           timeZone,  code,       handout,     receivers,  filter});
    }
};

// Options that cannot go together: an error naming both, never a silent choice.
bool checkClashes(OptionReader& r, const GuiCliOptions& c) {
    const QStringList sources =
        r.given({&c.simulate, &c.replay, &c.follow, &c.udp, &c.tcp, &c.graphite, &c.redis});
    r.atMostOne({&c.simulate, &c.replay, &c.follow, &c.udp, &c.tcp, &c.graphite, &c.redis},
                QStringLiteral("{first} and {second}: choose one source"));
    if (r.isSet(c.rate) && !sources.isEmpty() && !r.isSet(c.simulate)) {
        r.fail(QStringLiteral("--rate and %1: --rate sets the simulator's rate and %1 chooses "
                              "another source; choose one")
                   .arg(sources[0]));
    }
    r.atMostOne({&c.screenshot, &c.bench, &c.stateJson},
                QStringLiteral("{first} and {second}: each ends the run its own way; choose one"));
    r.needs(c.after, r.isSet(c.screenshot) || r.isSet(c.stateJson),
            QStringLiteral("--after needs --screenshot FILE or --state-json OUT"));
    if (r.isSet(c.teach)) {
        const QStringList monitorOnly =
            r.given({&c.simulate, &c.rate, &c.speed, &c.replay, &c.follow, &c.udp, &c.tcp,
                     &c.graphite, &c.redis, &c.bench, &c.stateJson, &c.seek, &c.statusSplit,
                     &c.timeZone, &c.view, &c.limit, &c.per, &c.scope, &c.algorithms});
        if (!monitorOnly.isEmpty()) {
            r.fail(QStringLiteral("--teach and %1: the teaching view runs its own lessons; %1 is "
                                  "for the monitor")
                       .arg(monitorOnly.first()));
        }
    }
    return r.ok();
}

// The source: simulator, replay, follow, listeners, and what goes with them.
void readSourceOptions(OptionReader& r, const GuiCliOptions& c, GuiOptions& o) {
    o.simulatePattern = r.value(c.simulate);
    o.replayFiles = r.values(c.replay);
    o.followFiles = r.values(c.follow);
    o.fromStart = r.isSet(c.fromStart);
    o.key = r.value(c.key);
    o.logFormat = r.value(c.logFormat);
    o.listenUdp = r.value(c.udp);
    o.listenTcp = r.value(c.tcp);
    o.listenGraphite = r.value(c.graphite);
    r.needs(c.receivers, r.isSet(c.udp) || r.isSet(c.tcp) || r.isSet(c.graphite),
            QStringLiteral("--receivers needs --listen-udp, --listen-tcp or --listen-graphite"));
    if (r.isSet(c.receivers)) {
        o.receivers = static_cast<int>(
            r.wholeNumber(c.receivers, {1, 1024},
                          QStringLiteral("{option}: expected 1 to 1024, got '{value}'"), Syntax::Qt)
                .value_or(0));
    }
    o.redisUrl = r.value(c.redis);
    if (r.isSet(c.redis)) {
        try {
            if (!fleet::parseRedisUrl(o.redisUrl.toStdString()).password.empty())
                std::fprintf(stderr,
                             "hitcounter: warning: the --redis URL carries a password, which "
                             "every user of this machine can read (ps); set %s instead\n",
                             fleet::kRedisPasswordVariable);
        } catch (const fleet::RedisUrlError& e) {
            r.fail(QStringLiteral("--redis: %1").arg(QString::fromStdString(e.what())));
        }
    }
    const bool logFile = !o.replayFiles.isEmpty() || !o.followFiles.isEmpty();
    r.needs(c.logFormat, logFile,
            QStringLiteral("--log-format needs --replay FILE or --follow FILE"));
    r.needs(c.fromStart, !o.followFiles.isEmpty(),
            QStringLiteral("--from-start needs --follow FILE"));
    if (r.isSet(c.key) && o.key == ui::ReplaySpec::sourceKey()) {
        r.needs(c.key, o.replayFiles.size() > 1,
                QStringLiteral("--key source needs several --replay FILE"));
    } else if (r.isSet(c.key) && !accessLogKeyFromName(o.key.toStdString())) {
        r.fail(QStringLiteral("--key: unknown key '%1' (path, path+query, status, method, vhost, "
                              "client; source with several --replay files)")
                   .arg(o.key));
    }
    r.needs(c.key, logFile, QStringLiteral("--key needs --replay FILE or --follow FILE"));
    o.filter = r.value(c.filter);
    r.needs(c.filter, logFile, QStringLiteral("--filter needs --replay FILE or --follow FILE"));
    if (r.isSet(c.filter)) {
        const auto parsed = RecordFilter::parse(o.filter.toStdString());
        if (const auto* problem = std::get_if<TextProblem>(&parsed)) {
            r.fail(QStringLiteral("--filter '%1': %2")
                       .arg(o.filter, QString::fromStdString(describeFilterProblem(*problem))));
        }
    }
    if (r.isSet(c.seek)) {
        const auto seeks = r.wholeNumbers(
            c.seek, {0, std::numeric_limits<long long>::max()},
            QStringLiteral("{option}: expected trace times >= 0 (seconds, T or T1,T2,...), "
                           "got '{value}'"),
            Syntax::Qt);
        if (seeks) {
            o.seeks.assign(seeks->begin(), seeks->end());
        }
    }
    r.needs(c.seek, !o.replayFiles.isEmpty(), QStringLiteral("--seek needs --replay FILE"));
    if (r.isSet(c.seek) && r.isSet(c.after) && r.isSet(c.stateJson)) {
        r.fail(
            QStringLiteral("--seek and --after: --state-json writes the replay at T, or "
                           "after S seconds of playing; choose one"));
    }
    if (r.isSet(c.rate)) {
        o.rate = r.number(c.rate, {.min = 0, .max = TrafficModel::kMaxRate, .aboveMin = true},
                          QStringLiteral("{option}: expected hits per second above 0, at most "
                                         "%1, got '{value}'")
                              .arg(formatNumber(TrafficModel::kMaxRate)),
                          Syntax::Qt)
                     .value_or(0.0);
    }
    r.needs(c.speed, r.isSet(c.simulate) || r.isSet(c.rate) || r.isSet(c.replay),
            QStringLiteral("--speed needs --simulate PATTERN, --rate R or --replay FILE"));
    if (r.isSet(c.speed)) {
        const auto& speeds = ui::kSpeeds;
        o.speed = r.number(c.speed, {.min = 0, .max = speeds.back(), .aboveMin = true},
                           QStringLiteral("{option}: expected 0.5, 1, 2, 10, 100 or 1000, got "
                                          "'{value}'"),
                           Syntax::Qt)
                      .value_or(0.0);
        if (o.speed > 0 && std::find(speeds.begin(), speeds.end(), o.speed) == speeds.end()) {
            r.fail(QStringLiteral("--speed: expected 0.5, 1, 2, 10, 100 or 1000, got '%1'")
                       .arg(r.value(c.speed)));
        }
    }
}

// --size WxH, from 320x240 to 8192x8192.
void readSize(OptionReader& r, const GuiCliOptions& c, GuiOptions& o) {
    if (!r.isSet(c.size)) {
        return;
    }
    const QStringList parts = r.value(c.size).split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    if (parts.size() == 2) {
        o.width = parts[0].toInt(&okW);
        o.height = parts[1].toInt(&okH);
    }
    if (!okW || !okH || o.width < 320 || o.height < 240 || o.width > 8192 || o.height > 8192) {
        r.fail(QStringLiteral("--size: expected WxH from 320x240 to 8192x8192, got '%1'")
                   .arg(r.value(c.size)));
    }
}

// The window: theme, size, status split, the tab, and the ways a run ends.
void readWindowOptions(OptionReader& r, const GuiCliOptions& c, GuiOptions& o) {
    o.theme = r.value(c.theme);
    o.statusSplit = r.value(c.statusSplit);
    o.view = r.value(c.view);
    o.screenshotFile = r.value(c.screenshot);
    o.stateJsonFile = r.value(c.stateJson);
    o.afterSet = r.isSet(c.after);
    o.timeZone = r.value(c.timeZone);
    if (r.isSet(c.timeZone)) {
        r.choice(c.timeZone,
                 {QStringLiteral("utc"), QStringLiteral("local"), QStringLiteral("log")},
                 QStringLiteral("{option}: expected utc, local or log, got '{value}'"));
    }
    if (r.isSet(c.theme)) {
        r.choice(c.theme, {QStringLiteral("light"), QStringLiteral("dark")},
                 QStringLiteral("{option}: expected light or dark, got '{value}'"));
    }
    readSize(r, c, o);
    if (r.isSet(c.statusSplit)) {
        r.choice(c.statusSplit,
                 {QStringLiteral("off"), QStringLiteral("stacked"), QStringLiteral("lines")},
                 QStringLiteral("{option}: expected off, stacked or lines, got '{value}'"));
    }
    if (r.isSet(c.after)) {
        o.screenshotAfterSeconds =
            r.number(c.after, {.min = 0, .max = std::numeric_limits<double>::infinity()},
                     QStringLiteral("{option}: expected seconds >= 0, got '{value}'"), Syntax::Qt)
                .value_or(o.screenshotAfterSeconds);
    }
    if (r.isSet(c.bench)) {
        o.benchFrames = static_cast<int>(
            r.wholeNumber(c.bench, {1, std::numeric_limits<int>::max()},
                          QStringLiteral("{option}: expected a count > 0, got '{value}'"),
                          Syntax::Qt)
                .value_or(0));
    }
    if (r.isSet(c.view)) {
        r.choice(c.view,
                 {QStringLiteral("monitor"), QStringLiteral("limits"), QStringLiteral("fleet")},
                 QStringLiteral("{option}: expected monitor, limits or fleet, got '{value}'"));
    }
}

// --teach with its lesson, lesson file and step.
void readTeachOptions(OptionReader& r, const GuiCliOptions& c, GuiOptions& o) {
    o.teach = r.isSet(c.teach);
    o.teachLesson = r.value(c.lesson);
    o.teachLessonFile = r.value(c.lessonFile);
    o.teachBuild = r.value(c.build);
    o.teachCode = r.value(c.code);
    o.teachHandout = r.value(c.handout);
    if ((r.isSet(c.lesson) || r.isSet(c.step) || r.isSet(c.lessonFile) || r.isSet(c.build) ||
         r.isSet(c.code) || r.isSet(c.handout)) &&
        !o.teach) {
        r.fail(QStringLiteral(
            "--lesson, --lesson-file, --step, --build, --code and --handout need --teach"));
    }
    if (r.isSet(c.handout) && r.isSet(c.screenshot)) {
        r.fail(
            QStringLiteral("--handout and --screenshot: each ends the run its own way; "
                           "choose one"));
    }
    if (r.isSet(c.build) && r.isSet(c.code)) {
        r.fail(QStringLiteral("--build and --code open different tabs; choose one"));
    }
    if (r.isSet(c.build)) {
        const auto spec = teach::parseVariant(o.teachBuild.toStdString());
        if (const auto* problem = std::get_if<TextProblem>(&spec)) {
            r.fail(QStringLiteral("--build: %1").arg(QString::fromStdString(problem->message)));
        }
    }
    if (r.isSet(c.lesson) && r.isSet(c.lessonFile)) {
        r.fail(QStringLiteral("choose --lesson or --lesson-file, not both"));
    }
    if (r.isSet(c.lesson)) {
        r.choice(c.lesson, lessonIds(),
                 QStringLiteral("{option}: no lesson '{value}'; choose one of %1")
                     .arg(lessonIds().join(QStringLiteral(", "))));
    }
    if (r.isSet(c.step)) {
        o.teachStep = static_cast<int>(
            r.wholeNumber(c.step, {0, std::numeric_limits<int>::max()},
                          QStringLiteral("{option}: expected a step >= 0, got '{value}'"),
                          Syntax::Qt)
                .value_or(-1));
    }
}

// The Rate limits lab: --limit, --per, --limit-scope, --algorithms.
void readLimitsOptions(OptionReader& r, const GuiCliOptions& c, GuiOptions& o) {
    o.limitsSet = r.isSet(c.limit) || r.isSet(c.per) || r.isSet(c.scope) || r.isSet(c.algorithms);
    if (r.isSet(c.limit)) {
        o.limit = r.wholeNumber(c.limit, {1, 1'000'000'000},
                                QStringLiteral("{option}: expected L from 1 to 1000000000, got "
                                               "'{value}'"),
                                Syntax::Qt)
                      .value_or(o.limit);
    }
    if (r.isSet(c.per)) {
        o.per = r.wholeNumber(c.per, {1, 86400 * 7},
                              QStringLiteral("{option}: expected W from 1 to 604800 seconds, got "
                                             "'{value}'"),
                              Syntax::Qt)
                    .value_or(o.per);
    }
    if (r.isSet(c.scope)) {
        o.perKey = r.choice(c.scope, {QStringLiteral("key"), QStringLiteral("all")},
                            QStringLiteral("--limit-scope: expected key or all, got '{value}'"))
                       .value_or(QStringLiteral("key")) == QLatin1String("key");
    }
    if (!r.isSet(c.algorithms)) {
        return;
    }
    const auto names = hitcounter::limiterNames();
    for (const QString& name : r.value(c.algorithms).split(QLatin1Char(','))) {
        const std::string n = name.trimmed().toStdString();
        if (std::find(names.begin(), names.end(), n) == names.end()) {
            r.fail(QStringLiteral("--algorithms: unknown '%1'; choose from fixed, log, counter, "
                                  "bucket")
                       .arg(name));
            return;
        }
        o.algorithms.push_back(n);
    }
}

}  // namespace

std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString* error) {
    QCommandLineParser parser;
    const GuiCliOptions c;
    c.addTo(parser);
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
    OptionReader r(parser);
    GuiOptions o;
    if (checkClashes(r, c)) {
        readSourceOptions(r, c, o);
        readWindowOptions(r, c, o);
        readTeachOptions(r, c, o);
        readLimitsOptions(r, c, o);
    }
    if (!r.ok()) {
        *error = r.error();
        return std::nullopt;
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
    const bool chosen = !o.simulatePattern.isEmpty() || o.rate > 0 || !o.replayFiles.isEmpty() ||
                        !o.followFiles.isEmpty() || !o.listenUdp.isEmpty() ||
                        !o.listenTcp.isEmpty() || !o.listenGraphite.isEmpty() ||
                        !o.redisUrl.isEmpty();
    if (!chosen) {
        return remembered;
    }
    // A source chosen on the command line starts from its kind's defaults: a remembered rate,
    // file, speed or loop of the last run must not leak into it.
    const auto fileSpec = [&](auto spec, const QStringList& files) {
        spec.file = files.front();
        spec.moreFiles = files.mid(1);
        if (!o.key.isEmpty()) {
            spec.key = o.key;
        }
        spec.logFormat = o.logFormat;
        spec.filter = o.filter;
        return spec;
    };
    if (!o.simulatePattern.isEmpty() || o.rate > 0) {
        ui::SimulatorSpec spec;
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
        if (o.speed > 0) {
            spec.speed = o.speed;
        }
        return spec;
    }
    if (!o.replayFiles.isEmpty()) {
        ui::ReplaySpec spec = fileSpec(ui::ReplaySpec{}, o.replayFiles);
        if (o.speed > 0) {
            spec.speed = o.speed;
        }
        return spec;
    }
    if (!o.followFiles.isEmpty()) {
        ui::FollowSpec spec = fileSpec(ui::FollowSpec{}, o.followFiles);
        spec.fromStart = o.fromStart;
        return spec;
    }
    if (!o.redisUrl.isEmpty()) {
        return ui::FleetSpec{.redisUrl = o.redisUrl};
    }
    using Protocol = ui::ListenerSpec::Protocol;
    ui::ListenerSpec spec;
    spec.receivers = o.receivers;
    if (!o.listenUdp.isEmpty()) {
        spec.protocol = Protocol::StatsdUdp;
        spec.address = o.listenUdp;
    } else if (!o.listenTcp.isEmpty()) {
        spec.protocol = Protocol::StatsdTcp;
        spec.address = o.listenTcp;
    } else {
        spec.protocol = Protocol::GraphiteTcp;
        spec.address = o.listenGraphite;
    }
    return spec;
}

}  // namespace hitcounter::app
