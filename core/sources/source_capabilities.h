// The optional capabilities of a Source: what a user may do to a running source besides
// starting and stopping it. A source offers each through Source::pausable(), seekable() and
// speedControl() (null: it cannot), so a caller asks the running source what it can do instead
// of knowing its type.
//
//   capability     offered by          what it does
//   Pausable       ReplaySource        holds the stream where it is; play() resumes it there
//   Seekable       ReplaySource        rebuilds the consumer's state at any time of a recorded
//                                      stream; its progress; loops at its end
//   SpeedControl   ReplaySource,       how fast the source's own (virtual) time runs against
//                  SimulatorSource     the wall clock
//
// Live sources (listeners, a followed log) offer none: their time is the clock's; nor does a
// RecordingSource (its inner() source is controlled as before it was wrapped). The
// simulator is not Pausable, though SimulatorSource can pause: in the GUI it stands for live
// traffic, which a pause does not stop (the window holds its views instead, docs/gui.md).
//
// Threading: every call is thread-safe, as the source's own methods it forwards to; the
// pointers live as long as the source. Example:
//     if (Seekable* s = source.seekable()) s->seek(600);   // a replay: rebuilt at 600
#pragma once

#include <cstdint>
#include <memory>

#include "core/base/types.h"
#include "core/sources/replay_progress.h"
#include "core/sources/seek_checkpoints.h"

namespace hitcounter {

class Pausable {
public:
    virtual ~Pausable() = default;
    virtual void pause() = 0;
    virtual void play() = 0;
    virtual bool paused() const = 0;
};

class Seekable {
public:
    virtual ~Seekable() = default;
    // Rebuilds the consumer's state at time t of the stream (loop 0), without a handshake
    // (replay_source.h: the epoch's Reset marker and the rebuild batches).
    virtual void seek(Timestamp t) = 0;
    // The epoch of the last seek() (0 before any): its batches carry it.
    virtual std::uint64_t epoch() const = 0;
    // The stream's time: the counters' "now".
    virtual Timestamp now() const = 0;
    // Loading, rows, the span of times, loops, how far the seeks have got.
    virtual ReplayProgress progress() const = 0;
    // At its end, starts again with every time shifted by its span.
    virtual void setLoop(bool loop) = 0;
    virtual bool loop() const = 0;
    // Seeks resume from the consumer's checkpoints of `stream` (seek_checkpoints.h); call it
    // before the source starts.
    virtual void setCheckpoints(std::shared_ptr<const SeekCheckpoints> checkpoints,
                                std::uint64_t stream) = 0;
};

class SpeedControl {
public:
    virtual ~SpeedControl() = default;
    // Seconds of the source's time per wall-clock second (0.1..1000, or
    // VirtualClock::kAsFastAsPossible).
    virtual void setSpeed(double speed) = 0;
    virtual double speed() const = 0;
};

}  // namespace hitcounter
