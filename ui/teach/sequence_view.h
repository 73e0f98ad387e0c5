// SequenceView: the deque of (second, count) pairs, or the naive vector of every hit() call,
// of one teaching frame, drawn as a row of cells that wraps, with its size and memory.
//
// GUI thread only. setFrame() copies the frame's pairs and repaints; with animate = true
// (stepping forward) the deque's popped pairs slide out of the front while the rest move up,
// and the vector's new calls fade in, over kAnimationMs. Stepping back shows the end state at
// once. Popped pairs stay listed, crossed out, under the queue for the whole step.
//
// Cells shrink as the sequence grows (three sizes, the smallest without text); what still
// does not fit is summarised as "+N more". Entries whose second this step's window does not
// count are greyed (for a getHits into the past, also those after its second): in the vector
// the calls that left the window stay, the naive structure keeps them forever.
#pragma once

#include <QWidget>

#include "core/teach/frame.h"

class QVariantAnimation;

class QPainter;

namespace hitcounter::ui {

class SequenceView : public QWidget {
    Q_OBJECT

public:
    enum class Kind { Deque, Vector };
    static constexpr int kAnimationMs = 550;

    explicit SequenceView(Kind kind, QWidget* parent = nullptr);

    void setFrame(const teach::Frame& frame, bool animate);
    // Ends a running animation at its final state (used before exporting a picture).
    void finishAnimation();

    // Per entry (deque pairs or vector calls, in order): greyed by the last paint, not counted
    // by the step's window.
    const std::vector<bool>& greyed() const { return m_greyed; }

    QSize minimumSizeHint() const override { return {320, m_kind == Kind::Deque ? 140 : 84}; }
    QSize sizeHint() const override { return {460, 170}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct CellSize {
        qreal width;
        qreal height;
        bool text;
    };

    CellSize pickCellSize(const QRectF& area, int count, int* perRow) const;
    void paintHeader(QPainter& p, const QRectF& board) const;
    void paintItems(QPainter& p, const QRectF& area) const;
    void paintCell(QPainter& p, const QRectF& r, const CellSize& cell, const teach::Pair& item,
                   bool highlighted, bool dim, qreal opacity) const;
    void paintPopped(QPainter& p, const QRectF& tray) const;

    Kind m_kind;
    std::vector<teach::Pair> m_items;
    std::vector<teach::Pair> m_popped;
    std::optional<std::size_t> m_touched;  // deque: the pair this hit created or increased
    std::size_t m_added = 0;               // vector: calls appended by this step
    std::optional<Timestamp> m_windowLow;  // the step's window (low, high]: what counts
    std::optional<Timestamp> m_windowHigh;
    std::size_t m_bytes = 0;
    qreal m_progress = 1.0;              // 0 = the previous layout, 1 = this frame's
    mutable std::vector<bool> m_greyed;  // what the last paint greyed (for tests)
    QVariantAnimation* m_animation;
};

}  // namespace hitcounter::ui
