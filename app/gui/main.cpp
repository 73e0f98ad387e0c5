// hitcounter: the monitor GUI. Parses the command line, builds the main window, starts the
// source asked for (the simulator by default) and, for --screenshot, --bench-frames or
// --state-json, quits on its own. With --teach the teaching view is the main window instead.
#include <QApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QSaveFile>
#include <QSettings>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>

#include "app/gui/frame_bench.h"
#include "app/gui/gui_options.h"
#include "app/teach_js/js_counter.h"
#include "core/sources/source_capabilities.h"
#include "core/teach/lessons.h"
#include "core/teach/teach_file.h"
#include "ui/common/theme.h"
#include "ui/common/window_fit.h"
#include "ui/limits/limits_lab.h"
#include "ui/monitor/live_plot.h"
#include "ui/sources/replay_texts.h"
#include "ui/sources/source_session.h"
#include "ui/teach/build_panel.h"
#include "ui/teach/code_panel.h"
#include "ui/teach/teach_files.h"
#include "ui/teach/teach_view.h"
#include "ui/window/main_window.h"
#include "ui/window/state_json.h"
#include "ui/window/view_fan_out.h"

namespace {

// After --after seconds: render, save `window` as the --screenshot PNG and quit (1 on failure).
void screenshotLater(QWidget& window, const hitcounter::app::GuiOptions& options,
                     std::function<void()> render) {
    const QString file = options.screenshotFile;
    QTimer::singleShot(int(options.screenshotAfterSeconds * 1000), &window,
                       [&window, file, render = std::move(render)] {
                           render();
                           if (!window.grab().save(file, "PNG")) {
                               std::fprintf(stderr, "hitcounter: %s: cannot write the screenshot\n",
                                            qPrintable(file));
                               QApplication::exit(1);
                               return;
                           }
                           QApplication::exit(0);
                       });
}

// --teach: the teaching view is the main window, on the chosen lesson and step.
int runTeaching(QApplication& app, const hitcounter::app::GuiOptions& options) {
    using hitcounter::teach::lessons;
    hitcounter::ui::TeachView view;
    const auto lesson = std::find_if(lessons().begin(), lessons().end(), [&](const auto& l) {
        return options.teachLesson.isEmpty() || QString::fromStdString(l.id) == options.teachLesson;
    });
    view.loadLesson(int(lesson - lessons().begin()));
    if (!options.teachLessonFile.isEmpty()) {
        QString error;
        if (!view.files()->loadLessonFile(options.teachLessonFile, &error)) {
            std::fprintf(stderr, "hitcounter: %s\n", qPrintable(error));
            return 2;
        }
    }
    const bool fromFile = !options.teachLessonFile.isEmpty();
    if (options.teachStep > view.lastStep()) {
        std::fprintf(stderr, "hitcounter: --step: lesson '%s' has steps 0 to %d\n",
                     fromFile ? qPrintable(options.teachLessonFile) : lesson->id.c_str(),
                     view.lastStep());
        return 2;
    }
    const bool screenshot = !options.screenshotFile.isEmpty();
    if (options.teachStep >= 0 || !fromFile) {  // a lesson file opens at its own step
        view.showStep(options.teachStep >= 0 ? options.teachStep
                      : screenshot           ? view.lastStep()
                                             : 0);
    }
    if (!options.teachBuild.isEmpty()) {
        const auto spec = hitcounter::teach::parseVariant(options.teachBuild.toStdString());
        view.buildPanel()->setVariant(std::get<hitcounter::teach::RingVariant>(spec));
        view.showBuild(true);
        view.buildPanel()->runOnLesson();
    }
    if (!options.teachHandout.isEmpty()) {
        QString error;
        if (view.files()->exportHandoutPdf(options.teachHandout, &error) < 0) {
            std::fprintf(stderr, "hitcounter: %s\n", qPrintable(error));
            return 1;
        }
        return 0;
    }
    if (!options.teachCode.isEmpty()) {
        std::string code;
        try {
            code = hitcounter::teach::readTeachFile(options.teachCode.toStdString());
        } catch (const hitcounter::teach::TeachFileError& e) {
            std::fprintf(stderr, "hitcounter: %s\n", e.what());
            return 2;
        }
        view.codePanel()->setSource(QString::fromStdString(code));
        view.showCode(true);
        view.codePanel()->runCheck();
    }
    if (!options.theme.isEmpty()) {
        hitcounter::ui::applyTheme(app, hitcounter::ui::themeNamed(options.theme));
    }
    // A screenshot without --size is 1280x800 wherever it is made; a window fits its screen.
    const QSize preferred = hitcounter::ui::kTeachWindow;
    view.resize(options.width > 0 ? QSize(options.width, options.height)
                : screenshot      ? preferred
                                  : hitcounter::ui::firstWindowSizeOnScreen(preferred));
    view.show();
    if (screenshot) {
        screenshotLater(view, options, [&view] {
            view.codePanel()->waitForCheck(std::chrono::seconds{60});  // --code: its verdict
            view.renderImage();
        });
    }
    return app.exec();
}

// Writes `json` (one or more states, ui/window/state_json.h) to --state-json's OUT whole or not
// at all: 0, or 1 if it cannot.
int writeStates(const hitcounter::app::GuiOptions& options, const QByteArray& json) {
    QSaveFile out(options.stateJsonFile);
    if (!out.open(QIODevice::WriteOnly) || out.write(json) < 0 || !out.commit()) {
        std::fprintf(stderr, "hitcounter: %s: cannot write the state\n",
                     qPrintable(options.stateJsonFile));
        return 1;
    }
    return 0;
}

// The longest --state-json --seek waits for one seek to be counted (a 10 M-row trace's first
// seek, from the start, takes seconds on a 2-core machine; a stuck one must not hang a script).
constexpr std::chrono::minutes kSeekDeadline{10};

// Seeks the (paused) replay to `target` and waits until the seek's rebuild has been counted
// and drawn: the second the window shows (a seek past the trace's last second shows the
// trace's end: that second, as the replay bar says, docs/gui.md), or std::nullopt after saying
// why on stderr (the trace cannot be replayed, holds no hit, or is not counted to the seek
// within kSeekDeadline).
std::optional<hitcounter::Timestamp> seekAndWait(hitcounter::ui::MainWindow& window,
                                                 hitcounter::Timestamp target) {
    using hitcounter::ReplayState;
    hitcounter::Seekable* replay = window.session()->seekable();
    const QString file = hitcounter::ui::sourceFile(window.session()->spec());
    replay->seek(target);
    const std::uint64_t epoch = replay->epoch();
    hitcounter::Timestamp time = target;
    const auto deadline = std::chrono::steady_clock::now() + kSeekDeadline;
    const auto late = [&] {
        if (std::chrono::steady_clock::now() < deadline)
            return false;
        std::fprintf(stderr, "hitcounter: %s: the seek to %lld was not counted within %lld s\n",
                     qPrintable(file), static_cast<long long>(time),
                     static_cast<long long>(std::chrono::seconds(kSeekDeadline).count()));
        return true;
    };
    for (;;) {
        QCoreApplication::processEvents();
        // Before progress: a last state is seen.
        const bool running = window.session()->source()->running();
        const hitcounter::ReplayProgress progress = replay->progress();
        if (progress.state == ReplayState::Failed || progress.state == ReplayState::Stopped) {
            std::fprintf(stderr, "hitcounter: %s\n",
                         progress.error.empty() ? "the replay stopped" : progress.error.c_str());
            return std::nullopt;
        }
        // Without a hit the replay ends at once and no seek is ever applied.
        if (const QString empty = hitcounter::ui::emptyReplayText(progress, file);
            !empty.isEmpty()) {
            std::fprintf(stderr, "hitcounter: %s\n", qPrintable(empty));
            return std::nullopt;
        }
        if (progress.seeksApplied >= epoch) {
            if (progress.last) {
                time = std::min(time, *progress.last);
            }
            window.session()->tick();  // its problems (a file cut short) said once, on stderr too
            break;
        }
        if (!running) {
            std::fprintf(stderr, "hitcounter: %s: the replay ended before the seek to %lld\n",
                         qPrintable(file), static_cast<long long>(time));
            return std::nullopt;
        }
        if (late())
            return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    // Every rebuild batch is queued by now: a frame built with the queue empty counted them.
    while (!window.waitForFrame(std::chrono::seconds(1), true) ||
           window.views().lastFrame()->streamEpoch != epoch) {
        if (late())
            return std::nullopt;
    }
    return time;
}

// --state-json with --seek T1,T2,...: the seeks one after the other in the running window, as
// a user would make them, and one state per seek (a JSON line with seek_ms) written to OUT
// once all are done. The exit code: 0; 2 if a seek cannot be made (seekAndWait); 1 if OUT
// cannot be written.
int writeStatesWhenSeeked(hitcounter::ui::MainWindow& window,
                          const hitcounter::app::GuiOptions& options) {
    window.session()->pausable()->pause();  // nothing streams past a target
    QByteArray states;
    for (const hitcounter::Timestamp target : options.seeks) {
        const auto requested = std::chrono::steady_clock::now();
        const auto time = seekAndWait(window, target);
        if (!time)
            return 2;
        states +=
            hitcounter::ui::stateJson(window, *time, std::chrono::steady_clock::now() - requested);
    }
    return writeStates(options, states);
}

// --state-json without --seek: the source runs for --after seconds (default 3), then what the
// window shows at its head is written.
int writeStateAfter(hitcounter::ui::MainWindow& window,
                    const hitcounter::app::GuiOptions& options) {
    QEventLoop loop;
    QTimer::singleShot(int(options.screenshotAfterSeconds * 1000), &loop, &QEventLoop::quit);
    loop.exec();
    window.waitForFrame(std::chrono::seconds(2));
    const hitcounter::EngineSnapshot& s = window.views().snapshot();
    const hitcounter::Timestamp time =
        s.empty ? hitcounter::Timestamp(QDateTime::currentSecsSinceEpoch()) : s.head;
    return writeStates(options, hitcounter::ui::stateJson(window, time));
}

}  // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("hitcounter"));
    QApplication::setApplicationName(QStringLiteral("hitcounter"));
    QApplication::setApplicationVersion(QStringLiteral(HITCOUNTER_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/hitcounter/hitcounter.png")));
    // The teaching view's Code tab runs the learner's JavaScript in QJSEngine.
    hitcounter::ui::CodePanel::setDefaultLoader(hitcounter::teachjs::jsCounterLoader());

    QString error;
    const auto options = hitcounter::app::parseGuiOptions(QApplication::arguments(), &error);
    if (!options) {
        if (error.isEmpty()) {
            return 0;
        }
        std::fprintf(stderr, "hitcounter: %s\n", qPrintable(error));
        return 2;
    }

    if (options->teach) {
        return runTeaching(app, *options);
    }

    hitcounter::ui::MainWindow window;
    const bool stateJson = !options->stateJsonFile.isEmpty();
    const bool scripted =
        !options->screenshotFile.isEmpty() || options->benchFrames > 0 || stateJson;
    if (!scripted) {
        QSettings settings;
        for (const QString& problem : window.restoreSettings(settings)) {
            std::fprintf(stderr, "hitcounter: settings: %s\n", qPrintable(problem));
        }
    }
    window.setRemembersFiles(!scripted);  // a scripted run leaves the recent files alone
    if (!options->theme.isEmpty()) {
        window.setThemeName(options->theme);
    }
    if (const auto zone = hitcounter::ui::zoneChoiceFromName(options->timeZone)) {
        window.setTimeZone(*zone);
    }
    if (options->width > 0) {
        window.resize(options->width, options->height);
    }
    if (const auto split = hitcounter::ui::statusSplitFromName(options->statusSplit)) {
        window.livePlot()->setStatusSplit(*split);
    }
    // Explicit options win: a source named on the command line does not inherit the
    // remembered one's settings (gui_options.h).
    const auto spec =
        hitcounter::app::sourceSpecFromOptions(*options, window.session()->spec(), &error);
    if (!spec) {
        std::fprintf(stderr, "hitcounter: %s\n", qPrintable(error));
        return 2;
    }
    // The Rate limits lab, from the source's start (before it starts: nothing to re-run).
    if (options->limitsSet) {
        hitcounter::LimitsOptions limits;
        limits.enabled = true;
        limits.limit = hitcounter::RateLimit{hitcounter::Count(options->limit),
                                             std::chrono::seconds(options->per)};
        limits.perKey = options->perKey;
        if (!options->algorithms.empty()) {
            limits.algorithms = options->algorithms;
        }
        if (!window.limitsLab()->apply(limits)) {
            std::fprintf(stderr, "hitcounter: %s\n", qPrintable(window.errorText()));
            return 2;
        }
    }
    if (options->view == QLatin1String("limits")) {
        window.showLimitsView();
    }
    if (stateJson) {
        // The window is never shown, so its error banner is not visible: keep the message.
        QString startError;
        const QMetaObject::Connection keep =
            QObject::connect(window.session(), &hitcounter::ui::SourceSession::errorOccurred,
                             [&startError](const QString& message) { startError = message; });
        const bool started = window.startSpec(*spec);
        QObject::disconnect(keep);
        if (!started) {
            std::fprintf(
                stderr, "hitcounter: %s\n",
                qPrintable(
                    startError.isEmpty()
                        ? QStringLiteral("cannot start the %1").arg(hitcounter::ui::kindName(*spec))
                        : startError));
            return 2;
        }
        if (options->seeks.empty()) {
            return writeStateAfter(window, *options);
        }
        return writeStatesWhenSeeked(window, *options);
    }
    window.show();
    // A source that cannot start (a taken port, a missing file) leaves the window open with
    // the error shown, so the user can pick another.
    if (window.startSpec(*spec) && window.session()->seekable()) {
        for (const hitcounter::Timestamp target : options->seeks) {
            // One after the other: the last one wins.
            window.session()->seekable()->seek(target);
        }
    }
    if (options->view == QLatin1String("fleet")) {
        window.showFleetView();
    }

    if (options->benchFrames > 0) {
        auto* bench = new hitcounter::app::FrameBench(window, options->benchFrames);
        QObject::connect(bench, &hitcounter::app::FrameBench::finished, &app, &QApplication::quit);
    }
    if (!options->screenshotFile.isEmpty()) {
        screenshotLater(window, *options, [&window] { window.renderNow(); });
    }
    return app.exec();
}
