// CodeView: the ring buffer's pseudocode with the line the current step ends on highlighted.
//
// GUI thread only. setLine() repaints. The function the step runs (hit or getHits) gets a
// soft background, the line itself a strong one with a marker, so a learner sees both where
// the step is and which path led there.
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

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    teach::Line m_line = teach::Line::None;
};

}  // namespace hitcounter::ui
