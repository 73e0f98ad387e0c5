#include "ui/window/view_fan_out.h"

#include "core/engine/history_delta.h"
#include "ui/common/frame_view.h"
#include "ui/plot/plot_crosshair.h"
#include "ui/plot/qcp.h"

namespace hitcounter::ui {

ViewFanOut::ViewFanOut(std::vector<FrameView*> views) : m_views(std::move(views)) {
    m_rateClock.start();
}

void ViewFanOut::show(std::shared_ptr<const EngineFrame> frame, TimeAxisMode mode,
                      std::size_t historySeconds) {
    m_frame = std::move(frame);
    if (m_rateClock.elapsed() >= 1000) {
        const Count hits = m_frame->hitsIngested;
        m_ingestRate = double(hits >= m_hitsAtRate ? hits - m_hitsAtRate : hits) * 1000.0 /
                       double(m_rateClock.restart());
        m_hitsAtRate = hits;
    }
    applyHistoryDelta(m_history, m_frame->history, m_frame->rebuild, historySeconds);
    m_snapshot = m_frame->snapshot;
    const Timestamp from =
        m_frame->history.empty() ? kNoChangedSecond : m_frame->history.front().second;
    const HistoryUpdate update{m_history, from, m_frame->rebuild};
    const FrameContext context{update, *m_frame, mode};
    for (FrameView* view : m_views) {
        view->showFrame(context);
    }
}

void ViewFanOut::applyTheme(const Theme& theme) {
    for (FrameView* view : m_views) {
        view->applyTheme(theme);
        for (QCustomPlot* plot : view->plots()) {
            if (PlotCrosshair* crosshair = PlotCrosshair::of(*plot)) {
                crosshair->applyTheme(theme);
            }
        }
    }
}

void ViewFanOut::resetTimeAxis(TimeAxisMode mode) {
    m_wrap.reset();
    for (FrameView* view : m_views) {
        view->followTimeAxis(mode, std::nullopt);
    }
}

void ViewFanOut::followTraceWrap(TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    if (wrap == m_wrap) {
        return;
    }
    m_wrap = wrap;
    for (FrameView* view : m_views) {
        view->followTimeAxis(mode, wrap);
    }
}

void ViewFanOut::replotNow() {
    for (FrameView* view : m_views) {
        for (QCustomPlot* plot : view->plots()) {
            plot->replot(QCustomPlot::rpImmediateRefresh);
        }
    }
}

void ViewFanOut::saveSettings(QSettings& settings) const {
    for (const FrameView* view : m_views) {
        view->saveSettings(settings);
    }
}

void ViewFanOut::restoreSettings(SettingsReader& settings) {
    for (FrameView* view : m_views) {
        view->restoreSettings(settings);
    }
}

}  // namespace hitcounter::ui
