#include "app/gui/gui_options.h"

#include <QCommandLineParser>
#include <cstdio>

#include "core/teach/lessons.h"

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
    const QCommandLineOption replay(QStringLiteral("replay"),
                                    QStringLiteral("Replay a trace CSV (time,key,visitor)."),
                                    QStringLiteral("FILE"));
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
    const QCommandLineOption lessonFile(
        QStringLiteral("lesson-file"),
        QStringLiteral("With --teach: open a saved lesson file (docs/teaching.md)."),
        QStringLiteral("FILE"));
    parser.addOptions({simulate, rate, replay, seek, stateJson, udp, tcp, screenshot, after, bench,
                       teach, lesson, step, lessonFile});

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

    GuiOptions o;
    o.simulatePattern = parser.value(simulate);
    o.replayFile = parser.value(replay);
    o.listenUdp = parser.value(udp);
    o.listenTcp = parser.value(tcp);
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
    if (parser.isSet(rate) && (o.rate = parser.value(rate).toDouble(&ok), !ok || o.rate <= 0)) {
        *error = QStringLiteral("--rate: expected a number > 0, got '%1'").arg(parser.value(rate));
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
    if ((parser.isSet(lesson) || parser.isSet(step) || parser.isSet(lessonFile)) && !o.teach) {
        *error = QStringLiteral("--lesson, --lesson-file and --step need --teach");
        return std::nullopt;
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
    const int sources = int(!o.simulatePattern.isEmpty()) + int(!o.replayFile.isEmpty()) +
                        int(!o.listenUdp.isEmpty() || !o.listenTcp.isEmpty());
    if (sources > 1) {
        *error = QStringLiteral("choose one source: --simulate, --replay or --listen-udp/tcp");
        return std::nullopt;
    }
    if (o.teach && (sources > 0 || o.benchFrames > 0)) {
        *error = QStringLiteral("--teach runs its own lessons: no source or --bench-frames");
        return std::nullopt;
    }
    return o;
}

}  // namespace hitcounter::app
