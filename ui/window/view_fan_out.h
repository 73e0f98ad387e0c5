// ViewFanOut: the window's views of the engine's frames (FrameView, frame_view.h) and what they
// share: the newest frame, the per-second history mirrored from the frames' deltas
// (history_delta.h), the newest snapshot and the ingest rate. Every frame, theme, time-axis
// mode, setting and immediate replot reaches every view through here, so a new view is one
// line in the list the window gives.
//
// GUI thread only. The views must outlive the fan-out.
//
// Example: fanOut.show(worker.takeFrame(), TimeAxisMode::Clock, 3600) mirrors the frame's
// history delta, then calls showFrame() on each view with one FrameContext.
#pragma once

#include <QElapsedTimer>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "core/engine/engine_frame.h"
#include "ui/common/history_update.h"

class QSettings;

namespace hitcounter::ui {

class FrameView;
class SettingsReader;
struct Theme;

class ViewFanOut {
public:
    explicit ViewFanOut(std::vector<FrameView*> views);

    // `frame` (not null) to every view; the history keeps at most `historySeconds` seconds.
    void show(std::shared_ptr<const EngineFrame> frame, TimeAxisMode mode,
              std::size_t historySeconds);
    // The theme to every view and to the crosshair of each of its plots.
    void applyTheme(const Theme& theme);
    // A new source: every view's time axis in `mode`, without a trace wrap.
    void resetTimeAxis(TimeAxisMode mode);
    // A looping trace's wrap to every view's time axis, if it changed.
    void followTraceWrap(TimeAxisMode mode, std::optional<TraceWrap> wrap);
    // Every view's plots replotted now (screenshots).
    void replotNow();
    void saveSettings(QSettings& settings) const;
    void restoreSettings(SettingsReader& settings);

    // The last frame shown (nullptr before the first), the history the views hold, the last
    // snapshot, and hits ingested per second of wall time (folded in once a second).
    const EngineFrame* lastFrame() const { return m_frame.get(); }
    const std::deque<SecondRecord>& history() const { return m_history; }
    const EngineSnapshot& snapshot() const { return m_snapshot; }
    double ingestRate() const { return m_ingestRate; }

private:
    std::vector<FrameView*> m_views;
    std::shared_ptr<const EngineFrame> m_frame;
    std::deque<SecondRecord> m_history;
    EngineSnapshot m_snapshot;
    std::optional<TraceWrap> m_wrap;  // applied to every time axis but the live plot's
    // Ingest rate: hits counted since m_rateClock started, folded into m_ingestRate each second.
    QElapsedTimer m_rateClock;
    Count m_hitsAtRate = 0;
    double m_ingestRate = 0.0;
};

}  // namespace hitcounter::ui
