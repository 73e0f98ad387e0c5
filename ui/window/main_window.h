// MainWindow: the monitor. Owns the BatchQueue, the counting thread (EngineWorker) and the
// SourceSession (the source lifecycle: start, stop, seek, record, warm-up, load progress),
// wires them to the views and redraws every view from one frame timer.
//
// GUI thread only. Sources push batches into m_queue; the EngineWorker counts them on its own
// thread and hands back one EngineFrame (values) per frame request. Each frame (30 Hz) takes
// the newest frame, hands it to every view (each queues one replot) and refreshes the status
// bar: its cost does not depend on the ingest rate. Resets (a source change, a replay seek)
// travel through m_queue as epoch markers, so every view restarts together.
#pragma once

#include <QList>
#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "core/engine/engine_worker.h"
#include "core/sources/batch_queue.h"
#include "ui/monitor/monitor_page.h"
#include "ui/plot/display_zone.h"
#include "ui/sources/source_spec.h"
#include "ui/window/window_pages.h"

class QCustomPlot;
class QSettings;

namespace hitcounter {
class Clock;
}  // namespace hitcounter

namespace hitcounter::ui {

class BadLinesView;
class FileOpener;
class FrameLoop;
class LimitsLab;
class MainToolBar;
class PlotToolBar;
class RecentFiles;
class ReplayBar;
class ReplayToolBar;
class SourceSession;
class SourceStarter;
class SourcesDock;
class SourcesPanel;
class StatusFeed;
class ThemeChoice;
class ThresholdAlerts;
class TimeZoneChoice;
class ViewFanOut;
class WindowStatus;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // The most bytes of hits waiting for the counting thread (BatchQueue::maxBytes).
    static constexpr std::size_t kQueueBytes = std::size_t{32} << 20;

    // `clock` is the time of live sources and the base of simulated and replayed time
    // (default: the wall clock).
    explicit MainWindow(std::shared_ptr<Clock> clock = nullptr, QWidget* parent = nullptr);
    ~MainWindow() override;

    BatchQueue& queue() { return m_queue; }
    EngineOptions engineOptions() const { return m_worker.options(); }
    // What the views were shown: the last frame (nullptr before the first), its snapshot, the
    // history they hold, the ingest rate.
    const ViewFanOut& views() const { return *m_views; }
    LivePlot* livePlot() const { return m_pages->monitor()->live(); }
    RingHistogram* ringHistogram() const { return m_pages->monitor()->ring(); }
    PolicyComparison* comparison() const { return m_pages->monitor()->comparison(); }

    // The source lifecycle (source_session.h): start, stop, seek, record, the running source.
    SourceSession* session() const { return m_session.get(); }
    // Starts and stops what a spec describes (source_starter.h); errors go to the banner.
    void stopSource();
    bool startSpec(const SourceSpec& spec);
    // Waits (up to `patience`) until a frame answering a request made now arrives and draws it.
    // With `idle`, only a frame built with nothing left in the queue counts.
    bool waitForFrame(std::chrono::milliseconds patience, bool idle = false);
    void openTrace();
    // Opens `files` as File > Open does (traces or access logs replayed as one); what dropped
    // files and the recent-files menu do. Files that cannot be opened leave the running source.
    void openFiles(const QStringList& files);
    // Replayed and followed files that opened go first in the recent files (default on; off
    // for scripted runs, which must not change the user's list).
    void setRemembersFiles(bool remember);

    // The time zone every time is shown in (display_zone.h): UTC, local or the log's own
    // offset; remembered in the settings.
    void setTimeZone(ZoneChoice choice);
    ZoneChoice timeZone() const;
    PlotToolBar* plotToolBar() const { return m_plotTools; }
    ThresholdAlerts* thresholdAlerts() const { return m_alerts; }
    RecentFiles* recentFiles() const { return m_recent; }
    SourcesPanel* sourcesPanel() const;
    ReplayBar* replayBar() const;
    ItemsPanel* itemsPanel() const { return m_pages->monitor()->items(); }
    OverloadBanner* overloadBanner() const { return m_pages->overloadBanner(); }
    BadLinesView* badLinesView() const { return m_badLines; }
    ClockSkewBanner* clockSkewBanner() const { return m_pages->clockSkewBanner(); }

