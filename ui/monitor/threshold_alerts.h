// ThresholdAlerts: a threshold line on the live plot's window count, and the crossings of it
// by the window count of the total or of a key, marked on the plot, listed and (if asked)
// announced with a desktop notification.
//
// GUI thread only. Fed once per frame (observe) with the frame's history changes, its top
// keys and its watched keys; the crossing rule is core/engine/threshold_crossings.h (exact, no
// hysteresis). The total is observed every second of the history. A watched key (typed in the
// Watch field, or picked there from the top keys or in the items table; watchedKeysChanged
// hands the set to the owner, which passes it to EngineWorker::setWatchedKeys) is observed
// every second too, from the per-second window counts the counting thread puts in each frame
// (EngineFrame::watched), whether or not it is in the top keys: its crossings are exact to
// the second. With "keys too", every other key is observed at the head second while it is in
// the items table's top keys (a key that leaves the table is not followed further).
// The per-frame cost is O(seconds since the last frame x (1 + watched keys)), never per hit.
// A rebuild (a new source, a seek, a new W) forgets the marks, the list and every side; the
// watched keys stay watched and are observed again from the oldest second the frame carries.
// Notifications are off by default and need a system tray (QSystemTrayIcon); without one the
// option is disabled and says why.
#pragma once

#include <QWidget>
#include <string>
#include <vector>

#include "core/engine/engine_frame.h"
#include "core/engine/threshold_crossings.h"
#include "ui/common/frame_view.h"
#include "ui/common/history_update.h"

class QCheckBox;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QStringListModel;
class QSystemTrayIcon;
class QTableWidget;

namespace hitcounter::ui {

class LivePlot;
struct Theme;

class ThresholdAlerts : public QWidget, public FrameView {
    Q_OBJECT
public:
    explicit ThresholdAlerts(LivePlot& plot, QWidget* parent = nullptr);

    // 0: off (no line, no alerts).
    void setThreshold(Count threshold);
    Count threshold() const;
    void setWatchKeys(bool on);
    void setNotify(bool on);
    bool notify() const;
    // The keys followed second by second whatever their rank (at most
    // EngineWorker::kWatchedKeys; empty and repeated keys are skipped). Emits
    // watchedKeysChanged if the set changes.
    void setWatchedKeys(const std::vector<std::string>& keys);
    const std::vector<std::string>& watchedKeys() const { return m_watched; }
    void watchKey(const std::string& key);
    void unwatchKey(const std::string& key);
    // A key picked elsewhere (the items table): offered in the Watch field unless the user is
    // typing there.
    void offerKey(const QString& key);

    void observe(const HistoryUpdate& update, const EngineFrame& frame, TimeAxisMode mode);
    void applyTheme(const Theme& theme) override;
    // FrameView (frame_view.h).
    void showFrame(const FrameContext& context) override;
    QList<QCustomPlot*> plots() override { return {}; }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(SettingsReader& settings) override;
    void clear();

    const std::vector<ThresholdCrossing>& crossings() const { return m_list; }
    // "Alert: <series> ↑ <threshold>" (↓ going down): short enough for the status bar.
    static QString summary(const ThresholdCrossing& crossing);
    QTableWidget* table() const { return m_table; }
    QCPGraph* upMarks() const { return m_up; }
    QCPGraph* downMarks() const { return m_down; }
    QCPItemStraightLine* line() const { return m_line; }
    QLineEdit* watchEdit() const { return m_watchEdit; }
    QListWidget* watchList() const { return m_watchList; }

Q_SIGNALS:
    void crossed(const hitcounter::ThresholdCrossing& crossing, const QString& text);
    void watchedKeysChanged(const std::vector<std::string>& keys);

private:
    void record(const ThresholdCrossing& crossing, TimeAxisMode mode);
    void showWatched();

    LivePlot& m_plot;
    ThresholdCrossings m_detector;
    std::vector<ThresholdCrossing> m_list;
    QSpinBox* m_thresholdBox;
    QCheckBox* m_keysBox;
    QCheckBox* m_notifyBox;
    QLineEdit* m_watchEdit;
    QPushButton* m_watchButton;
    QListWidget* m_watchList;
    QPushButton* m_unwatchButton;
    QStringListModel* m_topKeys;  // the completer's choices: the frame's top keys
    std::vector<std::string> m_watched;
    QTableWidget* m_table;
    QCPItemStraightLine* m_line;
    QCPGraph* m_up;
    QCPGraph* m_down;
    QSystemTrayIcon* m_tray = nullptr;
};

}  // namespace hitcounter::ui
