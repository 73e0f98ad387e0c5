// ItemsPanel: the hottest keys of the window (top-K) with their window, 1 min / 5 min / 1 h
// and all-time counts and unique visitors, and a plot of the selected key's count over time.
//
// GUI thread only. It draws the items part of each EngineFrame (values computed by the
// counting thread: every row's uniques fresh each frame) and holds no reference into the
// engine. Choosing a key or a level emits keyViewChanged, which the owner passes to the
// EngineWorker so that the next frames carry that key's series.
#pragma once

#include <QSize>
#include <QWidget>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine_frame.h"
#include "ui/common/frame_view.h"
#include "ui/common/history_update.h"

class QButtonGroup;
class QCustomPlot;
class QCPGraph;
class QCPTextElement;
class QLabel;
class QLineEdit;
class QTableWidget;
class QTableWidgetItem;

namespace hitcounter::ui {

class ColumnFit;

struct Theme;

class ItemsPanel : public QWidget, public FrameView {
    Q_OBJECT
public:
    explicit ItemsPanel(QWidget* parent = nullptr);
    ~ItemsPanel() override;

    void applyTheme(const Theme& theme) override;
    // FrameView (frame_view.h).
    void showFrame(const FrameContext& context) override;
    void followTimeAxis(TimeAxisMode mode, std::optional<TraceWrap> wrap) override;
    QList<QCustomPlot*> plots() override { return {m_plot}; }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(SettingsReader& settings) override;
    // The key plot's time axis (time_axis.h); `wrap`: a looping replay's trace.
    void setTimeAxisMode(TimeAxisMode mode, std::optional<TraceWrap> wrap = std::nullopt);
    // Shows `frame`'s top keys, all-keys summary and the selected key's series.
    void refresh(const EngineFrame& frame);
    // Forgets the plotted series and the table (the counters restarted).
    void clear();

    // 0: 1 min, 1: 5 min, 2: 1 h (the KeyedMonitor's levels).
    void setLevel(int level);
    int level() const { return m_level; }
    void selectKey(const QString& key);
    QString selectedKey() const { return QString::fromStdString(m_key); }
    // Several keys plotted at once: the selected key and these (the table's other selected
    // rows; Ctrl+click or Shift+click), at most EngineWorker::kMoreKeys.
    void selectKeys(const QString& key, const QStringList& more);
    const std::vector<std::string>& moreKeys() const { return m_moreKeys; }
    // The filter box: only keys containing the text (any case) are listed.
    QLineEdit* filterBox() const { return m_filter; }
    void setKeyFilter(const QString& text);

    QTableWidget* table() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* keyGraph() const { return m_graph; }
    // Why the source's hits name no visitor (Source::visitorNote()), said where the uniques
    // read "–" (hits in the window, none with a visitor); empty: "these hits name no visitor".
    void setVisitorNote(const QString& note);
    // The level's length (60 s, 300 s or 3600 s).
    std::chrono::seconds levelSeconds() const;

    // The key column keeps room for this many characters ('x'); the number columns that do not
    // fit beside it are hidden (all time first, then uniques, then the level) and come back when
    // the table is wide enough. The key header's tooltip names the hidden ones.
    static constexpr int kKeyCharacters = 16;
    int keyColumnMinimum() const;

Q_SIGNALS:
    // The key (empty: the top key) and level the frames should carry.
    // moreKeys() holds the further keys to plot.
    void keyViewChanged(const std::string& key, std::chrono::seconds level);
    // The filter box changed: the frames should list only keys containing `text`.
    void keyFilterChanged(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void emitKeyView();
    void fitColumnsToWidth();
    // The key plot's count axis label: the longest of "hits in last 5 min", "hits / 5 min" and
    // "hits" no longer than the axis rect is tall (its whole length before the first layout).
    void fitCountLabel();
    void pickSelectedRows();
    QString noVisitorReason() const;
    void setNoVisitorCell(QTableWidgetItem& item) const;

    QTableWidget* m_table;
    QCustomPlot* m_plot;
    QSize m_plotMinimum;  // the plot's minimumSizeHint() the layout was last told of
    QCPGraph* m_graph;
    std::vector<QCPGraph*> m_moreGraphs;  // one per further key, reused
    std::vector<std::string> m_moreKeys;
    QLineEdit* m_filter;
    QCPTextElement* m_keyTitle;
    QButtonGroup* m_levels;
    QLabel* m_summary;
    int m_level = 1;
    bool m_levelColumnShown = false;         // the level differs from W
    std::unique_ptr<ColumnFit> m_columnFit;  // hides columns that do not fit (column_fit.h)
    std::string m_key;                       // the user's choice; empty: the top key
    bool m_refreshing = false;               // refresh() moves the selection: not the user's pick
    QString m_visitorNote;
};

}  // namespace hitcounter::ui
