// ReplayToolBar: the bottom toolbar holding the replay bar (replay_bar.h), shown while a
// seekable source (a replay) runs and hidden otherwise, wired to the source session both ways:
// play and pause go to the source (Pausable), seeks to the session, speed and loop are edits
// of the running replay's spec (SourceSession::edit), and the stream's progress comes back to
// the bar each frame.
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
    // Edits the running replay's spec with `change` (a callable taking ReplaySpec&).
    template <class Change>
    void editReplay(Change change);

    SourceSession& m_session;
    ReplayBar* m_bar;
};

}  // namespace hitcounter::ui
