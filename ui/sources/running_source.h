// RunningSource: a source as its kind's build() hands it to the SourceSession: the core Source,
// how the views draw its times, and what only its kind knows about it while it runs (its
// figures, its newest time, the edited settings it takes without a restart). The session keeps
// it and asks its Source for capabilities (core/sources/source_capabilities.h): nothing in ui/
// holds a source by its type. A source started without a kind (SourceSession::start) runs in
// this base class, which knows nothing more than the Source.
//
// GUI thread, but for source(), whose calls are the Source's own (thread-safe where it says).
//
// Example (a kind's build()): class ReplayRun : public RunningSourceOf<ReplaySource> {...};
//     return std::make_unique<ReplayRun>(std::make_unique<ReplaySource>(clock, file), ...);
#pragma once

#include <QString>
#include <chrono>
#include <memory>
#include <optional>

#include "core/base/types.h"
#include "core/sources/source.h"
#include "ui/common/history_update.h"

namespace hitcounter {
class Clock;
}  // namespace hitcounter

namespace hitcounter::ui {

struct SourceSpec;

// What a kind's build() may use besides its spec.
struct BuildContext {
    Clock& clock;  // the time of live sources, the base of simulated and replayed time
    std::chrono::seconds window;  // the views' window W (a simulator's warm-up fills it)
};

class RunningSource {
public:
    // `logUtcOffset`: the UTC offset a replayed or followed access log writes its times with
    // (its first line's); nullopt: the source names none (the zone "log", display_zone.h).
    explicit RunningSource(std::unique_ptr<Source> source,
                           TimeAxisMode timeAxis = TimeAxisMode::Clock,
                           std::optional<int> logUtcOffset = std::nullopt);
    virtual ~RunningSource();
    RunningSource(const RunningSource&) = delete;
    RunningSource& operator=(const RunningSource&) = delete;

    Source& source() const { return *m_source; }
    // Clock, but Trace for a replayed trace CSV whose times are small seconds, not dates.
    TimeAxisMode timeAxis() const { return m_timeAxis; }
    std::optional<int> logUtcOffset() const { return m_logUtcOffset; }

    // The source brings its own time (the simulator, a replay); else its hits are counted
    // against the live clock (EngineWorker::setLiveClock).
    virtual bool ownTime() const { return false; }
    // Takes `spec`, its own kind's spec as the controls edited it (SourceSession::edit): true
    // if it did while running (the simulator's rate, pattern and speed; a replay's speed and
    // loop), false if `spec` needs a restart (a replay's access-log key). Default: false.
    virtual bool apply(const SourceSpec& spec);
    // The source's figures, shown under its kind's controls ("lines 12 · hits 9 · bad 2 ...");
    // empty if it has none.
    virtual QString figures() const { return {}; }
    // Its line in the status bar. Default: describe().
    virtual QString statusText() const;
    // Still sending its past as fast as the counting takes it (the simulator's warm-up).
    virtual bool warmingUp() const { return false; }
    // The newest time a live source with its own timestamps has read (a followed log), which
    // the clock-skew banner compares with the clock; nullopt for the others.
    virtual std::optional<Timestamp> newestTime() const { return std::nullopt; }

private:
    std::unique_ptr<Source> m_source;
    TimeAxisMode m_timeAxis;
    std::optional<int> m_logUtcOffset;
};

// The base of a kind's RunningSource: it keeps the Source as the type the kind built
// (typedSource()), so the kind reaches what only its type has without a cast.
template <class S>
class RunningSourceOf : public RunningSource {
protected:
    explicit RunningSourceOf(std::unique_ptr<S> source, TimeAxisMode timeAxis = TimeAxisMode::Clock,
                             std::optional<int> logUtcOffset = std::nullopt)
        : RunningSourceOf(*source, std::move(source), timeAxis, logUtcOffset) {}
    S& typedSource() const { return m_typed; }

private:
    RunningSourceOf(S& typed, std::unique_ptr<S>&& owned, TimeAxisMode timeAxis,
                    std::optional<int> logUtcOffset)
        : RunningSource(std::move(owned), timeAxis, logUtcOffset), m_typed(typed) {}

    S& m_typed;
};

}  // namespace hitcounter::ui
