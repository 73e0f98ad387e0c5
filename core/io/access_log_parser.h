// AccessLogParser: one access-log line (CLF, combined, a user's nginx log_format, or a
// JSON-lines object) into one HitEvent: time in UTC seconds, key, visitor = client address,
// count 1, statusClass from the status (2 for 2xx ...; 0 when absent or not a status).
//
// Not thread-safe (it reuses buffers); one owner. Cost: O(line length), no allocation per
// line once its buffers have grown.
//
// Keys (AccessLogKey, CLI --key): path (the request path without its query string; the
// default), path+query, status, method, vhost, client. A request line that is not
// `METHOD target[ PROTOCOL]` (garbage, TLS bytes sent to a plain port, "-") still counts as a
// hit; its path and method key is kInvalidRequestKey.
//
// JSON lines: one object per line with named members, matched by name (first found wins):
//     time    time, timestamp, @timestamp, time_iso8601, time_local, msec, ts
//             (ISO 8601, CLF time, or epoch seconds as a number or a string)
//     client  remote_addr, client, client_ip, clientip, ip, remote_ip
//     request request; method: request_method, method; target: request_uri, uri, url, path
//     status  status, status_code;  vhost: host, vhost, server_name, http_host
//     bytes   body_bytes_sent, bytes_sent, bytes, size
//     response time  request_time, upstream_response_time, response_time, duration (seconds);
//             request_time_ms, response_time_ms, duration_ms; request_time_us,
//             response_time_us, duration_us
//
// Measures (measure_fields.h): event.bytes and event.seconds from the format's bytes and
// response-time fields (kNoBytes / kNoSeconds when it has none); a field that is not a
// measure makes the line a BadMeasure row.
//
// Filter (setFilter): a line that matches the format is shown to the filter as a FilterRecord
// (filter_record.h: path and method as --key path and --key method make them) before its time
// is read; a line it refuses parses to Filtered: neither a row nor a bad row. Series filters
// (setSeries) see the same record and mark the hit (HitEvent::series) without dropping it.
//
// Example:
//     AccessLogParser p(LogFormat::combined(), AccessLogKey::Path);
//     p.parse(R"(1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a?b HTTP/1.1" 200 5 "-" "x")",
//             event, problem);   // TraceErrorKind::None; event = {971211336, "/a", "1.2.3.4", 1}
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/filter/record_filter.h"
#include "core/filter/series_filters.h"
#include "core/io/log_format.h"
#include "core/io/trace_reader_types.h"

namespace hitcounter {

enum class AccessLogKey { Path, PathQuery, Status, Method, Vhost, Client };

inline constexpr std::string_view kInvalidRequestKey = "(invalid request)";

// The HTTP status class of a status field (HitEvent::statusClass): "404" -> 4; 0 for anything
// that is not three digits from 100 to 599 ("-", "", "42", "600").
std::uint8_t statusClassOf(std::string_view status);

// "path", "path+query", "status", "method", "vhost", "client"; nullopt for anything else.
std::optional<AccessLogKey> accessLogKeyFromName(std::string_view name);
std::string_view accessLogKeyName(AccessLogKey key);

class AccessLogParser {
public:
    // Lines in `format`. Throws std::invalid_argument when `key` needs a field the format does
    // not have (vhost without $host, $server_name or $http_host).
    AccessLogParser(LogFormat format, AccessLogKey key);
    // JSON lines.
    static AccessLogParser jsonLines(AccessLogKey key);

    // From now on lines `filter` refuses parse to Filtered (see above); null: none. Throws
    // std::invalid_argument ("filter 'vhost=a': column 1: field 'vhost' is not in ...") when it
    // names a field the format lacks.
    void setFilter(std::shared_ptr<const RecordFilter> filter);
    // From now on each hit's series mask says which of `series` accept its line; null: none
    // (mask 0). Throws std::invalid_argument like setFilter.
    void setSeries(std::shared_ptr<const SeriesFilters> series);

    // Fills `event` and returns None; or returns the error kind and sets `problem`; or returns
    // Filtered.
    TraceErrorKind parse(std::string_view line, HitEvent& event, std::string& problem);

    AccessLogKey key() const { return m_key; }
    // The UTC offset the last line's time was written with (utcOffsetOf, log_time.h); nullopt
    // before a line parsed or when its time names none.
    std::optional<int> lastUtcOffset() const { return m_lastUtcOffset; }
    // How many lines' times it has read (each sets lastUtcOffset): a reader that parses lines
    // elsewhere tells by it which lines set the offset.
    std::uint64_t timesRead() const { return m_timesRead; }

private:
    explicit AccessLogParser(AccessLogKey key) : m_key(key) {}
    bool parseJson(std::string_view line, AccessLogFields& fields, std::string& problem);
    TraceErrorKind toEvent(const AccessLogFields& fields, HitEvent& event, std::string& problem);
    FilterFields filterFields() const;  // what this format's lines have

    std::optional<LogFormat> m_format;  // nullopt: JSON lines
    AccessLogKey m_key;
    std::shared_ptr<const RecordFilter> m_filter;
    std::shared_ptr<const SeriesFilters> m_series;
    std::optional<int> m_lastUtcOffset;
    std::uint64_t m_timesRead = 0;
    // JSON lines: decoded member values the fields point into.
    std::string m_time, m_client, m_request, m_method, m_target, m_status, m_host, m_bytes,
        m_responseTime;
};

}  // namespace hitcounter
