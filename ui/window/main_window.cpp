#include "ui/window/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QLocale>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <tuple>

#include <QDockWidget>
#include <QScreen>

#include <thread>

#include "core/sources/replay_source.h"
#include "core/time/wall_clock.h"
#include "ui/common/frame_view.h"
#include "ui/common/settings_reader.h"
#include "ui/common/theme.h"
#include "ui/common/window_fit.h"
#include "ui/fleet/fleet_view.h"
#include "ui/limits/limits_lab.h"
#include "ui/limits/limits_view.h"
#include "ui/monitor/bad_lines_view.h"
#include "ui/monitor/clock_skew_banner.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/monitor/monitor_page.h"
#include "ui/monitor/overload_banner.h"
#include "ui/monitor/plot_tools.h"
#include "ui/monitor/policy_comparison.h"
#include "ui/monitor/ring_histogram.h"
#include "ui/monitor/threshold_alerts.h"
#include "ui/plot/plot_export.h"
#include "ui/sources/file_drop.h"
#include "ui/sources/load_progress.h"
#include "ui/sources/recent_files.h"
#include "ui/sources/replay_bar.h"
#include "ui/sources/replay_tool_bar.h"
#include "ui/sources/source_session.h"
#include "ui/sources/sources_dock.h"
#include "ui/sources/sources_panel.h"
#include "ui/teach/teach_view.h"
#include "ui/window/error_banner.h"
#include "ui/window/main_tool_bar.h"
#include "ui/window/shortcut_list.h"
#include "ui/window/status_feed.h"
#include "ui/window/view_fan_out.h"
#include "ui/window/window_state.h"
#include "ui/window/window_status.h"

namespace hitcounter::ui {

namespace {
constexpr int kFrameIntervalMs = 33;  // 30 Hz

}  // namespace

MainWindow::MainWindow(std::shared_ptr<Clock> clock, QWidget* parent)
    : QMainWindow(parent),
      m_session(std::make_unique<SourceSession>(
          m_queue, m_worker, clock ? std::move(clock) : std::make_shared<WallClock>())) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("hitcounter"));
    setWindowIcon(QIcon(QStringLiteral(":/hitcounter/hitcounter.png")));

    buildPages();
    buildFileOpeners();
    buildToolBar();
    buildPlotTools();
    // Every view of the engine's frames: each gets the frame, the theme and the time axis.
    m_views = std::make_unique<ViewFanOut>(
        std::vector<FrameView*>{m_live, m_ring, m_comparison, m_items, m_alerts, m_limitsView});
    buildSourceControls();
    buildStatusBar();
    applyTimeZone();
    setThemeName(m_themeName);
    connectViewsToWorker();
    m_worker.start();
    startFrames();

    // The first window fits the screen it opens on (1280x720 upward; 1024x768 usable).
    const QScreen* screen = QGuiApplication::primaryScreen();
    resize(firstWindowSize(screen ? screen->availableGeometry() : QRect()));
}

MainWindow::~MainWindow() {
    stopSource();
    m_session->setRecording(QString());
    m_worker.stop();
}

void MainWindow::buildPages() {
    m_monitor = new MonitorPage;
    m_live = m_monitor->live();
    m_ring = m_monitor->ring();
    m_comparison = m_monitor->comparison();
    m_items = m_monitor->items();

    m_errorBanner = new ErrorBanner;

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_errorBanner);
    m_overload = new OverloadBanner;
    layout->addWidget(m_overload);
    m_clockSkew = new ClockSkewBanner;
    layout->addWidget(m_clockSkew);
    // The monitor's views in one tab, the Rate limits lab in the next.
    m_limitsView = new LimitsView;
    m_limitsView->setMinimumWidth(520);  // its natural minimum would widen the whole window
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_monitor, tr("Monitor"));
    m_tabs->addTab(m_limitsView, tr("Rate limits"));
    m_tabs->setTabToolTip(1, tr("Rate limiters (fixed window, sliding log, sliding counter, "
                                "token bucket) deciding the same traffic side by side"));
    m_fleetView = new FleetView;
    m_tabs->addTab(m_fleetView, tr("Fleet"));
    m_tabs->setTabToolTip(2, tr("The whole fleet's counts, instances and Redis nodes, read from "
                                "the fleet's Redis (Fleet (Redis) in the sources dock)"));
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (m_tabs->widget(index) == m_limitsView) {
            showLimitsView();
        }
    });
    m_limitsLab = new LimitsLab(*m_limitsView, m_worker, *m_session, this);
    connect(m_limitsLab, &LimitsLab::errorOccurred, this, &MainWindow::showError);
}

