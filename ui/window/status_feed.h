// StatusFeed: once a frame, what the window's chrome shows about the stream besides the views:
// the status bar's figures (WindowStatus), the sources dock's running figures, the bad lines
// table (asked for the lines only when the count changed), the overload banner (drops, and the
// queue's fill while a live pace cannot be met) and the clock-skew banner (a followed log's
// newest time against the clock).
//
// GUI thread only. It reads the session, the queue, the worker's options, what the views were
// shown and the fleet view, and owns none of them. The overload banner's clock starts with the
// feed.
#pragma once

#include <QElapsedTimer>

namespace hitcounter {
class BatchQueue;
class EngineWorker;
}  // namespace hitcounter

namespace hitcounter::ui {

class BadLinesView;
class ClockSkewBanner;
class FleetView;
class OverloadBanner;
class SourceSession;
class SourcesDock;
class ViewFanOut;
class WindowStatus;

// What the feed reads.
struct StatusInputs {
    const SourceSession& session;
    const BatchQueue& queue;
    const EngineWorker& worker;
    const ViewFanOut& views;
    const FleetView& fleet;
};

// What it shows.
struct StatusOutputs {
    WindowStatus& status;
    SourcesDock& sourcesDock;
    BadLinesView& badLines;
    OverloadBanner& overload;
    ClockSkewBanner& clockSkew;
};

class StatusFeed {
public:
    StatusFeed(StatusInputs in, StatusOutputs out);

    // `pausedShown`: the views are frozen (the toolbar's Pause).
    void update(bool pausedShown);

private:
    StatusInputs m_in;
    StatusOutputs m_out;
    QElapsedTimer m_uptime;  // the overload banner's clock
};

}  // namespace hitcounter::ui
