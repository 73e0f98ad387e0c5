// ThresholdAlerts: a threshold line on the live plot's window count, and the crossings of it
// by the window count of the total or of a key, marked on the plot, listed and (if asked)
// announced with a desktop notification.
//
// GUI thread only. Fed once per frame (observe) with the frame's history changes and its top
// keys; the crossing rule is core/engine/threshold_crossings.h (exact, no hysteresis). The
// total is observed every second of the history; a key is observed at the head second while
// it is in the items table's top keys (a key that leaves the table is not followed further).
// A rebuild (a new source, a seek, a new W) forgets the marks, the list and every side.
// Notifications are off by default and need a system tray (QSystemTrayIcon); without one the
// option is disabled and says why.
#pragma once

#include <QWidget>
#include <vector>

#include "core/engine/engine_frame.h"
#include "core/engine/threshold_crossings.h"
#include "ui/history_update.h"

class QCheckBox;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QSpinBox;
class QSystemTrayIcon;
class QTableWidget;

namespace hitcounter::ui {

class LivePlot;
struct Theme;

class ThresholdAlerts : public QWidget {
    Q_OBJECT
public:
    explicit ThresholdAlerts(LivePlot& plot, QWidget* parent = nullptr);

    // 0: off (no line, no alerts).
    void setThreshold(Count threshold);
    Count threshold() const;
    void setWatchKeys(bool on);
    void setNotify(bool on);
    bool notify() const;

    void observe(const HistoryUpdate& update, const EngineFrame& frame, TimeAxisMode mode);
    void applyTheme(const Theme& theme);
    void clear();

    const std::vector<ThresholdCrossing>& crossings() const { return m_list; }
    QTableWidget* table() const { return m_table; }
    QCPGraph* upMarks() const { return m_up; }
    QCPGraph* downMarks() const { return m_down; }
    QCPItemStraightLine* line() const { return m_line; }

Q_SIGNALS:
    void crossed(const hitcounter::ThresholdCrossing& crossing, const QString& text);

private:
    void record(const ThresholdCrossing& crossing, TimeAxisMode mode);

    LivePlot& m_plot;
    ThresholdCrossings m_detector;
    std::vector<ThresholdCrossing> m_list;
    QSpinBox* m_thresholdBox;
    QCheckBox* m_keysBox;
    QCheckBox* m_notifyBox;
    QTableWidget* m_table;
    QCPItemStraightLine* m_line;
    QCPGraph* m_up;
    QCPGraph* m_down;
    QSystemTrayIcon* m_tray = nullptr;
};

}  // namespace hitcounter::ui