void MainWindow::buildFileOpeners() {
    // Recent files and dropped files open as File > Open does.
    m_recent = new RecentFiles({}, this);
    connect(m_recent, &RecentFiles::openRequested, this, &MainWindow::openFile);
    connect(m_recent, &RecentFiles::missing, this, [this](const QStringList& files) {
        statusBar()->showMessage(
            tr("Removed from the recent files (no longer there): %1").arg(files.join(", ")), 10000);
    });
    new FileDrop(*this, [this](const QString& file) { openFile(file); });
}

void MainWindow::buildPlotTools() {
    addToolBarBreak();
    m_plotTools = new PlotToolBar(*m_live);
    addToolBar(m_plotTools);
    // The time plots (the ring histogram has its own hover tooltip per slot).
    for (QCustomPlot* plot : {static_cast<QCustomPlot*>(m_live), m_comparison->plot(),
                              m_items->plot(), m_limitsView->plot()}) {
        installPlotTools(*plot);
    }
    m_alerts = new ThresholdAlerts(*m_live);
    connect(m_alerts, &ThresholdAlerts::crossed, this,
            [this](const ThresholdCrossing& c, const QString&) {
                // Short: the permanent widgets leave the message little room.
                statusBar()->showMessage(
                    tr("Alert: %1 %2 %3")
                        .arg(QString::fromStdString(c.series),
                             c.direction == CrossingDirection::Up ? QStringLiteral("↑")
                                                                  : QStringLiteral("↓"),
                             QLocale().toString(qulonglong(c.threshold))),
                    8000);
            });
}

void MainWindow::connectViewsToWorker() {
    connect(m_items, &ItemsPanel::keyViewChanged, this,
            [this](const std::string& key, std::chrono::seconds level) {
                m_worker.setKeyView(key, level, m_items->moreKeys());
            });
    connect(m_items, &ItemsPanel::keyFilterChanged, this,
            [this](const QString& text) { m_worker.setKeyFilter(text.toStdString()); });
    // Threshold alerts: watched keys are counted every frame by the counting thread.
    connect(m_alerts, &ThresholdAlerts::watchedKeysChanged, this,
            [this](const std::vector<std::string>& keys) { m_worker.setWatchedKeys(keys); });
    connect(m_items, &ItemsPanel::keyViewChanged, m_alerts,
            [this](const std::string& key) { m_alerts->offerKey(QString::fromStdString(key)); });
}

void MainWindow::startFrames() {
    m_frameTimer.setTimerType(Qt::PreciseTimer);
    m_frameTimer.setInterval(kFrameIntervalMs);
    connect(&m_frameTimer, &QTimer::timeout, this, &MainWindow::frame);
    m_frameTimer.start();
}

