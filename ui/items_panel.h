// ItemsPanel: the hottest keys of the window (top-K) with their window, 1 min / 5 min / 1 h
// and all-time counts and unique visitors, and a plot of the selected key's count over time.
//
// GUI thread only. It reads the engine's KeyedMonitor (same thread). refresh() is called every
// frame and does one bounded step: the top-K with their counts every kSteps calls, the
// all-keys summary, or one row's unique visitors (a HyperLogLog merge over the window's
// per-second sketches, the costly part). The level switch chooses the window shown in the
// table and plotted for the selected key (its last two minutes, from the key's history).
#pragma once

#include <QHash>
#include <QWidget>
#include <chrono>
#include <string>
#include <vector>

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
    static constexpr int kSteps = kTopK + 4;

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
    std::chrono::seconds levelSeconds() const;

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
    int m_step = 0;
    std::vector<KeyCount> m_top;
    QHash<QString, QString> m_uniques;  // formatted estimate per key, refreshed in turn
};

}  // namespace hitcounter::ui
