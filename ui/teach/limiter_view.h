// LimiterView: the rate limiters of one rate-limit lesson step, one board per limiter stacked
// top to bottom, for the teaching view.
//
// GUI thread only. setStep() copies what it draws from the LimiterTimeline (the step's frame
// and every decision up to it) and repaints. Each board shows:
//  - a time strip around the limiters' clock (2W before it): every request so far as a green
//    dot (accepted) or a red cross (rejected), this step's outlined in orange, the clock as an
//    orange line, and what the algorithm looks at shaded: the fixed windows [kW, (k+1)W) with
//    their boundaries (fixed), the sliding window (t - W, t] (log), the current and the
//    weighted previous window (counter);
//  - the state: the window's count against L (fixed), the log's entries with the ones that
//    just expired crossed out (log), the weighted sum against L x W (counter), the tokens as L
//    cups filled to the exact fraction (bucket);
//  - the totals and the reason for this step's decision.
#pragma once

#include <QWidget>
#include <vector>

#include "core/teach/limiter_timeline.h"

namespace hitcounter::ui {

class LimiterView : public QWidget {
    Q_OBJECT

public:
    explicit LimiterView(QWidget* parent = nullptr);

    void setStep(const teach::LimiterTimeline& timeline, std::size_t step);

    QSize minimumSizeHint() const override { return {560, 420}; }
    QSize sizeHint() const override { return {900, 600}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void paintLane(QPainter& p, const QRectF& board, std::size_t lane);
    struct StripScale;
    void paintStrip(QPainter& p, const QRectF& area, std::size_t lane);
    void paintWindows(QPainter& p, const StripScale& s, std::size_t lane);
    void paintAxis(QPainter& p, const StripScale& s);
    void paintRequests(QPainter& p, const StripScale& s, std::size_t lane);
    void paintClock(QPainter& p, const StripScale& s);
    void paintState(QPainter& p, const QRectF& area, std::size_t lane);
    void paintLog(QPainter& p, const QRectF& content, const teach::LimiterLane& l, Count limit);

    teach::LimiterFrame m_frame;
    std::vector<std::vector<teach::LimiterDecision>> m_decisions;  // per lane, up to the step
    RateLimit m_limit;
    Timestamp m_clock = 0;
};

}  // namespace hitcounter::ui