void MainWindow::buildToolBar() {
    m_toolBar = new MainToolBar(*m_live, *m_recent);
    addToolBar(m_toolBar);
    connect(m_toolBar, &MainToolBar::pauseToggled, this, &MainWindow::setPaused);
    connect(m_toolBar, &MainToolBar::windowChosen, this, &MainWindow::setWindowSeconds);
    connect(m_toolBar, &MainToolBar::bucketChosen, this, &MainWindow::setBucketSeconds);
    connect(m_toolBar, &MainToolBar::openRequested, this, &MainWindow::openTrace);
    connect(m_toolBar, &MainToolBar::snapshotRequested, this, &MainWindow::snapshotInteractive);
    connect(m_toolBar, &MainToolBar::darkToggled, this, [this](bool dark) {
        setThemeName(dark ? QStringLiteral("dark") : QStringLiteral("light"));
    });
    connect(m_toolBar, &MainToolBar::teachRequested, this, &MainWindow::showTeachView);
    connect(m_toolBar, &MainToolBar::shortcutsRequested, this,
            [this] { showShortcutDialog(*this); });
}

void MainWindow::showTeachView() {
    // One teaching window per main window, kept (with its step) when closed.
    auto* view = findChild<TeachView*>();
    if (!view) {
        view = new TeachView(this);
        view->setWindowFlag(Qt::Window);
        view->resize(firstWindowSizeOnScreen(kTeachWindow));  // 1024x768 too
    }
    view->show();
    view->raise();
    view->activateWindow();
}

void MainWindow::buildStatusBar() {
    m_status = new WindowStatus(*statusBar());
    m_statusFeed = std::make_unique<StatusFeed>(
        StatusInputs{*m_session, m_queue, m_worker, *m_views, *m_fleetView},
        StatusOutputs{*m_status, *m_sourcesDock, *m_badLines, *m_overload, *m_clockSkew});
    connect(m_status, &WindowStatus::zoneChosen, this, &MainWindow::setTimeZone);
    updateStatusBar();
}

void MainWindow::buildSourceControls() {
    m_sourcesDock = new SourcesDock(*m_session);
    addDockWidget(Qt::LeftDockWidgetArea, m_sourcesDock);
    // The alerts and every source's bad lines in one table (time, source, sender or
    // file:line, problem, line): tabs behind the sources, movable and floatable, not closable.
    m_badLines = new BadLinesView;
    QDockWidget* behind = m_sourcesDock;
    for (const auto& [title, name, widget] :
         {std::tuple{tr("Alerts"), "alertsDock", static_cast<QWidget*>(m_alerts)},
          std::tuple{tr("Bad lines"), "badLinesDock", static_cast<QWidget*>(m_badLines)}}) {
        auto* dock = new QDockWidget(title);
        dock->setObjectName(QLatin1String(name));
        dock->setWidget(widget);
        dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
        addDockWidget(Qt::LeftDockWidgetArea, dock);
        tabifyDockWidget(behind, dock);
        behind = dock;
    }
    m_sourcesDock->raise();
    connect(m_sourcesDock, &SourcesDock::startRequested, this,
            [this](const SourceSpec& spec) { startSpec(spec); });
    connect(m_sourcesDock, &SourcesDock::stopRequested, this, &MainWindow::stopSource);
    connect(m_sourcesDock, &SourcesDock::openTraceRequested, this, &MainWindow::openTrace);

    m_replayToolBar = new ReplayToolBar(*m_session);
    addToolBar(Qt::BottomToolBarArea, m_replayToolBar);
    new LoadProgress(*m_session, *this);
    connectSession();
}

