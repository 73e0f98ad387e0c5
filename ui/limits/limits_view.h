// LimitsView: the "Rate limits" tab. Several rate limiters (core/limiters/) decide the same
// traffic in lockstep on the counting thread (core/engine/limits_feed.h); this view draws the
// LimitsFrame each frame brings: per algorithm, accepted and rejected requests per second on
// one time axis, boundary bursts (a key over L in some (t - W, t]) marked where they happen,
// max_in_any_window against L, a table of totals and memory, and the keys rejected most.
//
// GUI thread only; updateFrom() once per drawn frame (incremental: only the changed seconds).
// The controls (limits_controls.h: L, W, scope, algorithms, Apply) emit optionsRequested();
// MainWindow restarts the lab with them (replay: re-run from the start by a seek fast-forward;
// live: from now) and says which in restartNote().
#pragma once

#include <QWidget>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/limits_frame.h"
#include "ui/common/frame_view.h"
#include "ui/common/history_update.h"
#include "ui/limits/limits_tables.h"

class QCPAxisRect;
class QCPBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace hitcounter::ui {

class LimitsControls;
struct Theme;

class LimitsView : public QWidget, public FrameView {
    Q_OBJECT
public:
    using enum LimitsTables::LaneColumn;  // the lanes table's columns

    explicit LimitsView(QWidget* parent = nullptr);
    ~LimitsView() override;

    // Every time axis of the view (time_axis.h); `wrap`: a looping replay's trace.
    void setTimeAxisMode(TimeAxisMode mode, std::optional<TraceWrap> wrap = std::nullopt);
    void applyTheme(const Theme& theme) override;
    // FrameView (frame_view.h).
    void showFrame(const FrameContext& context) override;
    void followTimeAxis(TimeAxisMode mode, std::optional<TraceWrap> wrap) override;
    QList<QCustomPlot*> plots() override { return {m_plot}; }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(SettingsReader& settings) override;
    // Draws one frame's lab (queues one replot when visible).
    void updateFrom(const LimitsFrame& frame);
    // Sets the controls to `options` (without emitting optionsRequested).
    void showOptions(const LimitsOptions& options);
    // The options the controls describe, enabled.
    LimitsOptions requestedOptions() const;
    void setRestartNote(const QString& note);
    QString restartNote() const;

    QCustomPlot* plot() const { return m_plot; }
    QTableWidget* lanesTable() const { return m_tables->lanesTable(); }
    QTableWidget* keysTable() const { return m_tables->keysTable(); }
    // The per-second records the view holds (as the frames built them).
    const std::deque<LimitSecond>& history() const { return m_history; }
    const LimitsFrame& lastFrame() const { return m_frame; }
    // Lane `lane`'s graphs (nullptr if none): accepted and rejected per second, and the
    // boundary-burst markers (one point per second where a key passed L in its window).
    QCPGraph* acceptedGraph(int lane) const;
    QCPGraph* rejectedGraph(int lane) const;
    QCPGraph* burstGraph(int lane) const;
    // Lane `lane`'s value label above its bar of max_in_any_window (nullptr if none). Labels
    // that would overlap a more important one (over L first, then the higher) are hidden.
    QCPItemText* peakLabel(int lane) const;

Q_SIGNALS:
    void optionsRequested(const LimitsOptions& options);

private:
    void rebuildSeries();
    void placePeakLabels();
    void updateRanges();

    LimitsControls* m_controls;
    QLabel* m_note;
    QCustomPlot* m_plot;
    QCPAxisRect* m_acceptedRect;
    QCPAxisRect* m_rejectedRect;
    QCPAxisRect* m_peakRect;
    QCPItemStraightLine* m_limitLine = nullptr;
    QCPItemText* m_limitLabel = nullptr;
    QCPTextElement* m_peakNote = nullptr;
    LimitsTables* m_tables;

    LimitsFrame m_frame;  // the last one drawn, without its history
    std::deque<LimitSecond> m_history;
    std::vector<QCPGraph*> m_accepted;
    std::vector<QCPGraph*> m_rejected;
    std::vector<QCPGraph*> m_bursts;
    std::vector<QCPBars*> m_peakBars;
    std::vector<QCPItemText*> m_peakLabels;
    std::vector<std::string> m_names;
    std::uint64_t m_generation = UINT64_MAX;
    bool m_dark = false;
};

}  // namespace hitcounter::ui
