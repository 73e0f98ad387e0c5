// MonitorPage: the Monitor tab, the live plot above the ring histogram and the items beside it,
// the policy comparison below, in splitters whose sizes are kept between runs.
//
// GUI thread only. The page owns its four views and lays them out; the window hands them
// frames (they are FrameViews) and wires their signals. Every plot but the items' key plot
// gets the export menu (right-click); none antialiases bars, fills, grids or axes (they gain
// nothing and cost most of the raster time). Its explicit minimums let a 1024 px wide window
// hold the sources dock and every view. The comparison's time axis follows the live plot's.
//
// Example: page.saveLayout(settings) writes window/mainSplitter and window/middleSplitter;
// page.restoreLayout(reader) puts them back, and a state Qt refuses is reset and named.
#pragma once

#include <QSplitter>

class QSettings;

namespace hitcounter::ui {

class ItemsPanel;
class LivePlot;
class PolicyComparison;
class RingHistogram;
class SettingsReader;

class MonitorPage : public QSplitter {
    Q_OBJECT
public:
    explicit MonitorPage(QWidget* parent = nullptr);

    LivePlot* live() const { return m_live; }
    RingHistogram* ring() const { return m_ring; }
    PolicyComparison* comparison() const { return m_comparison; }
    ItemsPanel* items() const { return m_items; }

    void saveLayout(QSettings& settings) const;
    void restoreLayout(SettingsReader& settings);

private:
    LivePlot* m_live;
    RingHistogram* m_ring;
    PolicyComparison* m_comparison;
    ItemsPanel* m_items;
    QSplitter* m_middle;  // the ring histogram beside the items
};

}  // namespace hitcounter::ui