void MainWindow::connectSession() {
    connect(m_session.get(), &SourceSession::viewsReset, this, [this](TimeAxisMode mode) {
        m_items->clear();
        // The live plot finds its own wrap (LivePlot::setReplayTrace(), followTraceWrap()).
        m_live->setTimeAxisMode(mode);
        m_views->resetTimeAxis(mode);
        m_live->setFollowing(true);
    });
    connect(m_session.get(), &SourceSession::started, this, [this](const QString& description) {
        m_errorBanner->dismiss();
        m_badLines->clear();
        statusBar()->showMessage(tr("Started %1").arg(description), 4000);
    });
    connect(m_session.get(), &SourceSession::specShown, this, [this] {
        applyTimeZone();  // the new source's log offset
        const Source* source = m_session->source();
        m_items->setVisitorNote(source ? QString::fromStdString(source->visitorNote()) : QString());
    });
    connect(m_session.get(), &SourceSession::errorOccurred, this, &MainWindow::showError);
    connect(m_session.get(), &SourceSession::statusMessage, this,
            [this](const QString& message, int ms) { statusBar()->showMessage(message, ms); });
    connect(m_session.get(), &SourceSession::replayProgress, this,
            [this](const ReplayProgress& progress, Timestamp, bool paused) {
                m_live->setReplayTrace(progress.first, progress.last, progress.loops > 0);
                m_views->followTraceWrap(m_session->timeMode(), m_live->traceWrap());
                // A replay pauses itself (setPaused): the toolbar shows its state, whoever
                // paused or started it (the replay bar, a newly opened trace).
                m_paused = false;
                m_toolBar->showPaused(paused);
            });
}

void MainWindow::stopSource() {
    m_fleetView->disconnectFromRedis();
    m_session->stop();
}

SourcesPanel* MainWindow::sourcesPanel() const {
    return m_sourcesDock->panel();
}

ReplayBar* MainWindow::replayBar() const {
    return m_replayToolBar->bar();
}

bool MainWindow::startSpec(const SourceSpec& spec) {
    if (spec.kind != SourceSpec::Kind::Redis) {
        SourceSpec started = spec;
        if (spec.kind == SourceSpec::Kind::Simulator && spec.warmup.count() > 0) {
            // The warm-up fills the current window W, however long (1 h: a few seconds).
            started.warmup =
                std::max(spec.warmup, m_worker.options().window + std::chrono::seconds(60));
        }
        if (!m_session->startSpec(started)) {
            return false;  // what ran runs on (a fleet watched stays watched)
        }
        m_fleetView->disconnectFromRedis();
        const bool file =
            spec.kind == SourceSpec::Kind::Replay || spec.kind == SourceSpec::Kind::Follow;
        if (file && m_remembersFiles) {
            m_recent->add(spec.file);  // only files that opened
        }
        return true;
    }
    // The fleet view reads Redis on its own thread; no hits reach the engine meanwhile.
    if (const QString problem = FleetView::urlProblem(spec.redisUrl); !problem.isEmpty()) {
        showError(tr("Fleet: %1").arg(problem));  // a typo does not stop what runs
        return false;
    }
    m_session->stop();
    m_session->setSpec(spec);
    const bool ok = m_fleetView->connectTo(spec.redisUrl);
    if (ok) {
        m_errorBanner->dismiss();
    } else {
        showError(tr("Fleet: %1").arg(m_fleetView->statusText()));
    }
    m_sourcesDock->panel()->showSpec(spec, ok);
    showFleetView();
    return ok;
}

void MainWindow::showFleetView() {
    m_tabs->setCurrentWidget(m_fleetView);
}

void MainWindow::openTrace() {
    const QString dir = m_session->traceDirectory(
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open trace or access log"), dir,
        tr("Recorded hits (*.csv *.log *.gz *.json *.jsonl *access*);;Trace CSV (*.csv);;"
           "All files (*)"));
    if (!file.isEmpty()) {
        openFile(file);
    }
}

void MainWindow::openFile(const QString& file) {
    startSpec(m_session->traceSpec(file));
}

void MainWindow::setTimeZone(ZoneChoice choice) {
    m_zoneChoice = choice;
    applyTimeZone();
}

void MainWindow::applyTimeZone() {
    ZoneSetting::instance().setZone(resolveZone(m_zoneChoice, m_session->logUtcOffset()));
    const DisplayZone& zone = shownZone();
    const Timestamp at = m_views->snapshot().empty ? Timestamp(QDateTime::currentSecsSinceEpoch())
                                                   : m_views->snapshot().head;
    m_status->showZone(zone, m_zoneChoice, at);
    m_replayToolBar->bar()->update();
}

