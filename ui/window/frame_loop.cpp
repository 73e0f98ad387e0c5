#include "ui/window/frame_loop.h"

#include <thread>

#include "core/engine/engine_worker.h"
#include "ui/sources/source_session.h"
#include "ui/window/view_fan_out.h"

namespace hitcounter::ui {

FrameLoop::FrameLoop(EngineWorker& worker, SourceSession& session, ViewFanOut& views,
                     std::function<void()> refreshStatus, QObject* parent)
    : QObject(parent),
      m_worker(worker),
      m_session(session),
      m_views(views),
      m_refreshStatus(std::move(refreshStatus)) {
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &FrameLoop::frame);
}

void FrameLoop::start() {
    m_timer.start();
}

void FrameLoop::frame() {
    Q_EMIT frameStarted();
    m_session.tick();
    std::shared_ptr<const EngineFrame> next = m_held ? nullptr : m_worker.takeFrame();
    if (!next) {
        m_refreshStatus();
        return;
    }
    draw(std::move(next));
    Q_EMIT frameDrawn();
}

void FrameLoop::draw(std::shared_ptr<const EngineFrame> frame) {
    m_views.show(std::move(frame), m_session.timeMode(), m_worker.options().historySeconds);
    m_refreshStatus();
}

bool FrameLoop::waitForFrame(std::chrono::milliseconds patience, bool idle) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    const std::uint64_t ticket = m_worker.requestFrame();
    while (std::chrono::steady_clock::now() < deadline) {
        if (auto frame = m_worker.takeFrame()) {
            const bool fresh = frame->ticket >= ticket && (!idle || frame->idle);
            draw(std::move(frame));
            if (fresh) {
                return true;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

}  // namespace hitcounter::ui
