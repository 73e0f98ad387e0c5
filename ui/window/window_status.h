// WindowStatus: the figures in the window's status bar. The running source's text takes the
// room left and is elided (whole in its tool tip); a temporary message (a snapshot's path, an
// error) shows in its place for a while. To its right: PAUSED (while the views are frozen), the
// ingest rate, hits in the window and in all, bad lines, dropped hits, late and too-late hits
// (compact units from a million, exact figures in the tool tips, so the bar fits a 1024 px wide
// window), and the zone every time is shown in, a button whose menu chooses it.
//
// GUI thread only. The widgets are added to the status bar given, which owns them.
//
// Example: show({.source = "simulator poisson 1000/s", .windowCount = 12345678}) reads
// "window 12.3M" with "window 12,345,678" in its tool tip.
#pragma once

#include <QObject>
#include <QString>

#include "core/base/types.h"
#include "ui/plot/display_zone.h"

class QLabel;
class QStatusBar;
class QToolButton;

namespace hitcounter::ui {

struct StatusFigures {
    QString source;  // the running source's line, e.g. "replay access.log · lines 3,000 …"
    bool paused = false;
    double ingestRate = 0.0;  // hits per second of wall time
    Count windowCount = 0;
    Count totalHits = 0;
    Count badLines = 0;
    Count dropped = 0;
    Count lateHits = 0;
    Count droppedLate = 0;
};

class WindowStatus : public QObject {
    Q_OBJECT
public:
    explicit WindowStatus(QStatusBar& bar);

    void show(const StatusFigures& figures);
    // The zone `zone` (chosen as `choice`) as it reads at time `at` (its offset then).
    void showZone(const DisplayZone& zone, ZoneChoice choice, Timestamp at);

Q_SIGNALS:
    void zoneChosen(ZoneChoice choice);

private:
    QLabel* addFigure(const QString& name, const QString& tip);
    QToolButton* makeZoneButton();

    QStatusBar& m_bar;
    QLabel* m_source;
    QLabel* m_paused;
    QLabel* m_rate;
    QLabel* m_totals;
    QLabel* m_bad;
    QLabel* m_dropped;
    QLabel* m_late;
    QToolButton* m_zone;
};

}  // namespace hitcounter::ui