void MainWindow::showError(const QString& message) {
    m_errorBanner->showError(message);
    statusBar()->showMessage(message, 10000);
}

QString MainWindow::errorText() const {
    return m_errorBanner->error();
}

void MainWindow::frame() {
    Q_EMIT frameStarted();
    m_session->tick();
    if (m_paused) {
        updateStatusBar();
        return;
    }
    std::shared_ptr<const EngineFrame> next = m_worker.takeFrame();
    if (!next) {
        updateStatusBar();
        return;
    }
    draw(std::move(next));
    Q_EMIT frameDrawn();
}

void MainWindow::draw(std::shared_ptr<const EngineFrame> frame) {
    m_views->show(std::move(frame), m_session->timeMode(), m_worker.options().historySeconds);
    updateStatusBar();
}

bool MainWindow::waitForFrame(std::chrono::milliseconds patience, bool idle) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    const std::uint64_t ticket = m_worker.requestFrame();
    while (std::chrono::steady_clock::now() < deadline) {
        if (auto frame = m_worker.takeFrame()) {
            const bool fresh = frame->ticket >= ticket && (!idle || frame->idle);
            draw(std::move(frame));
            if (fresh) {
                return true;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

void MainWindow::renderNow() {
    waitForFrame(std::chrono::milliseconds(500), true);
    m_views->replotNow();
    m_fleetView->refresh();
    m_fleetView->plot()->replot(QCustomPlot::rpImmediateRefresh);
}

QList<QCustomPlot*> MainWindow::plots() const {
    return {m_live, m_ring, m_comparison->plot(), m_items->plot()};
}

void MainWindow::updateStatusBar() {
    m_statusFeed->update(m_toolBar->pausedShown());
}

void MainWindow::setPaused(bool paused) {
    if (ReplaySource* replay = m_session->replay()) {
        // A replay pauses itself: its views have nothing new to show meanwhile.
        paused ? replay->pause() : replay->play();
    } else {
        m_paused = paused;
    }
    m_toolBar->showPaused(paused);
}

void MainWindow::setWindowSeconds(int seconds) {
    EngineOptions options = m_worker.options();
    options.window = std::chrono::seconds(seconds);
    QString message;
    if (m_session->replay() != nullptr) {
        m_items->clear();
        m_worker.setOptions(options);
        m_session->restartCounters();  // a replay rebuilds the new window from the start
        message = tr("Window set to %1 s: rebuilt by re-running the trace to here");
    } else {
        // A live stream keeps its past: the counters are refilled from the history's seconds
        // (the last hour) and the per-key counts keep their own hour, so the plots, the counts
        // and the items go on.
        m_worker.rewindow(options);
        message =
            tr("Window set to %1 s: the counters were refilled from the last hour's "
               "per-second history; the items keep their counts");
    }
    m_toolBar->showWindowSeconds(seconds);
    statusBar()->showMessage(message.arg(seconds), 6000);
}

void MainWindow::showLimitsView() {
    if (m_tabs->currentWidget() != m_limitsView) {
        m_tabs->setCurrentWidget(m_limitsView);  // comes back here through currentChanged
        return;
    }
    m_limitsLab->opened();
}

void MainWindow::setBucketSeconds(int seconds) {
    m_ring->setBucketSeconds(seconds);
    m_toolBar->showBucketSeconds(seconds);
}

void MainWindow::setThemeName(const QString& name) {
    m_themeName = name == QLatin1String("dark") ? name : QStringLiteral("light");
    const Theme theme = themeNamed(m_themeName);
    if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance())) {
        applyTheme(*app, theme);
    }
    m_fleetView->applyTheme(theme);
    m_clockSkew->applyTheme(theme.dark);
    m_views->applyTheme(theme);
    if (m_toolBar) {
        m_toolBar->showDark(theme.dark);
    }
}

void MainWindow::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    m_monitor->saveLayout(settings);
    settings.setValue(QStringLiteral("view/theme"), m_themeName);
    settings.setValue(QStringLiteral("view/windowSeconds"),
                      qlonglong(m_worker.options().window.count()));
    settings.setValue(QStringLiteral("view/bucketSeconds"), m_ring->bucketSeconds());
    m_views->saveSettings(settings);
    settings.setValue(QStringLiteral("view/tab"), m_tabs->currentWidget() == m_limitsView
                                                      ? QStringLiteral("limits")
                                                      : QStringLiteral("monitor"));
    settings.setValue(QStringLiteral("view/logY"), m_live->logY());
    settings.setValue(QStringLiteral("view/timeZone"), zoneChoiceName(m_zoneChoice));
    m_session->spec().save(settings);
}

