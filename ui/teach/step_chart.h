// StepChart: a small line chart over a lesson's steps, drawn with QPainter on the teaching
// view's board, in the light or dark teaching palette (teach_style.h).
//
// GUI thread only. Each series has one value per step (frames()[0] the start); the chart draws
// every series as a step line, solid up to the current step and faint after it, marks the
// current step with an orange line and shows a caption (the step's numbers) above the plot.
// The teaching view fills it from a teach::Timeline: the bytes of the ring, the deque and the
// naive vector (LessonChart::Bytes), or the slot visits so far of the textbook scan and the
// running total (LessonChart::SlotVisits); see fill().
#pragma once

#include <QColor>
#include <QWidget>
#include <vector>

#include "core/teach/lessons.h"
#include "core/teach/timeline.h"
#include "ui/teach/teach_style.h"

class QPainter;

namespace hitcounter::ui {

class StepChart : public QWidget {
    Q_OBJECT
public:
    struct Series {
        QString name;
        QColor teachstyle::TeachPalette::*color;  // looked up when painted: follows the theme
        std::vector<double> values;               // one per step
    };

    explicit StepChart(QWidget* parent = nullptr);

    // Replaces the series from the timeline for `kind` (None clears the chart).
    void fill(const teach::Timeline& timeline, teach::LessonChart kind);
    // Any other chart over points (the Code tab's growth curves): the x labels under the
    // points ("25", "50", ... hits), straight lines between them, one caption per point.
    struct Points {
        QString title;
        QString unit;
        QString axis;  // the x axis's name, "hits held"
        std::vector<QString> labels;
        std::vector<Series> series;
        std::vector<QString> captions;
    };
    void fillPoints(Points chart);
    void setStep(int step);

    teach::LessonChart kind() const { return m_kind; }
    const std::vector<Series>& series() const { return m_series; }
    int step() const { return m_step; }
    QString title() const { return m_title; }
    // What is plotted and the current step's numbers, e.g. "Bytes, step 4: ring 296 B ·
    // deque 48 B (1 pair) · vector 520 B (30 calls)". The title is the tooltip.
    QString caption() const;
    // False when a label, the legend or the caption would be cut off at the current size.
    bool textFits() const;

    QSize minimumSizeHint() const override { return {260, 96}; }
    QSize sizeHint() const override { return {420, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Scale;
    QRectF plotRect() const;
    double maxValue() const;
    Scale makeScale() const;
    void paintAxes(QPainter& p, const Scale& s) const;
    void paintSeries(QPainter& p, const Scale& s) const;
    void paintLegend(QPainter& p, const QRectF& plot) const;

    teach::LessonChart m_kind = teach::LessonChart::None;
    std::vector<Series> m_series;
    std::vector<QString> m_stepCaptions;  // per step
    QString m_title;
    QString m_unit;
    QString m_axis;                 // "step", or a Points chart's
    std::vector<QString> m_labels;  // a Points chart's x labels (empty: the step numbers)
    bool m_stairs = true;           // steps hold their value until the next; points are joined
    int m_step = 0;
};

}  // namespace hitcounter::ui
