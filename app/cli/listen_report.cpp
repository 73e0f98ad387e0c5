#include "app/cli/listen_report.h"

#include <string_view>

#include "core/base/saturating.h"
#include "core/net/text_escape.h"
#include "core/sources/source_stats_fields.h"

namespace hitcounter::cli {

namespace {

// Keys listed one by one in the text report (the JSON report lists them all).
constexpr std::size_t kTextKeys = 20;
// Keys written between two looks at `interrupted` and two writes.
constexpr std::size_t kKeysPerChunk = 4096;

// Text gathered in memory and written in chunks.
class Output {
public:
    explicit Output(std::FILE* file) : m_file(file) {}

    Output& operator<<(std::string_view text) {
        m_buffer.append(text);
        return *this;
    }
    Output& operator<<(std::uint64_t n) {
        m_buffer.append(std::to_string(n));
        return *this;
    }
    Output& operator<<(char c) {
        m_buffer.push_back(c);
        return *this;
    }
    // Writes what is gathered; false if the write failed.
    bool write() {
        const bool ok = std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) == m_buffer.size();
        m_buffer.clear();
        return ok && std::fflush(m_file) == 0;
    }

private:
    std::FILE* m_file;
    std::string m_buffer;
};

SourceStats totalOf(const ListenSummary& summary) {
    SourceStats t;
    for (const ListenerSummary& l : summary.listeners) {
        t += l.stats;
    }
    return t;
}

struct Connections {
    bool any = false;
    std::uint64_t deferred = 0, timedOut = 0, evicted = 0;
};

Connections connectionsOf(const ListenSummary& summary) {
    Connections c;
    for (const ListenerSummary& l : summary.listeners) {
        c.any = c.any || l.tcp;
        c.deferred = saturatingAdd(c.deferred, l.deferredConnections);
        c.timedOut = saturatingAdd(c.timedOut, l.timedOutConnections);
        c.evicted = saturatingAdd(c.evicted, l.evictedConnections);
    }
    return c;
}

std::string secondsText(double seconds, int decimals) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, seconds);
    return text;
}

// Ends a report at a chunk boundary: interrupted, or the write failed.
std::optional<ReportEnd> endOfChunk(Output& out, const std::function<bool()>& interrupted) {
    if (interrupted()) {
        return ReportEnd::Interrupted;
    }
    if (!out.write()) {
        return ReportEnd::WriteFailed;
    }
    return std::nullopt;
}

ReportEnd printText(Output& out, const ListenSummary& summary, const KeyTotals& keys,
                    const std::function<bool()>& interrupted) {
    const SourceStats s = totalOf(summary);
    out << "listened " << secondsText(summary.seconds, 1) << " s on";
    for (const ListenerSummary& l : summary.listeners) {
        out << ' ' << escapeForTerminal(l.description)
            << (&l == &summary.listeners.back() ? "" : ",");
    }
    bool first = true;
    forEachField(s, [&](const SourceStatsField& field, std::uint64_t value) {
        out << (first ? "\n" : "  ") << field.text << ' ' << value;
        first = false;
    });
    out << '\n';
    if (const Connections c = connectionsOf(summary); c.any) {
        out << "connections deferred " << c.deferred << "  timed_out " << c.timedOut << "  evicted "
            << c.evicted << '\n';
    }
    for (const ListenerSummary& l : summary.listeners) {
        if (l.follow) {
            out << escapeForTerminal(l.description) << ": lines " << l.stats.lines << "  hits "
                << l.stats.hits << "  bad_lines " << l.stats.badLines << "  rotations "
                << l.follow->rotations << "  truncations " << l.follow->truncations
                << "  lost_partial_lines " << l.follow->lostPartialLines << '\n';
        }
    }
    for (const ListenerSummary& l : summary.listeners) {
        for (const ProblemCount& p : l.problems) {
            // The bytes of a bad line in `last` are already escaped (quoteLine()).
            out << "problem " << p.kind << " x" << p.count << ", last: " << p.last << '\n';
        }
    }
    const auto sorted = keys.byHits();
    out << std::uint64_t{sorted.size()} << " key(s)" << (sorted.empty() ? "" : ", by hits:")
        << '\n';
    for (std::size_t i = 0; i < sorted.size() && i < kTextKeys; ++i) {
        out << "  " << escapeForTerminal(sorted[i].first) << ' ' << sorted[i].second << '\n';
    }
    if (sorted.size() > kTextKeys) {
        out << "  ... " << std::uint64_t{sorted.size() - kTextKeys}
            << " more (--json lists them all)\n";
    }
    if (const KeyTotals::Folded f = keys.folded(); f.keys > 0) {
        out << "  (other keys) " << f.hits << " in " << f.keys
            << " folded key(s), to stay within --key-memory\n";
    }
    if (!summary.redisJson.empty()) {
        out << "redis: " << summary.redisJson << '\n';
    }
    return endOfChunk(out, interrupted).value_or(ReportEnd::Printed);
}

void jsonStats(Output& out, const SourceStats& s, std::string_view indent) {
    bool first = true;
    forEachField(s, [&](const SourceStatsField& field, std::uint64_t value) {
        out << (first ? "" : ",\n") << indent << '"' << field.json << "\": " << value;
        first = false;
    });
}