QStringList MainWindow::restoreSettings(QSettings& stored) {
    SettingsReader settings(stored);
    settings.layout(QStringLiteral("window/geometry"),
                    [this](const QByteArray& b) { return restoreGeometry(b); });
    fitIntoScreen(*this);  // a geometry saved on a larger screen
    settings.layout(QStringLiteral("window/state"),
                    [this](const QByteArray& b) { return restoreState(b); });
    m_monitor->restoreLayout(settings);
    setThemeName(settings.oneOf(QStringLiteral("view/theme"), m_themeName,
                                {QStringLiteral("light"), QStringLiteral("dark")}));
    // W is at most the history the engine keeps: the counters are refilled from it.
    const auto window = int(settings.wholeNumber(
        QStringLiteral("view/windowSeconds"), 300, 1,
        qlonglong(std::min<std::size_t>(m_worker.options().historySeconds, 3600))));
    if (window != m_worker.options().window.count()) {
        setWindowSeconds(window);
    }
    setBucketSeconds(int(settings.wholeNumber(QStringLiteral("view/bucketSeconds"), 1, 1, 3600)));
    m_views->restoreSettings(settings);
    if (settings.oneOf(QStringLiteral("view/tab"), QStringLiteral("monitor"),
                       {QStringLiteral("monitor"), QStringLiteral("limits")}) ==
        QLatin1String("limits")) {
        showLimitsView();
    }
    m_plotTools->logYAction()->setChecked(settings.flag(QStringLiteral("view/logY"), false));
    QStringList zones;
    for (ZoneChoice zone : {ZoneChoice::Utc, ZoneChoice::Local, ZoneChoice::Log}) {
        zones << zoneChoiceName(zone);
    }
    setTimeZone(zoneChoiceFromName(settings.oneOf(QStringLiteral("view/timeZone"),
                                                  zoneChoiceName(ZoneChoice::Local), zones))
                    .value_or(ZoneChoice::Local));
    m_session->setSpec(SourceSpec::load(settings));
    m_sourcesDock->panel()->showSpec(m_session->spec(), false);
    stored.sync();  // the values reset are stored at once, not only at the next close
    if (!settings.problems().isEmpty()) {
        showError(tr("Settings: %1").arg(settings.problems().join(QStringLiteral("; "))));
    }
    return settings.problems();
}

bool MainWindow::snapshotTo(const QString& directory, QString* error) {
    renderNow();
    return writeSnapshot(directory, *this, m_views->snapshot(), m_views->history(),
                         windowSettingsUsed(*this), error);
}

void MainWindow::snapshotInteractive() {
    const QString base = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    const QString dir =
        QDir(base).filePath(QStringLiteral("hitcounter-") + QDateTime::currentDateTime().toString(
                                                                QStringLiteral("yyyyMMdd-HHmmss")));
    QString error;
    if (snapshotTo(dir, &error)) {
        statusBar()->showMessage(tr("Snapshot saved in %1").arg(dir), 8000);
    } else {
        showError(error);
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    saveSettings(settings);
    stopSource();
    QMainWindow::closeEvent(event);
}

}  // namespace hitcounter::ui
