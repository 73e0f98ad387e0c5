// Theme: the light and dark looks of the whole window and of every plot.
//
// GUI thread only. applyTheme() sets the application palette; stylePlot() restyles one
// QCustomPlot's axes, grids and legend (call it again after a theme switch). Policy colours
// are fixed per policy name, so a policy has one colour in every plot and table.
#pragma once

#include <QColor>
#include <QString>

class QApplication;
class QCustomPlot;

namespace hitcounter::ui {

struct Theme {
    bool dark = false;
    QColor window;     // plot and widget background
    QColor text;       // axis labels, tick labels
    QColor grid;       // major grid lines
    QColor accent;     // hits-per-second series, the ring's in-window slots
    QColor accent2;    // the rolling window count
    QColor highlight;  // the ring's head slot
    QColor stale;      // the ring's stale slots
};

Theme lightTheme();
Theme darkTheme();
Theme themeNamed(const QString& name);  // "dark" or anything else for light

void applyTheme(QApplication& app, const Theme& theme);
void stylePlot(QCustomPlot& plot, const Theme& theme);
QColor policyColor(const QString& policy);
// The red of what needs a look now (a count over its limit, a node that does not answer, the
// error banner, "paused"): one colour in both themes.
QColor alarmColor();
// The grey of what has no colour of its own: a policy or limiter without one, disabled text,
// the light theme's indicator rings.
QColor neutralColor();
// A coloured box's declarations ("background: ..; color: ..; border: 1px solid ..;"), in the
// theme's shades: Good (green: live), Notice (orange: something to mind, not an error), Error
// (red: the error banner, a Redis that does not answer).
enum class BoxTone { Good, Notice, Error };
QString boxColors(BoxTone tone, bool dark);
// The style sheet of an orange notice (a QLabel telling of something to mind, not an error).
QString noticeStyleSheet(bool dark);

}  // namespace hitcounter::ui
