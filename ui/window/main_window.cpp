#include "ui/window/main_window.h"

#include <QCloseEvent>
#include <QDateTime>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include "core/sources/source_capabilities.h"
#include "core/time/wall_clock.h"
#include "ui/common/settings_reader.h"
#include "ui/common/window_fit.h"
#include "ui/fleet/fleet_view.h"
#include "ui/limits/limits_lab.h"
#include "ui/limits/limits_view.h"
#include "ui/monitor/bad_lines_view.h"
#include "ui/monitor/clock_skew_banner.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/monitor/plot_tools.h"
#include "ui/monitor/policy_comparison.h"
#include "ui/monitor/ring_histogram.h"
#include "ui/monitor/threshold_alerts.h"
#include "ui/plot/plot_export.h"
#include "ui/sources/file_opener.h"
#include "ui/sources/load_progress.h"
#include "ui/sources/recent_files.h"
#include "ui/sources/replay_bar.h"
#include "ui/sources/replay_tool_bar.h"
#include "ui/sources/source_session.h"
#include "ui/sources/sources_dock.h"
#include "ui/sources/sources_panel.h"
#include "ui/window/error_banner.h"
#include "ui/window/frame_loop.h"
#include "ui/window/main_tool_bar.h"
#include "ui/window/shortcut_list.h"
#include "ui/window/side_docks.h"
#include "ui/window/source_starter.h"
#include "ui/window/status_feed.h"
#include "ui/window/teach_window.h"
#include "ui/window/theme_choice.h"
#include "ui/window/time_zone_choice.h"
#include "ui/window/view_fan_out.h"
#include "ui/window/window_state.h"
#include "ui/window/window_status.h"

namespace hitcounter::ui {

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
    m_views = std::make_unique<ViewFanOut>(std::vector<FrameView*>{
        livePlot(), ringHistogram(), comparison(), itemsPanel(), m_alerts, limitsView()});
    m_frames = new FrameLoop(
        m_worker, *m_session, *m_views, [this] { updateStatusBar(); }, this);
    buildSourceControls();
    buildStatusBar();
    m_zone->apply();
    m_theme = std::make_unique<ThemeChoice>(*m_views, *fleetView(), *clockSkewBanner(), *m_toolBar);
    m_theme->set(m_theme->name());
    connectViewsToWorker();
    m_worker.start();
    m_frames->start();

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
    m_pages = new WindowPages;
    setCentralWidget(m_pages);
    m_limitsLab = new LimitsLab(*limitsView(), m_worker, *m_session, this);
    connect(m_pages, &WindowPages::limitsOpened, m_limitsLab, &LimitsLab::opened);
    connect(m_limitsLab, &LimitsLab::errorOccurred, this, &MainWindow::showError);
}

void MainWindow::buildFileOpeners() {
    m_files = new FileOpener(*this, *m_session);
    m_recent = m_files->recent();
    connect(m_files, &FileOpener::openRequested, this, &MainWindow::openFiles);
    connect(m_files, &FileOpener::statusMessage, statusBar(), &QStatusBar::showMessage);
}

void MainWindow::buildPlotTools() {
    addToolBarBreak();
    m_plotTools = new PlotToolBar(*livePlot());
    addToolBar(m_plotTools);
    // The time plots (the ring histogram has its own hover tooltip per slot).
    for (QCustomPlot* plot : {static_cast<QCustomPlot*>(livePlot()), comparison()->plot(),
                              itemsPanel()->plot(), limitsView()->plot()}) {
        installPlotTools(*plot);
    }
    m_alerts = new ThresholdAlerts(*livePlot());
    connect(m_alerts, &ThresholdAlerts::crossed, this,
            [this](const ThresholdCrossing& crossing, const QString&) {
                // Short: the permanent widgets leave the message little room.
                statusBar()->showMessage(ThresholdAlerts::summary(crossing), 8000);
            });
}

void MainWindow::connectViewsToWorker() {
    ItemsPanel* items = itemsPanel();
    connect(items, &ItemsPanel::keyViewChanged, this,
            [this, items](const std::string& key, std::chrono::seconds level) {
                m_worker.setKeyView(key, level, items->moreKeys());
            });
    connect(items, &ItemsPanel::keyFilterChanged, this,
            [this](const QString& text) { m_worker.setKeyFilter(text.toStdString()); });
    // Threshold alerts: watched keys are counted every frame by the counting thread.
    connect(m_alerts, &ThresholdAlerts::watchedKeysChanged, this,
            [this](const std::vector<std::string>& keys) { m_worker.setWatchedKeys(keys); });
    connect(items, &ItemsPanel::keyViewChanged, m_alerts,
            [this](const std::string& key) { m_alerts->offerKey(QString::fromStdString(key)); });
}

