// PlotCrosshair: a vertical line under the mouse and a value readout in every time plot.
//
// GUI thread only. Installed on a QCustomPlot (it becomes the plot's child). On a mouse move
// over an axis rect holding graphs, the line snaps to the nearest whole second and the readout
// lists the time and, for every visible graph of that rect, its name and its value at that
// second ("–" where the graph has no point there): each series' own value (series_values.h),
// so a stacked status layer reads its class's hits. Time is shown as the rect's time axis
// shows it (time_axis.h: axisTimeText): a date and clock time naming its zone, or trace
// seconds. Leaving the plot hides both. The line and the readout let clicks through to the
// legend and the plot under them.
// The plot's tooltip moves to its status tip (shown in the status bar), where it does not
// cover the readout. The readout replots queued (rpQueuedReplot): at most one replot per frame.
#pragma once

#include <QObject>
#include <QString>

class QCustomPlot;
class QCPAxisRect;
class QCPItemStraightLine;
class QCPItemText;

namespace hitcounter::ui {

struct Theme;

class PlotCrosshair : public QObject {
    Q_OBJECT
public:
    explicit PlotCrosshair(QCustomPlot& plot);

    // The readout shown now (empty while hidden), one "name: value" per line after the time.
    QString readout() const { return m_readout; }
    // Shows the crosshair at pixel `pos` of the plot (what a mouse move does).
    void showAt(QPointF pos);
    void hide();
    void applyTheme(const Theme& theme);

    // The crosshair installed on `plot` (nullptr if none).
    static PlotCrosshair* of(const QCustomPlot& plot);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void attachTo(QCPAxisRect* rect);

    QCustomPlot& m_plot;
    QCPItemStraightLine* m_line = nullptr;
    QCPItemText* m_text = nullptr;
    QCPAxisRect* m_rect = nullptr;
    QString m_readout;
};

// Formats second `t` as the time axis of `rect` shows it: "2026-12-01 13:05:07 UTC+01:00"
// (clock) or "t = 1,005 s" (trace seconds).
QString crosshairTime(const QCPAxisRect& rect, double t);

}  // namespace hitcounter::ui
