#include "core/engine/cost_meter.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <memory>

#include "core/counters/counter_factory.h"
#include "core/engine/lockstep.h"
#include "core/engine/thread_cpu_timer.h"

namespace hitcounter {

namespace {

// getHits calls per second of head movement, as in bench_counters' count_monotonic.
constexpr std::size_t kQueriesPerSecond = 64;

CostFigure figureOf(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    CostFigure f;
    f.low = samples.front();
    f.high = samples.back();
    f.median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    return f;
}

using Stream = CostMeter::Stream;

// The seconds `stream` spans: last - first + 1.
Timestamp spanOf(const Stream& stream) {
    const auto [first, last] = std::minmax_element(
        stream.begin(), stream.end(), [](const auto& a, const auto& b) { return a.time < b.time; });
    return last->time - first->time + 1;
}

// The stream repeated, each pass shifted by the stream's span, until it holds at least `ops`
// hits (a short capture of a quiet source still makes a loop long enough to time).
Stream repeatedTo(const Stream& stream, std::size_t ops) {
    const Timestamp span = spanOf(stream);
    Stream fed = stream;
    for (Timestamp shift = span; fed.size() < ops; shift += span) {
        for (const auto& [t, n] : stream) {
            fed.push_back({t + shift, n});
        }
    }
    return fed;
}

}  // namespace

CostMeter::~CostMeter() {
    stop();
}

void CostMeter::start() {
    if (!m_thread.joinable()) {
        m_thread = std::jthread([this](std::stop_token stop) { run(stop); });
    }
}

void CostMeter::stop() {
    if (m_thread.joinable()) {
        m_thread.request_stop();
        m_thread.join();
        m_thread = std::jthread();
    }
}

void CostMeter::setPolicies(const EngineOptions& options) {
    std::lock_guard lock(m_mutex);
    m_options = options;
}

void CostMeter::observe(const HitBatch& batch) {
    if (!m_capturing.load(std::memory_order_relaxed)) {
        return;
    }
    bool full = false;
    {
        std::lock_guard lock(m_mutex);
        if (!m_capturing.load(std::memory_order_relaxed)) {
            return;
        }
        if (batch.kind == BatchKind::Reset) {
            m_capture.clear();  // a seek: the stream starts again
            return;
        }
        for (const HitEvent& e : batch) {
            if (m_capture.size() >= kStreamEvents) {
                break;
            }
            m_capture.emplace_back(e.time, e.count);
        }
        full = m_capture.size() >= kStreamEvents;
    }
    if (full) {
        m_captured.notify_all();
    }
}

PolicyCosts CostMeter::latest() const {
    std::lock_guard lock(m_mutex);
    return m_latest;
}

void CostMeter::run(std::stop_token stop) {
    // The lowest priority: the counting thread, the sources and the GUI go first.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
    std::uint64_t refresh = 0;
    while (!stop.stop_requested()) {
        Stream stream;
        EngineOptions options;
        {
            std::unique_lock lock(m_mutex);
            m_capture.clear();
            m_capturing = true;
            m_captured.wait_for(lock, stop, kCaptureTime,
                                [this] { return m_capture.size() >= kStreamEvents; });
            m_capturing = false;
            stream = std::exchange(m_capture, {});
            options = m_options;
        }
        if (!stream.empty()) {
            PolicyCosts costs = measure(stream, options, stop);
            if (!costs.policies.empty()) {
                costs.refresh = ++refresh;
                std::lock_guard lock(m_mutex);
                m_latest = std::move(costs);
            }
        }
        std::unique_lock lock(m_mutex);
        m_captured.wait_for(lock, stop, kPause, [] { return false; });
    }
}

PolicyCosts CostMeter::measure(const Stream& stream, const EngineOptions& options,
                               std::stop_token stop) {
    const CounterOptions counterOptions{options.window, options.coarseBucket};
    const auto make = [&](const std::string& name) -> std::unique_ptr<WindowCounter> {
        // The engine's ring is always the plain one; the others may come from a test's factory.
        if (name != "ring" && options.makePolicy) {
            return options.makePolicy(name, counterOptions);
        }
        return makeCounter(name, counterOptions);
    };
    std::vector<std::string> names{"ring"};
    for (const std::string& name : options.policies) {
        if (name != "ring" && make(name) != nullptr) {
            names.push_back(name);
        }
    }
    const Stream fed = repeatedTo(stream, kMinOps);
    Timestamp head = std::numeric_limits<Timestamp>::min();
    for (const auto& [t, n] : fed) {
        head = std::max(head, t);
    }
    std::vector<Timestamp> queries(kMinOps);
    for (std::size_t i = 0; i < queries.size(); ++i) {
        queries[i] = head + static_cast<Timestamp>(i / kQueriesPerSecond);
    }

    const ThreadCpuTimer timer;
    const std::size_t n = names.size();
    std::vector<std::vector<double>> hitSamples(n);
    std::vector<std::vector<double>> getSamples(n);
    Count sink = 0;  // every answer is used: no call can be left out
    for (std::size_t round = 0; round < kSamples; ++round) {
        for (std::size_t k = 0; k < n; ++k) {
            if (stop.stop_requested()) {
                return {};
            }
            const std::size_t p = (round + k) % n;
            std::vector<std::unique_ptr<WindowCounter>> fresh;
            fresh.push_back(make(names[p]));
            Lockstep sample(std::move(fresh), timer);
            sample.feed(fed);
            WindowCounter& c = *sample.policies().front();
            const auto queriedFrom = ThreadCpuTimer::now();
            for (const Timestamp t : queries) {
                sink += c.count(t);
            }
            const auto queried = timer.since(queriedFrom);
            hitSamples[p].push_back(sample.nsPerHit(0));
            getSamples[p].push_back(static_cast<double>(queried.count()) /
                                    static_cast<double>(queries.size()));
        }
    }
    const volatile Count used = sink;
    static_cast<void>(used);
    PolicyCosts costs;
    costs.streamEvents = stream.size();
    costs.streamSeconds = spanOf(stream);
    costs.hitOps = fed.size();
    costs.getHitsOps = queries.size();
    for (std::size_t p = 0; p < n; ++p) {
        costs.policies.push_back(
            {names[p], figureOf(hitSamples[p]), figureOf(getSamples[p]), hitSamples[p].size()});
    }
    return costs;
}

}  // namespace hitcounter