void MainWindow::buildToolBar() {
    m_toolBar = new MainToolBar(*livePlot(), *m_recent);
    addToolBar(m_toolBar);
    connect(m_toolBar, &MainToolBar::pauseToggled, this, &MainWindow::setPaused);
    connect(m_toolBar, &MainToolBar::windowChosen, this, &MainWindow::setWindowSeconds);
    connect(m_toolBar, &MainToolBar::bucketChosen, this, &MainWindow::setBucketSeconds);
    connect(m_toolBar, &MainToolBar::openRequested, this, &MainWindow::openTrace);
    connect(m_toolBar, &MainToolBar::snapshotRequested, this, &MainWindow::snapshotInteractive);
    connect(m_toolBar, &MainToolBar::darkToggled, this, [this](bool dark) {
        setThemeName(dark ? QStringLiteral("dark") : QStringLiteral("light"));
    });
    connect(m_toolBar, &MainToolBar::teachRequested, this, [this] { showTeachWindow(*this); });
    connect(m_toolBar, &MainToolBar::shortcutsRequested, this,
            [this] { showShortcutDialog(*this); });
}

void MainWindow::buildStatusBar() {
    m_status = new WindowStatus(*statusBar());
    m_statusFeed = std::make_unique<StatusFeed>(
        StatusInputs{*m_session, m_queue, m_worker, *m_views, *fleetView()},
        StatusOutputs{*m_status, *m_sourcesDock, *m_badLines, *overloadBanner(),
                      *clockSkewBanner()});
    m_zone = std::make_unique<TimeZoneChoice>(*m_session, *m_views, *m_status, *replayBar());
    connect(m_status, &WindowStatus::zoneChosen, this, &MainWindow::setTimeZone);
    updateStatusBar();
}

void MainWindow::buildSourceControls() {
    m_starter = new SourceStarter(*m_session, *fleetView(), *m_recent, this);
    connect(m_starter, &SourceStarter::errorOccurred, this, &MainWindow::showError);
    connect(m_starter, &SourceStarter::fleetTried, this,
            [this](const SourceSpec& spec, bool watching) {
                if (watching) {
                    m_pages->errorBanner()->dismiss();
                }
                m_sourcesDock->panel()->showSpec(spec, watching);
                showFleetView();
            });
    m_sourcesDock = new SourcesDock(*m_session);
    m_badLines = new BadLinesView;
    addSideDocks(*this, *m_sourcesDock, *m_alerts, *m_badLines);
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
        itemsPanel()->clear();
        // The live plot finds its own wrap (LivePlot::setReplayTrace(), followTraceWrap()).
        livePlot()->setTimeAxisMode(mode);
        m_views->resetTimeAxis(mode);
        livePlot()->setFollowing(true);
    });
    connect(m_session.get(), &SourceSession::started, this, [this](const QString& description) {
        m_pages->errorBanner()->dismiss();
        m_badLines->clear();
        statusBar()->showMessage(tr("Started %1").arg(description), 4000);
    });
    connect(m_session.get(), &SourceSession::specShown, this, [this] {
        m_zone->apply();  // the new source's log offset
        const Source* source = m_session->source();
        itemsPanel()->setVisitorNote(source ? QString::fromStdString(source->visitorNote())
                                            : QString());
    });
    connect(m_session.get(), &SourceSession::errorOccurred, this, &MainWindow::showError);
    connect(m_session.get(), &SourceSession::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_session.get(), &SourceSession::replayProgress, this,
            [this](const ReplayProgress& progress, Timestamp, bool paused) {
                livePlot()->setReplayTrace(progress.first, progress.last, progress.loops > 0);
                m_views->followTraceWrap(m_session->timeMode(), livePlot()->traceWrap());
                // A replay pauses itself (setPaused): the toolbar shows its state, whoever
                // paused or started it (the replay bar, a newly opened trace).
                m_frames->setHeld(false);
                m_toolBar->showPaused(paused);
            });
}

void MainWindow::stopSource() {
    m_starter->stop();
}

SourcesPanel* MainWindow::sourcesPanel() const {
    return m_sourcesDock->panel();
}

ReplayBar* MainWindow::replayBar() const {
    return m_replayToolBar->bar();
}

