#include "core/net/line_ingest.h"

#include <cstdio>
#include <utility>

namespace hitcounter {

namespace {

// How long one wait for queue room lasts before the stop token is looked at again.
constexpr std::chrono::milliseconds kRoomWait{20};

void increment(std::uint64_t& count) {
    count = saturatingAdd(count, 1);
}

}  // namespace

FilterFields filterFieldsOf(WireProtocol protocol) {
    return protocol == WireProtocol::Statsd ? kStatsdFilterFields : kGraphiteFilterFields;
}

LineIngest::LineIngest(WireProtocol protocol, BatchQueue& out, std::size_t maxBatch,
                       std::size_t maxKeyBytes, std::shared_ptr<ProblemLog> problems)
    : m_protocol(protocol),
      m_maxBatch(maxBatch == 0 ? 1 : maxBatch),
      m_maxKeyBytes(maxKeyBytes),
      m_keyTooLong("key longer than " + std::to_string(maxKeyBytes) + " bytes"),
      m_sender(out, m_counters),
      m_problems(problems ? std::move(problems) : std::make_shared<ProblemLog>()) {}

void LineIngest::waitWhenFull(std::stop_token stop) {
    m_waitWhenFull = true;
    m_stop = std::move(stop);
}

void LineIngest::acceptTimes(AcceptedTimes window) {
    m_acceptedTimes = window;
    m_timeTooOld = window.problem(-window.past - 1, 0);
    m_timeTooNew = window.problem(window.future + 1, 0);
}

std::string_view LineIngest::addLine(std::string_view line) {
    const ParsedLine parsed = parseLine(m_protocol, line);
    switch (parsed.verdict) {
        case LineVerdict::Empty:
            return {};
        case LineVerdict::Bad:
            increment(m_lines), increment(m_badLines);
            return parsed.problem;
        case LineVerdict::Ignored:
            increment(m_lines), increment(m_ignoredLines);
            return {};
        case LineVerdict::Hit:
            break;
    }
    increment(m_lines);
    if (parsed.key.size() > m_maxKeyBytes) {
        increment(m_badLines);
        return m_keyTooLong;
    }
    SeriesMask series = 0;
    if (m_filter || m_series) {
        FilterRecord record;
        record.name = parsed.key;
        record.tags = parsed.tags;
        if (m_filter && !m_filter->matches(record)) {
            increment(m_ignoredLines);
            return {};
        }
        if (m_series)
            series = m_series->mask(record);
    }
    if (parsed.hits == 0) {
        return {};
    }
    if (parsed.time && m_acceptedTimes && !m_acceptedTimes->accepts(*parsed.time, m_now)) {
        increment(m_badLines);
        return *parsed.time < m_now ? m_timeTooOld : m_timeTooNew;
    }
    const Timestamp time = parsed.time.value_or(m_now);
    if (m_coalesce) {
        if (m_batch.empty() || time > m_batchNewest) {
            m_batchNewest = time;
            m_keyIndex.clear();  // its events are of an older second now
        }
        if (time == m_batchNewest) {
            const std::size_t at = m_keyIndex.find(parsed.key, m_batch);
            const bool timer = parsed.seconds >= 0;  // never merged, never merged into
            if (at == BatchKeyIndex::kNone && !timer)
                m_keyIndex.add(parsed.key, m_batch.size());
            else if (at != BatchKeyIndex::kNone && !timer && m_batch[at].series == series) {
                m_batch[at].count = saturatingAdd(m_batch[at].count, parsed.hits);
                return {};
            }  // else a timer, or another series mask: an event of its own
        }
    }
    if (m_batch.capacity() == 0) {
        // As large as the last batch: a flood fills batches without reallocating them; a
        // trickle's batch is shrunk to its size before it is queued (pushBatch()).
        m_batch.reserve(m_lastBatchSize);
    }
    m_batch.push_back(HitEvent{time, std::string(parsed.key), {}, parsed.hits});
    m_batch.back().series = series;
    m_batch.back().seconds = parsed.seconds < 0 ? HitEvent::kNoSeconds : parsed.seconds;
    m_batchBytes += sizeof(HitEvent) + parsed.key.size();
    if (m_batch.size() >= m_maxBatch || m_batchBytes >= kMaxBatchBytes) {
        pushBatch();
    }
    return {};
}

void LineIngest::addBadLine() {
    increment(m_lines), increment(m_badLines);
}

void LineIngest::noteProblem(std::string_view kind, std::string message) {
    m_problems->note(kind, std::move(message));
}

void LineIngest::noteBadLine(const std::string& source, const std::string& sender,
                             std::string_view problem, std::string_view line) {
    std::string quoted = quoteLine(line, BadLineLog::kMaxLineBytes);
    noteProblem(problem,
                source + " from " + sender + ": " + std::string(problem) + ": " + quoteLine(line));
    m_problems->badLines().add({m_now, source, sender, std::string(problem), std::move(quoted)});
}

bool LineIngest::pastStopGrace() {
    if (!m_stop.stop_requested()) {
        return false;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!m_giveUpAt) {
        m_giveUpAt = now + kStopGrace;
    }
    return now >= *m_giveUpAt;
}

void LineIngest::pushBatch() {
    if (m_waitWhenFull) {
        while (!m_batch.empty() && !pastStopGrace() && !m_sender.sendFor(m_batch, kRoomWait)) {
        }
    }
    if (!m_batch.empty()) {
        m_lastBatchSize = m_batch.size();
        if (m_batch.capacity() > 2 * m_batch.size()) {
            // Reserved for a flood, filled by a trickle: the queue counts the capacity.
            m_batch.shrink_to_fit();
        }
        m_sender.send(std::exchange(m_batch, {}), false, {});
    }
    m_batchBytes = 0;
}

void LineIngest::flush() {
    pushBatch();
    addSaturating(m_counters.packets, std::exchange(m_packets, 0));
    addSaturating(m_counters.lines, std::exchange(m_lines, 0));
    addSaturating(m_counters.badLines, std::exchange(m_badLines, 0));
    addSaturating(m_counters.ignoredLines, std::exchange(m_ignoredLines, 0));
}

}  // namespace hitcounter
