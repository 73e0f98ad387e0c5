#include "core/engine/engine_worker.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "core/base/saturating.h"
#include "core/engine/history_delta.h"

namespace hitcounter {

namespace {
// How long the worker waits for a batch before it looks at its commands and requests again:
// short enough that an idle live source's head and a frame request are served within a frame.
constexpr std::chrono::milliseconds kIdleWait{5};
// With a backlog, a frame that took d to build is followed by at least this many d of counting.
constexpr int kBacklogFrameRatio = 3;
// Below this many live keys the limiters' memory is added up for every frame.
constexpr std::size_t kLimitsMemoryKeys = 10000;
}  // namespace

EngineWorker::EngineWorker(BatchQueue& input, EngineOptions options)
    : m_input(input),
      m_engine(options),
      m_options(std::move(options)),
      m_commandGeneration(m_checkpoints->generation()),
      m_generation(m_commandGeneration) {
    m_costs.setPolicies(m_options);
}

EngineWorker::~EngineWorker() {
    stop();
}

void EngineWorker::start() {
    if (!m_thread.joinable()) {
        m_costs.start();
        m_thread = std::jthread([this](std::stop_token stop) { run(stop); });
    }
}

void EngineWorker::stop() {
    if (m_thread.joinable()) {
        m_thread.request_stop();
        m_thread.join();
        m_thread = std::jthread();
    }
    m_costs.stop();
}

void EngineWorker::setOptions(EngineOptions options) {
    m_costs.setPolicies(options);
    std::lock_guard lock(m_commandMutex);
    m_options = options;
    m_commandOptions = std::move(options);
    m_commandGeneration = m_checkpoints->invalidate();
}

void EngineWorker::rewindow(EngineOptions options) {
    m_costs.setPolicies(options);
    std::lock_guard lock(m_commandMutex);
    m_options = options;
    m_commandOptions.reset();
    m_commandRewindow = std::move(options);
    m_commandGeneration = m_checkpoints->invalidate();
}

EngineOptions EngineWorker::options() const {
    std::lock_guard lock(m_commandMutex);
    return m_options;
}

void EngineWorker::setLiveClock(const Clock* clock) {
    std::lock_guard lock(m_commandMutex);
    m_commandClock = clock;
}

void EngineWorker::setKeyView(std::string key, std::chrono::seconds level,
                              std::vector<std::string> more) {
    if (more.size() > kMoreKeys) {
        more.resize(kMoreKeys);
    }
    std::lock_guard lock(m_commandMutex);
    m_commandKey = std::move(key);
    m_commandLevel = level;
    m_commandMoreKeys = std::move(more);
}

void EngineWorker::setWatchedKeys(std::vector<std::string> keys) {
    std::erase_if(keys, [](const std::string& key) { return key.empty(); });
    if (keys.size() > kWatchedKeys) {
        keys.resize(kWatchedKeys);
    }
    std::lock_guard lock(m_commandMutex);
    m_commandWatched = std::move(keys);
}

void EngineWorker::setKeyFilter(std::string filter) {
    std::lock_guard lock(m_commandMutex);
    m_commandFilter = std::move(filter);
}

void EngineWorker::setLimits(LimitsOptions options) {
    LimitsFeed check(options);  // throws for bad options, here rather than on the worker
    std::lock_guard lock(m_commandMutex);
    m_limitsOptions = options;
    m_commandLimits = std::move(options);
    m_commandGeneration = m_checkpoints->invalidate();
}

LimitsOptions EngineWorker::limitsOptions() const {
    std::lock_guard lock(m_commandMutex);
    return m_limitsOptions;
}

std::uint64_t EngineWorker::requestFrame() {
    return m_requested.fetch_add(1) + 1;
}

std::shared_ptr<const EngineFrame> EngineWorker::takeFrame() {
    std::shared_ptr<const EngineFrame> frame;
    {
        std::lock_guard lock(m_frameMutex);
        frame = std::move(m_frame);
    }
    if (frame) {
        requestFrame();
    }
    return frame;
}

std::unique_ptr<TraceRecorder> EngineWorker::setRecorder(std::unique_ptr<TraceRecorder> recorder) {
    std::lock_guard lock(m_recorderMutex);
    return std::exchange(m_recorder, std::move(recorder));
}

void EngineWorker::run(std::stop_token stop) {
    while (!stop.stop_requested()) {
        applyCommands(false);
        std::optional<HitBatch> batch = m_input.popFor(kIdleWait);
        if (batch) {
            feed(*batch);
        } else if (m_clock != nullptr && !m_engine.empty()) {
            // Quiet seconds still move a live window: the head follows the clock.
            m_engine.advanceTo(m_clock->now());
            m_limits.advanceTo(m_clock->now());
        }
        // Frames never starve the counting: with a backlog, at most a quarter of the time goes
        // to building them (the items' uniques are the costly part).
        const auto now = std::chrono::steady_clock::now();
        if (m_requested.load() > m_answered && (!batch || now >= m_nextPublish)) {
            applyCommands(false);  // a frame asked for after a command shows its effect
            publish(!batch.has_value());
            m_nextPublish = std::chrono::steady_clock::now() +
                            kBacklogFrameRatio * (std::chrono::steady_clock::now() - now);
        }
    }
}

void EngineWorker::applyCommands(bool atReset) {
    std::lock_guard lock(m_commandMutex);
    if (atReset && m_commandOptions) {
        m_engine.reset(std::move(*m_commandOptions));
        m_commandOptions.reset();
    }
    if (m_commandRewindow) {
        m_engine.rewindow(std::move(*m_commandRewindow));
        m_commandRewindow.reset();
    }
    if (m_commandLimits) {
        m_limits.restart(std::move(*m_commandLimits));
        m_commandLimits.reset();
    }
    m_clock = m_commandClock;
    m_key = m_commandKey;
    m_moreKeys = m_commandMoreKeys;
    if (m_commandWatched) {
        m_watched = std::move(*m_commandWatched);
        m_commandWatched.reset();
    }
    m_filter = m_commandFilter;
    m_level = m_commandLevel;
    const bool waiting = m_commandOptions || m_commandRewindow || m_commandLimits;
    m_generation = waiting ? 0 : m_commandGeneration;
}

void EngineWorker::feed(const HitBatch& batch) {
    if (batch.kind == BatchKind::Reset) {
        applyCommands(true);  // new options set before the marker was pushed apply to it
        if (restoreCheckpoint(batch)) {
            m_limits.reset();
            m_costs.observe(batch);
            return;
        }
    }
    HitBatch inWindow;
    const HitBatch& counted = withoutTooLate(batch, inWindow);
    m_engine.ingest(counted);
    if (batch.kind == BatchKind::Reset) {
        m_limits.reset();
        m_costs.observe(batch);
    }
    if (batch.kind == BatchKind::Reset || batch.epoch != m_engine.streamEpoch()) {
        return;
    }
    if (batch.kind == BatchKind::Clock) {
        m_limits.advanceTo(batch.clock);
        return;
    }
    m_limits.feed(counted);
    m_costs.observe(batch);
    if (&counted == &batch) {
        followStream(batch);
    } else {
        m_followed.stream = 0;  // hits were left out: not the replay's state any more
    }
    Count hits = 0;
    for (const HitEvent& e : batch) {
        hits = saturatingAdd(hits, e.count);
    }
    m_ingested = saturatingAdd(m_ingested, hits);
    if (batch.kind == BatchKind::Hits) {
        std::lock_guard lock(m_recorderMutex);
        if (m_recorder) {
            m_recorder->write(batch);
            m_recorder->flushIfDue(std::chrono::steady_clock::now().time_since_epoch());
        }
    }
}

bool EngineWorker::restoreCheckpoint(const HitBatch& reset) {
    m_followed = {reset.stream, {0, std::numeric_limits<Timestamp>::min(), 0}};
    if (!reset.resume) {
        return false;
    }
    // Only the CheckpointStore hands out checkpoints, and it holds CountingCheckpoints.
    const auto& checkpoint = static_cast<const CountingCheckpoint&>(*reset.resume);
    if (checkpoint.generation() != m_generation || m_limits.enabled() ||
        !m_engine.restore(checkpoint.engine(), reset.epoch)) {
        // Counted with other options (a command overtook the seek): start empty, as without
        // a checkpoint; the rows it stood for are not sent, so the next seek (the command's)
        // is the one to trust. Nothing is followed until then.
        m_followed.stream = 0;
        return false;
    }
    m_followed.point = checkpoint.point();
    return true;
}

void EngineWorker::followStream(const HitBatch& counted) {
    if (m_followed.stream == 0) {
        return;
    }
    StreamPoint& point = m_followed.point;
    if (counted.stream != m_followed.stream || counted.firstRow != point.rows) {
        m_followed.stream = 0;  // rows dropped on the way, or a later pass: not followed
        return;
    }
    point.rows += counted.size();
    point.line = counted.lastLine;
    for (const HitEvent& e : counted) {
        point.rowMax = std::max(point.rowMax, e.time);
    }
    point.head = m_engine.head();
    if (m_limits.enabled() ||
        !m_checkpoints->wants(m_followed.stream, m_generation, point.head, 0)) {
        return;
    }
    const std::size_t bytes = m_engine.memoryBytes();
    if (!m_checkpoints->wants(m_followed.stream, m_generation, point.head, bytes)) {
        return;
    }
    if (auto copy = m_engine.clone()) {
        m_checkpoints->add(m_followed.stream, std::make_shared<const CountingCheckpoint>(
                                                  point, m_generation, std::move(copy)));
    }
}

const HitBatch& EngineWorker::withoutTooLate(const HitBatch& batch, HitBatch& inWindow) {
    if (m_clock == nullptr || batch.kind != BatchKind::Hits ||
        batch.epoch != m_engine.streamEpoch()) {
        return batch;
    }
    // The window of a live source ends at its clock: a hit at or before now - W is outside it
    // however new the hits before it were (a followed log years off the clock).
    const Timestamp oldest = m_clock->now() - m_engine.options().window.count();
    const auto outside = [oldest](const HitEvent& e) { return e.time <= oldest; };
    if (std::none_of(batch.begin(), batch.end(), outside)) {
        return batch;
    }
    inWindow.epoch = batch.epoch;
    inWindow.kind = batch.kind;
    Count tooLate = 0;
    for (const HitEvent& e : batch) {
        if (outside(e)) {
            tooLate = saturatingAdd(tooLate, e.count);
        } else {
            inWindow.push_back(e);
        }
    }
    m_engine.countTooLate(tooLate);
    return inWindow;
}

void EngineWorker::publish(bool idle) {
    // A frame not taken yet is replaced: the new one carries its history changes too.
    bool rebuild = m_engine.epoch() != m_seenEpoch;
    Timestamp from = m_engine.dirtyFrom();
    std::shared_ptr<const EngineFrame> untaken;
    {
        std::lock_guard lock(m_frameMutex);
        untaken = m_frame;
        if (m_frame) {
            includeUntaken(rebuild, from, m_frame->rebuild, m_frame->history);
        }
    }
    auto frame = std::make_shared<EngineFrame>();
    frame->ticket = m_requested.load();
    frame->idle = idle;
    frame->streamEpoch = m_engine.streamEpoch();
    frame->hitsIngested = m_ingested;
    frame->staleBatches = m_engine.staleBatches();
    frame->snapshot = m_engine.snapshot();
    frame->costs = m_costs.latest();
    frame->rebuild = rebuild;
    m_seenEpoch = m_engine.epoch();
    frame->history = m_engine.historyFrom(rebuild ? std::numeric_limits<Timestamp>::min() : from);
    m_engine.markClean();
    fillItems(*frame);
    if (rebuild) {
        m_watchNext.reset();
    }
    fillWatched(*frame, untaken.get());
    // The limiters' memory is O(keys) to add up: with many keys, once a second is enough.
    const auto now = std::chrono::steady_clock::now();
    const bool memory = now - m_limitsMemoryAt >= std::chrono::seconds(1) ||
                        (m_limits.lab() != nullptr && !m_limits.lab()->lanes().empty() &&
                         m_limits.lab()->lanes().front().limiter->liveKeys() < kLimitsMemoryKeys);
    if (memory) {
        m_limitsMemoryAt = now;
    }
    m_limits.fill(frame->limits, untaken ? &untaken->limits : nullptr, memory);
    m_answered = frame->ticket;
    std::lock_guard lock(m_frameMutex);
    m_frame = std::move(frame);
}

void EngineWorker::fillItems(EngineFrame& frame) {
    if (m_engine.empty()) {
        return;
    }
    const Timestamp head = frame.snapshot.head;
    KeyedMonitor& monitor = m_engine.keyed();
    KeyedCounter& keys = monitor.keys();
    std::vector<KeyCount> tops;
    if (m_filter.empty()) {
        tops = keys.top(kTopKeys, head);
    } else {
        const auto lower = [](std::string_view text) {
            std::string out(text);
            std::transform(out.begin(), out.end(), out.begin(),
                           [](unsigned char c) { return char(std::tolower(c)); });
            return out;
        };
        const std::string needle = lower(m_filter);
        for (KeyCount& k : keys.windowCounts(head)) {
            if (lower(k.key).find(needle) != std::string::npos) {
                tops.push_back(std::move(k));
            }
        }
        const auto order = [](const KeyCount& a, const KeyCount& b) {
            return a.count != b.count ? a.count > b.count : a.key < b.key;
        };
        const std::size_t n = std::min<std::size_t>(kTopKeys, tops.size());
        std::partial_sort(tops.begin(), tops.begin() + std::ptrdiff_t(n), tops.end(), order);
        tops.resize(n);
    }
    for (KeyCount& top : tops) {
        KeyRow row;
        row.window = top.count;
        row.level = keys.countLast(top.key, head, m_level);
        row.allTime = keys.allTime(top.key);
        row.uniques = keys.uniques(top.key, head);
        row.key = std::move(top.key);
        frame.top.push_back(std::move(row));
    }
    const KeyStats all = monitor.overall(head);
    frame.allKeysWindow = all.window;
    frame.allKeysUniques = all.uniques;
    frame.foldedKeys = keys.foldedKeys();
    frame.foldedHits = keys.foldedHits();
    frame.keyMemoryCap = m_engine.options().keyMemoryCap;
    frame.selectedKey = m_key.empty() && !frame.top.empty() ? frame.top.front().key : m_key;
    if (frame.selectedKey.empty() || m_engine.history().empty()) {
        return;
    }
    frame.keySeriesFrom = std::max(head - kKeySeriesSeconds, m_engine.history().front().second);
    // The level count as it was at each second t: hits in (t - level, t] (countLast() at a past
    // t would count from head - level, a ramp under steady traffic).
    const auto levelCountAt = [&](const std::string& key, Timestamp t) {
        return keys.between(key, t - m_level.count(), t);
    };
    for (Timestamp t = frame.keySeriesFrom; t <= head; ++t) {
        frame.keySeries.push_back(levelCountAt(frame.selectedKey, t));
    }
    for (const std::string& key : m_moreKeys) {
        if (key == frame.selectedKey) {
            continue;
        }
        KeySeriesValues& series = frame.moreKeySeries.emplace_back();
        series.key = key;
        for (Timestamp t = frame.keySeriesFrom; t <= head; ++t) {
            series.values.push_back(levelCountAt(key, t));
        }
    }
}

void EngineWorker::fillWatched(EngineFrame& frame, const EngineFrame* untaken) {
    if (m_engine.empty() || m_engine.history().empty()) {
        return;
    }
    const Timestamp head = frame.snapshot.head;
    KeyedCounter& keys = m_engine.keyed().keys();
    const Timestamp w = keys.window().count();
    // A past second's window must lie inside what the keys retain (and the history shows).
    const Timestamp earliest =
        std::max(m_engine.history().front().second, head - keys.retention().count() + w);
    Timestamp from = m_watchNext ? std::min(*m_watchNext, head) : earliest;
    if (untaken != nullptr) {
        from = std::min(from, untaken->watchedFrom);  // the GUI never saw that frame
    }
    from = std::clamp(from, std::min(earliest, head), head);
    frame.watchedFrom = from;
    m_watchNext = head;
    for (const std::string& key : m_watched) {
        KeySeriesValues& series = frame.watched.emplace_back();
        series.key = key;
        series.values.reserve(static_cast<std::size_t>(head - from + 1));
        for (Timestamp s = from; s <= head; ++s) {
            series.values.push_back(keys.between(key, s - w, s));
        }
    }
}

}  // namespace hitcounter
