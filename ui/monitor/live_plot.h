// LivePlot: hits per second (filled steps, left axis) and the rolling window count (line,
// right axis) over time. With a status split (access logs) the hits per second are also drawn
// per HTTP status class (SecondRecord::statusHits): 2xx, 3xx, 4xx, 5xx and "other" (no
// status, 1xx), stacked (the layers' top is the total) or as one line per class.
//
// GUI thread only. Fed once per frame by the main window (no signal per hit).
//
// Follow rules (docs/gui.md):
//  - While following, the x range ends at the head ("now") and spans the follow span: W
//    seconds until the user zooms. Zooming (+/-, zoomTime, the wheel) while following changes
//    that span and keeps the right edge at now: follow stays on.
//  - Only a pan leaves follow: a drag of the plot (a press that moves past the drag distance).
//    A plain click does not. Data keeps arriving; setFollowing(true) (F) returns to it.
//  - Not following, zoom works around the middle (buttons) or the cursor (wheel).
//  - A double-click resets: follow on, span W.
//  - With a time floor (a replay's first trace second), the followed range never starts
//    before it: at the start it shows [floor, floor + span], so no negative trace time.
#pragma once

#include "ui/plot/qcp.h"

#include <array>
#include <optional>

#include "core/engine/engine_snapshot.h"
#include "ui/common/frame_view.h"
#include "ui/common/history_update.h"
#include "ui/plot/time_axis.h"

class QComboBox;

namespace hitcounter::ui {

struct Theme;

enum class StatusSplit { Off, Stacked, Lines };
// "off", "stacked", "lines"; nullopt for anything else.
std::optional<StatusSplit> statusSplitFromName(const QString& name);
QString statusSplitName(StatusSplit split);

class LivePlot : public QCustomPlot, public FrameView {
    Q_OBJECT
public:
    explicit LivePlot(QWidget* parent = nullptr);

    void setTimeAxisMode(TimeAxisMode mode);
    void applyTheme(const Theme& theme) override;
    // FrameView (frame_view.h).
    void showFrame(const FrameContext& context) override;
    QList<QCustomPlot*> plots() override { return {this}; }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(SettingsReader& settings) override;
    // Updates the series and, if following, the visible range; queues a replot.
    void updateFrom(const HistoryUpdate& update, const EngineSnapshot& snapshot);

    bool following() const { return m_following; }
    void setFollowing(bool follow);
    // factor < 1 zooms in. Following: the follow span scales, the right edge stays at now.
    // Otherwise: around the centre of the range. Never leaves follow.
    void zoomTime(double factor);
    // The seconds shown while following (W until zoomed).
    double followSpan() const;
    // Back to following with the span W (what a double-click does).
    void resetView();
    // The earliest time the followed range shows (a replay's first second); nullopt: none.
    void setTimeFloor(std::optional<double> floor);
    // A replay's first and last second (nullopt: none or not loaded): the time floor, and the
    // time axis labels a looping replay's later passes within the trace (time_axis.h) once it
    // has `looped` (before, the time past the end is still to come: plain times).
    void setReplayTrace(std::optional<Timestamp> first, std::optional<Timestamp> last, bool looped);
    // The wrap the time axis labels with (nullopt: none); every other time axis takes it too.
    std::optional<TraceWrap> traceWrap() const { return m_wrap; }

    // Follows with this span (the x range presets: 1 min, 5 min, 15 min, 1 h).
    void setFollowSpan(double seconds);
    // Logarithmic value axes (both); off: linear from 0.
    void setLogY(bool on);
    bool logY() const { return m_logY; }
    // Box zoom: a drag draws a rectangle and zooms to it (time and both value axes), which
    // leaves follow and keeps the value axes where the box put them until the next reset (F,
    // a double-click, a preset). Off: a drag pans.
    void setBoxZoom(bool on);
    bool boxZoom() const;
    // A value the window-count axis always shows (a threshold line); nullopt: none.
    void setWindowAxisInclude(std::optional<double> value);

    QCPGraph* hitsGraph() const { return m_hits; }

    // The title above the plot (the window count, or "filling" before W seconds were seen).

    QString titleText() const;
    QCPGraph* windowGraph() const { return m_window; }

    void setStatusSplit(StatusSplit split);
    StatusSplit statusSplit() const { return m_split; }
    // The graph of one status layer: 0 = other (no status, 1xx), 1..4 = 2xx..5xx. Its values
    // are the layer's hits per second (Lines) or the running sum of the layers up to it,
    // 2xx first and other last (Stacked); kept up to date in every mode.
    QCPGraph* statusGraph(int layer) const { return m_status[std::size_t(layer)]; }
    static constexpr int kStatusLayers = 5;
    // The crosshair readout and the CSV export read each class's own hits in every mode
    // (series_values.h), and the hits per second (read out as "total") stay in both.
    // A class with no hit in the history is neither drawn nor in the legend.
    // A combo box (off / stacked / lines) that sets the split and follows it.
    QComboBox* createStatusSplitBox(QWidget* parent = nullptr);

Q_SIGNALS:
    void followingChanged(bool following);
    void statusSplitChanged(hitcounter::ui::StatusSplit split);

protected:
    void wheelEvent(QWheelEvent* event) override;

private:
    void applyFollowRange();
    // Back to following "now" with the value axes fitted to the data again.
    void followWithAutomaticY();
    void fitValueAxes();
    void showStatusLayers();
    // Turns the layers' points into running sums (stacked) or back into each layer's hits.
    void restack(bool stacked);

    QCPGraph* m_hits;
    QCPGraph* m_window;
    std::array<QCPGraph*, kStatusLayers> m_status{};
    StatusSplit m_split = StatusSplit::Off;
    // Per layer: some hit of that class is in the history (a class without one is not drawn).
    std::array<bool, kStatusLayers> m_seen{};
    QCPTextElement* m_title;
    bool m_following = true;
    bool m_logY = false;
    bool m_manualY = false;  // a box zoom set the value axes
    std::optional<double> m_windowInclude;
    QSharedPointer<QCPAxisTicker> m_linearTickers[2];
    double m_followSpan = 0.0;  // 0: the window W
    std::optional<double> m_timeFloor;
    TimeAxisMode m_mode = TimeAxisMode::Clock;
    std::optional<TraceWrap> m_wrap;
    std::optional<QPoint> m_pressPos;  // a left press that may become a drag
    std::int64_t m_windowSeconds = 300;
    Timestamp m_head = 0;
};

}  // namespace hitcounter::ui
