#include "core/sources/simulator_source.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/sources/batch_sender.h"

namespace hitcounter {

SimulatorSource::SimulatorSource(Clock& base, const SimulatorOptions& options)
    : m_base(base),
      m_options(options),
      m_model(options.traffic),
      m_clock(base, atSecond(options.start.value_or(base.now())),
              options.catchUp ? VirtualClock::kAsFastAsPossible : options.speed),
      m_speedAfterCatchUp(options.speed) {}

SimulatorSource::~SimulatorSource() {
    stop();
}

void SimulatorSource::start(BatchQueue& out) {
    stop();
    const Timestamp first = m_options.start.value_or(m_base.now());
    m_clock.seek(atSecond(first));
    m_position = first;
    m_catchingUp = m_options.catchUp;
    m_running = true;
    m_worker = std::jthread([this, &out, first](std::stop_token stop) { run(stop, out, first); });
}

void SimulatorSource::stop() {
    if (m_worker.joinable()) {
        m_worker.request_stop();
        m_worker.join();
    }
    m_running = false;
}

bool SimulatorSource::running() const {
    return m_running.load();
}

SourceStats SimulatorSource::stats() const {
    return m_counters.snapshot();
}

std::string SimulatorSource::describe() const {
    const TrafficOptions t = traffic();
    std::ostringstream out;
    // Rates as people write them: 1000000, not 1e+06 (the rate is at most 10^7).
    out << "simulator " << trafficPatternName(t.pattern) << ' '
        << std::setprecision(std::max(6, int(std::log10(std::max(1.0, t.rate))) + 4)) << t.rate
        << std::setprecision(6) << " hits/s, " << t.keys << " keys, " << t.visitors
        << " visitors, seed " << t.seed;
    if (m_catchingUp) {
        out << ", catching up to now";
    } else if (m_clock.asFastAsPossible()) {
        out << ", as fast as possible";
    } else {
        out << ", " << m_clock.speed() << 'x';
    }
    return out.str();
}

void SimulatorSource::setRate(double hitsPerSecond) {
    std::lock_guard lock(m_modelMutex);
    m_model.setRate(hitsPerSecond);
}

void SimulatorSource::setPattern(TrafficPattern pattern) {
    std::lock_guard lock(m_modelMutex);
    m_model.setPattern(pattern);
}

TrafficOptions SimulatorSource::traffic() const {
    std::lock_guard lock(m_modelMutex);
    return m_model.options();
}

void SimulatorSource::setSpeed(double speed) {
    std::lock_guard lock(m_speedMutex);
    if (m_catchingUp) {
        m_speedAfterCatchUp = speed;
    } else {
        m_clock.setSpeed(speed);
    }
}

void SimulatorSource::endCatchUpBefore(Timestamp next) {
    if (!m_catchingUp.load(std::memory_order_relaxed) || atSecond(next) <= m_base.time()) {
        return;
    }
    std::lock_guard lock(m_speedMutex);
    m_clock.setSpeed(m_speedAfterCatchUp);
    m_clock.seek(m_base.time());
    m_catchingUp = false;
}
double SimulatorSource::speed() const {
    return m_clock.speed();
}
void SimulatorSource::pause() {
    m_clock.pause();
}
void SimulatorSource::resume() {
    m_clock.resume();
}
bool SimulatorSource::paused() const {
    return m_clock.paused();
}

void SimulatorSource::run(std::stop_token stop, BatchQueue& out, Timestamp first) {
    BatchSender sender(out, m_counters);
    const std::optional<Timestamp> end =
        m_options.duration ? std::optional(first + m_options.duration->count()) : std::nullopt;
    Timestamp next = first;
    while (!stop.stop_requested() && (!end || next < *end)) {
        endCatchUpBefore(next);
        if (!m_clock.sleepUntil(atSecond(next), stop)) {
            break;
        }
        Timestamp last = std::max(next, m_clock.now());
        if (end) {
            last = std::min(last, *end - 1);
        }
        next = std::max(next, last - kMaxCatchUp + 1);
        const bool wait = m_clock.asFastAsPossible();
        for (; next <= last && !stop.stop_requested(); ++next) {
            HitBatch batch;
            {
                std::lock_guard lock(m_modelMutex);
                m_model.appendEventsAt(next, batch);
            }
            m_counters.packets.fetch_add(1, std::memory_order_relaxed);
            m_counters.lines.fetch_add(batch.size(), std::memory_order_relaxed);
            if (!sender.send(std::move(batch), wait, stop)) {
                break;
            }
            m_position = next + 1;
        }
    }
    m_running = false;
}

}  // namespace hitcounter