void jsonConnections(Output& out, std::uint64_t deferred, std::uint64_t timedOut,
                     std::uint64_t evicted, std::string_view indent) {
    out << ",\n"
        << indent << "\"deferred_connections\": " << deferred << ",\n"
        << indent << "\"timed_out_connections\": " << timedOut << ",\n"
        << indent << "\"evicted_connections\": " << evicted;
}

void jsonFollow(Output& out, const FollowStats& f, std::string_view indent) {
    out << ",\n"
        << indent << "\"rotations\": " << f.rotations << ",\n"
        << indent << "\"truncations\": " << f.truncations << ",\n"
        << indent << "\"lost_partial_lines\": " << f.lostPartialLines;
}

// Writes `"name": {"key": hits, ...}` for the keys that pass `take`, named by `name`.
template <class Take, class Name>
std::optional<ReportEnd> jsonKeys(Output& out, std::string_view field,
                                  const std::vector<KeyTotals::Entry>& sorted, Take take, Name name,
                                  const std::function<bool()>& interrupted) {
    out << "    \"" << field << "\": {";
    bool first = true;
    std::size_t written = 0;
    for (const auto& [key, hits] : sorted) {
        if (!take(key)) {
            continue;
        }
        out << (first ? "\n" : ",\n") << "        " << jsonString(name(key)) << ": " << hits;
        first = false;
        if (++written % kKeysPerChunk == 0) {
            if (const auto end = endOfChunk(out, interrupted)) {
                return end;
            }
        }
    }
    out << (first ? "}" : "\n    }");
    return std::nullopt;
}

// "last_problems": [...], "problems": [{listener, kind, count, last}, ...]
void jsonProblems(Output& out, const ListenSummary& summary) {
    out << ",\n    \"last_problems\": [";
    bool first = true;
    for (const ListenerSummary& l : summary.listeners) {
        if (!l.lastProblem.empty()) {
            out << (first ? "" : ", ") << jsonString(l.lastProblem);
            first = false;
        }
    }
    out << "],\n    \"problems\": [";
    first = true;
    for (const ListenerSummary& l : summary.listeners) {
        for (const ProblemCount& p : l.problems) {
            out << (first ? "\n" : ",\n") << "        {\"listener\": " << jsonString(l.description)
                << ", \"kind\": " << jsonString(p.kind) << ", \"count\": " << p.count
                << ", \"last\": " << jsonString(p.last) << '}';
            first = false;
        }
    }
    out << (first ? "]" : "\n    ]");
}

ReportEnd printJson(Output& out, const ListenSummary& summary, const KeyTotals& keys,
                    const std::function<bool()>& interrupted) {
    out << "{\n    \"listeners\": [";
    for (const ListenerSummary& l : summary.listeners) {
        out << (&l == &summary.listeners.front() ? "" : ", ") << jsonString(l.description);
    }
    out << "],\n    \"seconds\": " << secondsText(summary.seconds, 3) << ",\n";
    jsonStats(out, totalOf(summary), "    ");
    const Connections c = connectionsOf(summary);
    jsonConnections(out, c.deferred, c.timedOut, c.evicted, "    ");
    jsonProblems(out, summary);
    out << ",\n    \"by_listener\": [";
    for (const ListenerSummary& l : summary.listeners) {
        out << (&l == &summary.listeners.front() ? "\n" : ",\n")
            << "        {\n            \"listener\": " << jsonString(l.description) << ",\n";
        jsonStats(out, l.stats, "            ");
        if (l.tcp) {
            jsonConnections(out, l.deferredConnections, l.timedOutConnections, l.evictedConnections,
                            "            ");
        }
        if (l.follow) {
            jsonFollow(out, *l.follow, "            ");
        }
        out << "\n        }";
    }
    const KeyTotals::Folded f = keys.folded();
    out << "\n    ],\n    \"folded_keys\": " << f.keys << ",\n    \"folded_hits\": " << f.hits
        << ",\n";
    const auto sorted = keys.byKey();
    const auto identity = [](std::string_view key) { return std::string(key); };
    if (const auto end = jsonKeys(out, "keys", sorted, isValidUtf8, identity, interrupted)) {
        return *end;
    }
    out << ",\n";
    const auto notUtf8 = [](std::string_view key) { return !isValidUtf8(key); };
    if (const auto end = jsonKeys(out, "keys_hex", sorted, notUtf8, hexBytes, interrupted)) {
        return *end;
    }
    if (!summary.redisJson.empty()) {
        out << ",\n    \"redis\": " << summary.redisJson;
    }
    if (!summary.alertsJson.empty()) {
        out << ",\n" << summary.alertsJson;
    }
    out << "\n}\n";
    return endOfChunk(out, interrupted).value_or(ReportEnd::Printed);
}

}  // namespace

ReportEnd printListenReport(std::FILE* file, const ListenSummary& summary, const KeyTotals& keys,
                            bool json, const std::function<bool()>& interrupted) {
    Output out(file);
    return json ? printJson(out, summary, keys, interrupted)
                : printText(out, summary, keys, interrupted);
}

}  // namespace hitcounter::cli