    // The Rate limits tab and its lab (limits_lab.h; its errors go to the banner).
    // showLimitsView() opens the tab (and starts the lab with the tab's settings if it is off).
    LimitsView* limitsView() const { return m_pages->limitsView(); }
    LimitsLab* limitsLab() const { return m_limitsLab; }
    void showLimitsView();

    // The Fleet tab (fleet_view.h): startSpec() of a Redis spec stops the local source and
    // reads the fleet's Redis there; any other spec, or stopSource(), disconnects it.
    FleetView* fleetView() const { return m_pages->fleetView(); }
    void showFleetView();

    // Shows `message` in the red banner above the plots and in the status bar.
    void showError(const QString& message);
    QString errorText() const;

    // One frame (frame_loop.h): take the counting thread's newest frame, update every view
    // (queued replots), refresh the status bar.
    void frame();
    // The 30 Hz frame clock; its frameStarted and frameDrawn signals are for the frame bench.
    FrameLoop* frames() const { return m_frames; }
    // A frame, then every plot replotted at once (for screenshots).
    void renderNow();
    // Plots a frame replots (each queues one replot per drawn frame).
    QList<QCustomPlot*> plots() const;

    void setPaused(bool paused);
    bool paused() const;
    void setWindowSeconds(int seconds);
    void setBucketSeconds(int seconds);
    void setThemeName(const QString& name);
    QString themeName() const;

    void saveSettings(QSettings& settings) const;
    // Every stored value is checked (settings_reader.h): a bad one is reset to its default,
    // and the problems (each naming its key) are shown in the error banner and returned.
    QStringList restoreSettings(QSettings& settings);
    // Writes window.png, window.csv and settings.json into `directory`.
    bool snapshotTo(const QString& directory, QString* error);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // The constructor's steps, in order.
    void buildPages();        // the banners, the Monitor, Rate limits and Fleet tabs, the lab
    void buildFileOpeners();  // recent files, dropped files
    void buildToolBar();
    void buildPlotTools();  // the live plot's toolbar, crosshairs and legends, alerts
    void buildSourceControls();
    void buildStatusBar();
    void connectViewsToWorker();  // the items' key view and filter, the alerts' watched keys
    void updateStatusBar();
    void snapshotInteractive();
    void connectSession();

    // Bounded in bytes too: under overload (10^7 hits/s x 1000) the queue stands full, and its
    // bytes are most of the monitor's memory, so they are kept small; more only drops more.
    BatchQueue m_queue{4096, kQueueBytes};
    EngineWorker m_worker{m_queue};
    std::unique_ptr<SourceSession> m_session;  // after m_queue and m_worker, which it uses

    WindowPages* m_pages = nullptr;  // the banners and the tabs
    LimitsLab* m_limitsLab = nullptr;
    std::unique_ptr<ViewFanOut> m_views;  // each gets every frame, the theme and the time axis
    SourcesDock* m_sourcesDock = nullptr;
    ReplayToolBar* m_replayToolBar = nullptr;
    PlotToolBar* m_plotTools = nullptr;
    ThresholdAlerts* m_alerts = nullptr;
    BadLinesView* m_badLines = nullptr;
    SourceStarter* m_starter = nullptr;  // a spec to the session or the Fleet tab
    FileOpener* m_files = nullptr;       // File > Open, recent files, dropped files
    RecentFiles* m_recent = nullptr;
    MainToolBar* m_toolBar = nullptr;

    WindowStatus* m_status = nullptr;
    std::unique_ptr<StatusFeed> m_statusFeed;  // the status bar, banners and bad lines each frame
    std::unique_ptr<TimeZoneChoice> m_zone;

    std::unique_ptr<ThemeChoice> m_theme;
    FrameLoop* m_frames = nullptr;  // the frame clock; holds the views while paused
};

}  // namespace hitcounter::ui
