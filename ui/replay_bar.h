// ReplayBar: the controls of a running replay: play/pause, a seek slider over the whole
// trace, speed, loop and the current trace time.
//
// GUI thread only. It holds no source: it emits requests and shows what updateFrom() is given
// each frame. While the user drags the slider it is not moved by updates; the seek is
// requested when the slider is released (or clicked).
#pragma once

#include <QWidget>

#include "core/sources/replay_source.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;

namespace hitcounter::ui {

class ReplayBar : public QWidget {
    Q_OBJECT
public:
    explicit ReplayBar(QWidget* parent = nullptr);

    void updateFrom(const ReplayProgress& progress, Timestamp now, bool paused);
    void setSpeed(double speed);
    void setLoop(bool loop);
    // Show times as local date and clock time (access logs) instead of trace seconds.
    void setClockTimes(bool clock) { m_clockTimes = clock; }

Q_SIGNALS:
    void playRequested(bool play);
    void seekRequested(hitcounter::Timestamp t);
    void speedChanged(double speed);
    void loopToggled(bool loop);

private:
    QPushButton* m_play;
    QSlider* m_seek;
    QComboBox* m_speed;
    QCheckBox* m_loop;
    QLabel* m_time;
    QLabel* m_state;
    bool m_paused = false;
    bool m_clockTimes = false;
    Timestamp m_first = 0;
};

}  // namespace hitcounter::ui
