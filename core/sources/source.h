// Source: anything that produces hits on its own worker thread (simulator, socket listener,
// trace replay) and hands them, in batches, to a BatchQueue. What else a user may do to it
// (pause, seek, set its speed) it offers as capabilities (source_capabilities.h).
//
// Threading: start() and stop() are called by the owner thread; the work runs on a
// std::jthread owned by the source and stops through its std::stop_token. stats() may be
// called from any thread at any time (implementations keep the counters in atomics).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/sources/bad_lines.h"
#include "core/sources/batch_queue.h"

namespace hitcounter {

class Pausable;
class Seekable;
class SpeedControl;

// What every source reports.
struct SourceStats {
    std::uint64_t packets = 0;       // datagrams, TCP reads, or rows/lines read
    std::uint64_t lines = 0;         // lines or rows parsed (good, bad and ignored)
    std::uint64_t hits = 0;          // hits delivered to the queue
    std::uint64_t badLines = 0;      // malformed lines or rows
    std::uint64_t ignoredLines = 0;  // well-formed but not hits (e.g. statsd gauges)
    std::uint64_t dropped = 0;       // hits refused by a full queue (or by the kernel, if known)
    std::uint64_t lateHits = 0;      // hits whose time was older than the newest time sent
};

// Thrown by start() when the source cannot run (a taken port, an unreadable file); the
// message names the place and the problem (an Error: docs/architecture.md, "Errors").
class SourceError : public Error {
public:
    using Error::Error;
};

class Source {
public:
    virtual ~Source() = default;

    // Starts the worker thread, which pushes batches into `out` until stop() or its end.
    // `out` must outlive the source. Throws SourceError if the source cannot start.
    virtual void start(BatchQueue& out) = 0;
    // What start() would refuse for a reason known before it starts (a file that cannot be
    // opened or is not of the source's kind), checked without starting: throws SourceError
    // with the message start() would give, touches no queue. The GUI checks a new source
    // before it stops the running one. Default: nothing to check (a listener binds its port
    // in start(), where an old listener may still hold it).
    virtual void check() const {}
    // Requests a stop and joins the worker; safe to call twice or before start().
    virtual void stop() = 0;
    // True while the worker runs (false after stop() or when a finite source ended).
    virtual bool running() const = 0;
    virtual SourceStats stats() const = 0;
    // One line for status bars and logs, e.g. "statsd udp 127.0.0.1:8125".
    virtual std::string describe() const = 0;
    // Why this source's hits name no visitor (so distinct visitors cannot be counted), e.g.
    // "statsd lines carry no visitor"; empty if they may name one.
    virtual std::string visitorNote() const { return {}; }
    // The newest bad lines with when, where and why (bad_lines.h), oldest first; any thread.
    virtual std::vector<BadLine> recentBadLines() const { return {}; }

    // The capabilities this source offers (source_capabilities.h), null for those it does not.
    // The pointers live as long as the source.
    virtual Pausable* pausable() { return nullptr; }
    virtual Seekable* seekable() { return nullptr; }
    virtual SpeedControl* speedControl() { return nullptr; }
};

}  // namespace hitcounter
