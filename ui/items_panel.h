// ItemsPanel: the hottest keys of the window (top-K) with their window, 1 min / 5 min / 1 h
// and all-time counts and unique visitors, and a plot of the selected key's count over time.
//
// GUI thread only. It reads the engine's KeyedMonitor (same thread) at most twice a second:
// top-K and per-key stats cost more than a frame's other work. The level switch chooses the
// window the selected key is plotted over; selecting another key or level redraws its last
// two minutes from the monitor's history, then adds a point per refresh.
#pragma once

#include <QWidget>
#include <string>

#include "core/engine/engine.h"
#include "ui/history_update.h"

class QButtonGroup;
class QCustomPlot;
class QCPGraph;
class QCPTextElement;
class QLabel;
class QTableWidget;

namespace hitcounter::ui {

struct Theme;

class ItemsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kTopK = 10;

    explicit ItemsPanel(QWidget* parent = nullptr);

    void applyTheme(const Theme& theme);
    void setTimeAxisMode(TimeAxisMode mode);
    // Refreshes the table and the key plot from `engine` at its head.
    void refresh(Engine& engine);
    // Forgets the plotted series (the counters restarted).
    void clear();

    // 0: 1 min, 1: 5 min, 2: 1 h (the KeyedMonitor's levels).
    void setLevel(int level);
    int level() const { return m_level; }
    void selectKey(const QString& key);
    QString selectedKey() const { return QString::fromStdString(m_key); }

    QTableWidget* table() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* keyGraph() const { return m_graph; }

private:
    void backfill(Engine& engine);

    QTableWidget* m_table;
    QCustomPlot* m_plot;
    QCPGraph* m_graph;
    QCPTextElement* m_keyTitle;
    QButtonGroup* m_levels;
    QLabel* m_summary;
    int m_level = 1;
    std::string m_key;
    bool m_needsBackfill = true;
    bool m_userSelected = false;
    Timestamp m_lastPlotted = 0;
};

}  // namespace hitcounter::ui
