// RingHistogram: the ring buffer's slots as bars: in-window slots in the accent colour, the
// head slot highlighted, stale slots (holding a second outside the window, reset on reuse)
// in grey. Hovering a bar shows its slot, the second(s) it holds and its count.
//
// GUI thread only; updated once per frame. With a bucket width B > 1 the slots are regrouped
// into B-second buckets (core/engine/bucket_view.h), the ring a coarse counter would keep.
// The legend sits inside the bars' rect, top right, where it fits in one line, else in a row
// of its own under the title (a 1024 px window), never over the title or the y axis' labels.
#pragma once

#include <vector>

#include "ui/plot/qcp.h"

#include "core/engine/bucket_view.h"
#include "core/engine/engine_snapshot.h"
#include "ui/common/frame_view.h"

namespace hitcounter::ui {

struct Theme;

class RingHistogram : public QCustomPlot, public FrameView {
    Q_OBJECT
public:
    explicit RingHistogram(QWidget* parent = nullptr);

    void applyTheme(const Theme& theme) override;
    // FrameView (frame_view.h).
    void showFrame(const FrameContext& context) override;
    QList<QCustomPlot*> plots() override { return {this}; }
    void setBucketSeconds(int seconds);
    int bucketSeconds() const { return m_bucketSeconds; }
    void updateFrom(const EngineSnapshot& snapshot);

    // The slots drawn last, index = bar position.
    const std::vector<BucketSlot>& slotsShown() const { return m_slots; }
    // The tooltip text for the bar at slot `index` ("" if out of range).
    QString describeSlot(int index) const;

    QCPBars* liveBars() const { return m_live; }
    QCPBars* staleBars() const { return m_stale; }
    QCPBars* headBars() const { return m_headBar; }
    // Whether the legend sits in a row under the title (too narrow for it inside the bars).
    bool legendInRow() const;

protected:
    // Keeps the slot's tooltip over a slot (the widget's generic one elsewhere).
    bool event(QEvent* event) override;

private:
    void showTooltip(QMouseEvent* event);
    void placeLegend();

    QCPBars* m_live;
    QCPBars* m_stale;
    QCPBars* m_headBar;
    QCPTextElement* m_title;
    int m_bucketSeconds = 1;
    std::vector<BucketSlot> m_slots;
    QSharedPointer<QCPAxisTickerFixed> m_slotTicker;  // one tick per slot (few slots)
};

}  // namespace hitcounter::ui
