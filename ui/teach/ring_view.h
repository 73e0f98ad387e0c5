// RingView: the ring buffer of one teaching frame, drawn as a ring.
//
// GUI thread only. setFrame() copies the frame (a few hundred slots at most) and repaints.
//
// Slot 0 sits at twelve o'clock and the index grows clockwise. Each slot shows the second it
// holds and its count; green slots hold a second this step's window counts (Frame::counts: for
// a hit (head - W, head], for a getHits its own window, so a query into the past leaves the
// newer seconds grey), grey ones a second it leaves out (a stale slot keeps its old second
// until a hit reuses it), white ones were never written. A frame at a sub-step
// (Timeline::frameAt) shows no "count +1" before the add and the total so far for getHits. The slot
// t mod W of the current operation has an orange outline and a marker; a reset shows the old
// (second, count) crossed out in red. The centre states the operation and, for getHits, the answer
// and the window. With more than kLabelledSlots slots the ring is too fine to label, so a close-up
// strip below it shows the slots around the current one.
#pragma once

#include <QWidget>

#include "core/teach/frame.h"

namespace hitcounter::ui {

class RingView : public QWidget {
    Q_OBJECT

public:
    static constexpr std::int64_t kLabelledSlots = 24;

    explicit RingView(QWidget* parent = nullptr);

    void setFrame(const teach::Frame& frame, std::int64_t window);

    // The texts the last paint drew (slot seconds and counts, centre lines, legend), and how
    // many of them did not fit their room even at the smallest font: for tests.
    const QStringList& captions() const { return m_captions; }
    const QStringList& overflows() const { return m_overflows; }
    // The slots the last paint drew green (counted by the step's window), in index order.
    const std::vector<std::size_t>& countedSlots() const { return m_counted; }

    // Compact: a lower minimum height, for lessons with a chart under the ring (1280x720).
    void setCompact(bool compact) {
        m_compact = compact;
        updateGeometry();
    }
    QSize minimumSizeHint() const override { return {372, m_compact ? 300 : 420}; }
    QSize sizeHint() const override { return {560, 600}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    teach::Frame m_frame;
    std::int64_t m_window = 10;
    bool m_compact = false;
    QStringList m_captions;
    QStringList m_overflows;
    std::vector<std::size_t> m_counted;
};

}  // namespace hitcounter::ui
