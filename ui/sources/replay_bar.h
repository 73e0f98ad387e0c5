// ReplayBar: the controls of a running replay: play/pause, a seek slider over the whole
// trace, a "Go to" box (a typed time, a clock time in the zone shown or a step such as -15m:
// time_target.h; Enter seeks there, within the trace), speed, loop and the current trace time.
//
// GUI thread only. It holds no source: it emits requests and shows what updateFrom() is given
// each frame. While the user drags the slider it is not moved by updates; the seek is
// requested when the slider is released. A click on the groove puts the handle at the click
// (not a page further) and seeks there on release.
//
// Position: the trace time shown (label and slider) is the replay's time within the trace:
// with loop, wrapped into the trace; without, at most the trace's last second; once the state
// is "ended", exactly the last second (the replay's clock may run on, its views do not).
// The button: "Pause"/"Play" while loading or playing; "Replay from start" once ended (a seek
// to the first second, and play); disabled for an empty, failed or stopped replay.
#pragma once

#include <QWidget>

#include "core/sources/replay_progress.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;

namespace hitcounter::ui {

// What the state label says: "paused" while the user paused a playing replay, "empty" for a
// loaded trace without a hit, else the state's name (replayStateName).
QString replayStateText(const ReplayProgress& progress, bool paused);

// The trace time the bar shows for the replay's time `now` (see the class comment); `looping`:
// the replay loops or has looped. Needs progress.first and progress.last.
Timestamp replayPositionInTrace(const ReplayProgress& progress, Timestamp now, bool looping);

class ReplayBar : public QWidget {
    Q_OBJECT
public:
    explicit ReplayBar(QWidget* parent = nullptr);

    void updateFrom(const ReplayProgress& progress, Timestamp now, bool paused);
    void setSpeed(double speed);
    void setLoop(bool loop);
    // Show times as dates and clock times in the zone shown, named (access logs, traces of
    // unix seconds) instead of trace seconds.
    void setClockTimes(bool clock) { m_clockTimes = clock; }

    // For tests: the widgets.
    QSlider* seekSlider() const { return m_seek; }
    QLineEdit* goToEdit() const { return m_goTo; }
    QLabel* stateLabel() const { return m_state; }
    QLabel* timeLabel() const { return m_time; }
    QPushButton* playButton() const { return m_play; }

Q_SIGNALS:
    void playRequested(bool play);
    void seekRequested(hitcounter::Timestamp t);
    void speedChanged(double speed);
    void loopToggled(bool loop);
    // What was typed in the Go to box is not a time (shown at the box too).
    void goToRefused(const QString& problem);

private:
    // Reads the Go to box and seeks there (clamped to the trace), or says why not.
    void goToTyped();

    QPushButton* m_play;
    QSlider* m_seek;
    QLineEdit* m_goTo;
    QComboBox* m_speed;
    QCheckBox* m_loop;
    QLabel* m_time;
    QLabel* m_state;
    bool m_paused = false;
    bool m_ended = false;  // the button replays from the start
    bool m_clockTimes = false;
    Timestamp m_first = 0;
    Timestamp m_last = 0;
    Timestamp m_position = 0;  // the trace time shown
    bool m_hasTrace = false;   // loaded with hits: there is somewhere to go
};

}  // namespace hitcounter::ui
