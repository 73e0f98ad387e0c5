// FrameLoop: the monitor's frame clock. Every 33 ms (30 Hz) it ticks the source session, takes
// the counting thread's newest frame (if there is one and the views are not held) and hands it
// to every view, then refreshes the status bar, frame or not: its cost does not depend on the
// ingest rate.
//
// GUI thread only. Example:
//   FrameLoop frames(worker, session, views, [&] { statusFeed.update(); });
//   frames.start();
#pragma once

#include <QObject>
#include <QTimer>
#include <chrono>
#include <functional>
#include <memory>

namespace hitcounter {
class EngineWorker;
struct EngineFrame;
}  // namespace hitcounter

namespace hitcounter::ui {

class SourceSession;
class ViewFanOut;

class FrameLoop : public QObject {
    Q_OBJECT
public:
    static constexpr int kIntervalMs = 33;  // 30 Hz

    // `refreshStatus` runs after every frame, drawn or not.
    FrameLoop(EngineWorker& worker, SourceSession& session, ViewFanOut& views,
              std::function<void()> refreshStatus, QObject* parent = nullptr);

    // Starts the timer that calls frame().
    void start();
    // One frame: tick the session, draw the newest frame unless held, refresh the status.
    void frame();
    // Waits (up to `patience`) until a frame answering a request made now arrives and draws it;
    // with `idle`, only a frame built with nothing left in the queue counts. Draws even while
    // held.
    bool waitForFrame(std::chrono::milliseconds patience, bool idle = false);

    // Held views keep what they show while a live source runs on (a replay pauses itself).
    void setHeld(bool held) { m_held = held; }
    bool held() const { return m_held; }

Q_SIGNALS:
    // A frame starts (frameStarted), and it took a new EngineFrame and queued one replot per
    // plot (frameDrawn) or had nothing new to draw (no signal): for the frame bench.
    void frameStarted();
    void frameDrawn();

private:
    void draw(std::shared_ptr<const EngineFrame> frame);

    EngineWorker& m_worker;
    SourceSession& m_session;
    ViewFanOut& m_views;
    std::function<void()> m_refreshStatus;
    QTimer m_timer;
    bool m_held = false;
};

}  // namespace hitcounter::ui
