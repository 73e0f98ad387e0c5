#include "app/gui/frame_bench.h"

#include <cstdio>

#include "ui/plot/qcp.h"
#include "ui/sources/source_session.h"
#include "ui/window/frame_loop.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"

namespace hitcounter::app {

FrameBench::FrameBench(ui::MainWindow& window, int frames)
    : QObject(&window), m_window(window), m_framesLeft(frames) {
    m_rssStart = ui::FrameMeter::rssBytes();
    connect(window.frames(), &ui::FrameLoop::frameStarted, this, [this] { m_frameClock.start(); });
    connect(window.frames(), &ui::FrameLoop::frameDrawn, this,
            [this] { m_replotsPending = int(m_window.plots().size()); });
    for (QCustomPlot* plot : window.plots()) {
        connect(plot, &QCustomPlot::afterReplot, this, &FrameBench::replotted);
    }
}

void FrameBench::replotted() {
    if (m_framesLeft <= 0 || m_replotsPending <= 0 || --m_replotsPending > 0) {
        return;
    }
    if (m_window.session()->warmingUp()) {
        return;  // the simulator's catch-up is not the steady state being measured
    }
    if (m_meter.frames() == 0) {
        m_rssStart = ui::FrameMeter::rssBytes();
    }
    m_meter.record(std::chrono::nanoseconds(m_frameClock.nsecsElapsed()));
    if (--m_framesLeft == 0) {
        report();
    }
}

void FrameBench::report() {
    const std::size_t rss = ui::FrameMeter::rssBytes();
    const EngineFrame* frame = m_window.views().lastFrame();
    std::printf(
        "frames %zu  median %.2f ms  p99 %.2f ms  max %.2f ms  rss start %.1f MiB  rss end %.1f "
        "MiB  ingest %.0f hits/s  hits counted %llu\n",
        m_meter.frames(), m_meter.percentileMs(50), m_meter.percentileMs(99), m_meter.maxMs(),
        double(m_rssStart) / 1048576.0, double(rss) / 1048576.0, m_window.views().ingestRate(),
        static_cast<unsigned long long>(frame ? frame->hitsIngested : 0));
    std::fflush(stdout);
    Q_EMIT finished();
}

}  // namespace hitcounter::app
