// CodeView: the ring buffer's pseudocode with the line the current step ends on highlighted.
//
// GUI thread only. setLine() and setCode() repaint. The function the step runs (hit or getHits)
// gets a soft background, the line itself a strong one with a marker, so a learner sees both where
// the step is and which path led there. Hovering a line shows why it is there (teach::lineWhy).
#pragma once

#include <QWidget>

#include "core/teach/pseudocode.h"

namespace hitcounter::ui {

class CodeView : public QWidget {
    Q_OBJECT

public:
    explicit CodeView(QWidget* parent = nullptr);

    void setLine(teach::Line line);
    teach::Line line() const { return m_line; }
    // The listing shown: the textbook scan or the running total (the running-total lesson).
    void setCode(teach::Code code);
    teach::Code code() const { return m_code; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;
    // Why the line at `pos` is there (teach::lineWhy), the tooltip's text; empty off a line.
    QString whyAt(QPoint pos) const;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    teach::Line lineAtIndex(std::size_t i) const;
    std::size_t lineCount() const;
    QString lineAt(std::size_t i) const;
    void paintBlock(QPainter& p, const QRectF& board, int current) const;
    void paintLines(QPainter& p, const QRectF& board, int current) const;

    teach::Line m_line = teach::Line::None;
    teach::Code m_code = teach::Code::Scan;
};

}  // namespace hitcounter::ui
