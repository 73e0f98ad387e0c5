// TransportBar: the step controls of the teaching view: jump to start, step back, play/pause,
// step forward, jump to end, speed, a scrubber over all steps and "step k of n".
//
// GUI thread only. It holds no state of its own beyond what setState() shows; every button
// and the scrubber emit a request the view answers by calling setState() again.
#pragma once

#include <QIcon>
#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace hitcounter::ui {

class TransportBar : public QWidget {
    Q_OBJECT

public:
    explicit TransportBar(QWidget* parent = nullptr);

    void setState(int step, int lastStep, bool playing);
    // Draws the buttons' glyphs again in the teaching palette's ink (after a theme change).
    void restyle();
    // Seconds between steps while playing.
    double secondsPerStep() const;

Q_SIGNALS:
    void firstRequested();
    void backRequested();
    void playToggled();
    void forwardRequested();
    void lastRequested();
    void stepRequested(int step);
    void speedChanged();
    void exportFrameRequested();
    void exportAllRequested();
    void exportPdfRequested();

private:
    enum class Glyph { First, Back, Play, Pause, Forward, Last };
    static QIcon glyph(Glyph g);

    QToolButton* m_first;
    QToolButton* m_back;
    QToolButton* m_play;
    QToolButton* m_forward;
    QToolButton* m_last;
    QComboBox* m_speed;
    QSlider* m_scrubber;
    QLabel* m_position;
    bool m_playing = false;
};

}  // namespace hitcounter::ui
