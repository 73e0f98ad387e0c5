// MainToolBar: the window's main toolbar. Pause, Follow live, Zoom +/-, the window W and the
// ring's bucket width, the live plot's status split, Open…, Recent, Snapshot, Dark, Teach and
// the shortcuts list (?), each with its shortcut and tool tip (the shortcuts list is made from
// them, shortcut_list.h).
//
// GUI thread only. Follow live and the zooms act on the live plot directly; every other action
// emits a request that the window answers, and the window tells the bar what now holds with
// the show*() functions, which emit nothing (so a state set in code never loops back).
//
// Example: choosing "15 min" emits windowChosen(900); the window refills its counters and
// calls showWindowSeconds(900).
#pragma once

#include <QToolBar>

class QAction;
class QComboBox;

namespace hitcounter::ui {

class LivePlot;
class RecentFiles;

class MainToolBar : public QToolBar {
    Q_OBJECT
public:
    // Window lengths and bucket widths offered, in seconds.
    static constexpr int kWindowChoices[] = {60, 300, 900, 3600};
    static constexpr int kBucketChoices[] = {1, 5, 10, 30, 60};

    // `live` and `recent` must outlive the bar.
    MainToolBar(LivePlot& live, RecentFiles& recent, QWidget* parent = nullptr);

    // The pause action checked (and reading "Resume") or not ("Pause").
    void showPaused(bool paused);
    bool pausedShown() const;
    // A choice not offered leaves the box as it is.
    void showWindowSeconds(int seconds);
    void showBucketSeconds(int seconds);
    void showDark(bool dark);

Q_SIGNALS:
    void pauseToggled(bool paused);
    void windowChosen(int seconds);
    void bucketChosen(int seconds);
    void openRequested();
    void snapshotRequested();
    void darkToggled(bool dark);
    void teachRequested();
    void shortcutsRequested();

private:
    void addPlotActions(LivePlot& live);
    void addWindowChoices();
    void addFileActions(RecentFiles& recent);
    void addWindowActions();
    // Qt's extension button (») for the actions that do not fit, readable in both themes.
    void styleExtensionButton();

    QAction* m_pause = nullptr;
    QAction* m_dark = nullptr;
    QComboBox* m_windowBox = nullptr;
    QComboBox* m_bucketBox = nullptr;
};

}  // namespace hitcounter::ui
