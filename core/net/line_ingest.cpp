#include "core/net/line_ingest.h"

#include <cstdio>
#include <utility>

namespace hitcounter {

LineIngest::LineIngest(WireProtocol protocol, BatchQueue& out, std::size_t maxBatch)
    : m_protocol(protocol), m_maxBatch(maxBatch == 0 ? 1 : maxBatch), m_sender(out, m_counters) {}

std::string_view LineIngest::addLine(std::string_view line) {
    const ParsedLine parsed = parseLine(m_protocol, line);
    switch (parsed.verdict) {
        case LineVerdict::Empty:
            return {};
        case LineVerdict::Bad:
            ++m_lines, ++m_badLines;
            return parsed.problem;
        case LineVerdict::Ignored:
            ++m_lines, ++m_ignoredLines;
            return {};
        case LineVerdict::Hit:
            break;
    }
    ++m_lines;
    if (parsed.hits == 0) {
        return {};
    }
    m_batch.push_back(
        HitEvent{parsed.time.value_or(m_now), std::string(parsed.key), {}, parsed.hits});
    if (m_batch.size() >= m_maxBatch) {
        flush();
    }
    return {};
}

void LineIngest::noteProblem(std::string problem) {
    std::lock_guard lock(m_problemMutex);
    m_lastProblem = std::move(problem);
}

void LineIngest::flush() {
    if (!m_batch.empty()) {
        m_sender.send(std::exchange(m_batch, {}), false, {});
    }
    constexpr auto r = std::memory_order_relaxed;
    m_counters.packets.fetch_add(std::exchange(m_packets, 0), r);
    m_counters.lines.fetch_add(std::exchange(m_lines, 0), r);
    m_counters.badLines.fetch_add(std::exchange(m_badLines, 0), r);
    m_counters.ignoredLines.fetch_add(std::exchange(m_ignoredLines, 0), r);
}

std::string LineIngest::lastProblem() const {
    std::lock_guard lock(m_problemMutex);
    return m_lastProblem;
}

std::string quoteLine(std::string_view line, std::size_t limit) {
    std::string out = "\"";
    for (std::size_t i = 0; i < line.size() && i < limit; ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += line.size() > limit ? "\"..." : "\"";
    return out;
}

}  // namespace hitcounter