bool MainWindow::startSpec(const SourceSpec& spec) {
    return m_starter->start(spec);
}

void MainWindow::setRemembersFiles(bool remember) {
    m_starter->setRemembersFiles(remember);
}

void MainWindow::showFleetView() {
    m_pages->showFleet();
}

void MainWindow::openTrace() {
    m_files->ask();
}

void MainWindow::openFiles(const QStringList& files) {
    startSpec(m_session->traceSpec(files));
}

void MainWindow::setTimeZone(ZoneChoice choice) {
    m_zone->set(choice);
}

ZoneChoice MainWindow::timeZone() const {
    return m_zone->choice();
}

void MainWindow::showError(const QString& message) {
    m_pages->errorBanner()->showError(message);
    statusBar()->showMessage(message, 10000);
}

QString MainWindow::errorText() const {
    return m_pages->errorBanner()->error();
}

void MainWindow::frame() {
    m_frames->frame();
}

bool MainWindow::waitForFrame(std::chrono::milliseconds patience, bool idle) {
    return m_frames->waitForFrame(patience, idle);
}

void MainWindow::renderNow() {
    waitForFrame(std::chrono::milliseconds(500), true);
    m_views->replotNow();
    fleetView()->refresh();
    fleetView()->plot()->replot(QCustomPlot::rpImmediateRefresh);
}

QList<QCustomPlot*> MainWindow::plots() const {
    return {livePlot(), ringHistogram(), comparison()->plot(), itemsPanel()->plot()};
}

void MainWindow::updateStatusBar() {
    m_statusFeed->update(m_toolBar->pausedShown());
}

void MainWindow::setPaused(bool paused) {
    if (Pausable* stream = m_session->pausable()) {
        // A replay pauses itself: its views have nothing new to show meanwhile.
        paused ? stream->pause() : stream->play();
    } else {
        m_frames->setHeld(paused);
    }
    m_toolBar->showPaused(paused);
}

void MainWindow::setWindowSeconds(int seconds) {
    if (m_session->setWindow(std::chrono::seconds(seconds))) {
        itemsPanel()->clear();  // a replay rebuilds its items with the window
    }
    m_toolBar->showWindowSeconds(seconds);
}

void MainWindow::showLimitsView() {
    m_pages->showLimits();
}

void MainWindow::setBucketSeconds(int seconds) {
    ringHistogram()->setBucketSeconds(seconds);
    m_toolBar->showBucketSeconds(seconds);
}

void MainWindow::setThemeName(const QString& name) {
    m_theme->set(name);
}

QString MainWindow::themeName() const {
    return m_theme->name();
}

bool MainWindow::paused() const {
    return m_frames->held();
}

void MainWindow::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("view/windowSeconds"),
                      qlonglong(m_worker.options().window.count()));
    settings.setValue(QStringLiteral("view/bucketSeconds"), ringHistogram()->bucketSeconds());
    m_theme->saveSettings(settings);
    m_views->saveSettings(settings);
    m_pages->saveSettings(settings);
    m_plotTools->saveSettings(settings);
    m_zone->saveSettings(settings);
    m_session->specs().save(settings);
}

QStringList MainWindow::restoreSettings(QSettings& stored) {
    SettingsReader settings(stored);
    settings.layout(QStringLiteral("window/geometry"),
                    [this](const QByteArray& b) { return restoreGeometry(b); });
    fitIntoScreen(*this);  // a geometry saved on a larger screen
    settings.layout(QStringLiteral("window/state"),
                    [this](const QByteArray& b) { return restoreState(b); });
    m_theme->restoreSettings(settings);
    // W is at most the history the engine keeps: the counters are refilled from it.
    const auto window = int(settings.wholeNumber(
        QStringLiteral("view/windowSeconds"), 300, 1,
        qlonglong(std::min<std::size_t>(m_worker.options().historySeconds, 3600))));
    if (window != m_worker.options().window.count()) {
        setWindowSeconds(window);
    }
    setBucketSeconds(int(settings.wholeNumber(QStringLiteral("view/bucketSeconds"), 1, 1, 3600)));
    m_views->restoreSettings(settings);
    m_pages->restoreSettings(settings);  // after the views: the lab opens with the tab's settings
    m_plotTools->restoreSettings(settings);
    m_zone->restoreSettings(settings);
    m_session->setSpecs(SourceSpecs::load(settings));
    m_sourcesDock->panel()->showSpecs(m_session->specs());
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
    const QString dir =
        newSnapshotDirectory(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation),
                             QDateTime::currentDateTime());
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
