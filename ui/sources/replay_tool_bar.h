// ReplayToolBar: the bottom toolbar holding the replay bar (replay_bar.h), shown while a replay
// runs and hidden otherwise, wired to the source session both ways: the bar's play, seek, speed
// and loop requests go to the session's replay, and the replay's progress comes back to the bar
// each frame.
//
// GUI thread only. The session must outlive the toolbar.
//
// Example: session.startSpec(a replay spec) shows the bar with the spec's speed and loop;
// session.stop() hides it.
#pragma once

#include <QToolBar>

namespace hitcounter::ui {

class ReplayBar;
class SourceSession;

class ReplayToolBar : public QToolBar {
    Q_OBJECT
public:
    explicit ReplayToolBar(SourceSession& session, QWidget* parent = nullptr);

    ReplayBar* bar() const { return m_bar; }

private:
    SourceSession& m_session;
    ReplayBar* m_bar;
};

}  // namespace hitcounter::ui
