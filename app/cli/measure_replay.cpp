#include "app/cli/measure_replay.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "app/cli/keyed_replay.h"
#include "core/net/text_escape.h"

namespace hitcounter::cli {

namespace {

// A quantile as printed: six significant digits (the sketch is within 1 %, so more would be
// noise), and the double that text reads back as (what --json writes).
std::string quantileText(double seconds) {
    char text[32];
    const auto end =
        std::to_chars(text, text + sizeof text, seconds, std::chars_format::general, 6);
    return std::string(text, end.ptr);
}

// The largest time as recorded: the shortest text that reads back as its float.
std::string maxText(double seconds) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, static_cast<float>(seconds));
    return std::string(text, end.ptr);
}

double readBack(const std::string& text) {
    double value = 0.0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

}  // namespace

MeasureReplay::MeasureReplay(Measure measure, std::chrono::seconds window)
    : m_measure(measure), m_monitor(windowOnlyMonitor(window)) {}

void MeasureReplay::add(const HitEvent& event) {
    m_named = m_named || (m_measure == Measure::Bytes ? event.hasBytes() : event.hasSeconds());
    m_monitor.record(event);
}

void MeasureReplay::answer(Timestamp time) {
    Answer answer{time, {}};
    std::vector<KeyCount> keys = m_monitor.top(std::numeric_limits<std::size_t>::max(), time);
    std::sort(keys.begin(), keys.end(),
              [](const KeyCount& a, const KeyCount& b) { return a.key < b.key; });
    for (KeyCount& entry : keys) {
        const MeasuresSummary measures = m_monitor.measures(entry.key, time);
        answer.rows.push_back(Row{std::move(entry.key), entry.count, measures});
    }
    answer.rows.push_back(
        Row{"*", m_monitor.overall(time).window, m_monitor.overallMeasures(time)});
    m_answers.push_back(std::move(answer));
}

std::string MeasureReplay::csv() const {
    std::string out =
        m_measure == Measure::Bytes ? "time,key,bytes\n" : "time,key,p50,p90,p99,max\n";
    for (const Answer& answer : m_answers) {
        const std::string at = std::to_string(answer.time) + ',';
        for (const Row& row : answer.rows) {
            out += at + csvField(row.key) + ',';
            const MeasuresSummary& m = row.measures;
            if (m_measure == Measure::Bytes) {
                out += m.hasBytes() || row.hits == 0 ? std::to_string(m.bytes) : std::string();
            } else if (m.hasTimes()) {
                out += quantileText(m.p50) + ',' + quantileText(m.p90) + ',' + quantileText(m.p99) +
                       ',' + maxText(m.max);
            } else {
                out += ",,,";
            }
            out += '\n';
        }
    }
    return out;
}

void MeasureReplay::writeJson(JsonWriter& out) const {
    out.beginArray();
    for (const Answer& answer : m_answers) {
        out.beginObject().key("keys").beginArray();
        for (const Row& row : answer.rows) {
            const MeasuresSummary& m = row.measures;
            out.beginObject();
            if (m_measure == Measure::Bytes) {
                out.key("bytes");
                if (m.hasBytes() || row.hits == 0)
                    out.count(m.bytes);
                else
                    out.null();
                out.key("key").string(row.key);
            } else {
                out.key("key").string(row.key);
                for (const auto& [name, value] :
                     {std::pair{"max", m.max}, {"p50", m.p50}, {"p90", m.p90}, {"p99", m.p99}}) {
                    out.key(name);
                    if (!m.hasTimes())
                        out.null();
                    else
                        out.real(readBack(std::string_view(name) == "max" ? maxText(value)
                                                                          : quantileText(value)));
                }
                out.key("timed").count(m.timedHits);
            }
            out.endObject();
        }
        out.endArray().key("time").integer(answer.time).endObject();
    }
    out.endArray();
}

}  // namespace hitcounter::cli
