// LivePlot: hits per second (filled steps, left axis) and the rolling window count (line,
// right axis) over time.
//
// GUI thread only. Fed once per frame by the main window (no signal per hit). While
// following, the x range shows the last W seconds up to the head; dragging or zooming leaves
// follow mode (data keeps arriving) and setFollowing(true) returns to it.
#pragma once

#include "ui/qcp.h"

#include "core/engine/engine_snapshot.h"
#include "ui/history_update.h"

namespace hitcounter::ui {

struct Theme;

class LivePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit LivePlot(QWidget* parent = nullptr);

    void setTimeAxisMode(TimeAxisMode mode);
    void applyTheme(const Theme& theme);
    // Updates the series and, if following, the visible range; queues a replot.
    void updateFrom(const HistoryUpdate& update, const EngineSnapshot& snapshot);

    bool following() const { return m_following; }
    void setFollowing(bool follow);
    // Zooms the time axis around its centre (factor < 1 zooms in); leaves follow mode.
    void zoomTime(double factor);

    QCPGraph* hitsGraph() const { return m_hits; }
    QCPGraph* windowGraph() const { return m_window; }

Q_SIGNALS:
    void followingChanged(bool following);

private:
    void userMovedView();
    void fitValueAxes();

    QCPGraph* m_hits;
    QCPGraph* m_window;
    QCPTextElement* m_title;
    bool m_following = true;
    std::int64_t m_windowSeconds = 300;
    Timestamp m_head = 0;
};

}  // namespace hitcounter::ui
