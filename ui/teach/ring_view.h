// RingView: the ring buffer of one teaching frame, drawn as a ring.
//
// GUI thread only. setFrame() copies the frame (a few hundred slots at most) and repaints.
//
// Slot 0 sits at twelve o'clock and the index grows clockwise. Each slot shows the second it
// holds and its count; green slots hold a second inside the window (head - W, head], grey ones
// are stale (they keep their old second until a hit reuses them), white ones were never
// written. The slot t mod W of the current operation has an orange outline and a marker; a
// reset shows the old (second, count) crossed out in red. The centre states the operation and,
// for getHits, the answer and the window. With more than kLabelledSlots slots the ring is too
// fine to label, so a close-up strip below it shows the slots around the current one.
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

    // Compact: a lower minimum height, for lessons with a chart under the ring (1280x720).
    void setCompact(bool compact) {
        m_compact = compact;
        updateGeometry();
    }
    QSize minimumSizeHint() const override { return {380, m_compact ? 300 : 420}; }
    QSize sizeHint() const override { return {560, 600}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    teach::Frame m_frame;
    std::int64_t m_window = 10;
    bool m_compact = false;
    QStringList m_captions;
    QStringList m_overflows;
};

}  // namespace hitcounter::ui
