// FrameBench: --bench-frames N. Times N frames of a MainWindow, each from the frame timer's
// tick until every plot it queued has replotted (frames with nothing new to draw, and the
// simulator's warm-up, are not counted), then prints the median, p99, max, RSS at the first
// and last counted frame, the ingest rate and the hits counted, and emits finished().
//
// GUI thread only; it only watches the window's signals.
#pragma once

#include <QElapsedTimer>
#include <QObject>

#include "ui/window/frame_meter.h"

namespace hitcounter::ui {
class MainWindow;
}

namespace hitcounter::app {

class FrameBench : public QObject {
    Q_OBJECT
public:
    FrameBench(ui::MainWindow& window, int frames);

Q_SIGNALS:
    void finished();

private:
    void replotted();
    void report();

    ui::MainWindow& m_window;
    ui::FrameMeter m_meter;
    int m_framesLeft;
    int m_replotsPending = 0;
    QElapsedTimer m_frameClock;
    std::size_t m_rssStart = 0;
};

}  // namespace hitcounter::app
