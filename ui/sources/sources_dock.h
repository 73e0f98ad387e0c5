// SourcesDock: the "Sources" dock, the sources panel (sources_panel.h) in a scroll area (it
// scrolls when the window is shorter than the panel, 1280x720 screens), wired to the source
// session both ways: the kinds' edits (the simulator's rate, pattern and speed, the replay's
// access-log key) and the recording go to the session (recording asks for the file first; a
// cancelled or failed one unticks the box), and the session's specs, recording count and the
// running source's figures come back.
// Start, Stop and Open trace are the window's to answer (a fleet spec is not a session's), so
// they are re-emitted.
//
// GUI thread only. The session must outlive the dock.
#pragma once

#include <QDockWidget>

#include "ui/sources/source_spec.h"

namespace hitcounter::ui {

class SourceSession;
class SourcesPanel;

class SourcesDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SourcesDock(SourceSession& session, QWidget* parent = nullptr);

    SourcesPanel* panel() const { return m_panel; }
    // The running source's figures (a follower's or a listener's lines, hits, bad lines...).
    void showRunningFigures();

Q_SIGNALS:
    void startRequested(const SourceSpec& spec);
    // After it, the panel shows the session's spec as stopped.
    void stopRequested();
    void openTraceRequested();

private:
    void record(bool on);

    SourceSession& m_session;
    SourcesPanel* m_panel;
};

}  // namespace hitcounter::ui
