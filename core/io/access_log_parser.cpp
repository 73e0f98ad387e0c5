#include "core/io/access_log_parser.h"

#include <array>
#include <stdexcept>
#include <utility>

#include "core/io/json_line.h"
#include "core/io/log_time.h"
#include "core/io/measure_fields.h"
#include "core/io/quoted_field.h"

namespace hitcounter {

namespace {

constexpr std::string_view kLines = "this log's lines";

constexpr std::array<std::pair<AccessLogKey, std::string_view>, 6> kKeyNames = {{
    {AccessLogKey::Path, "path"},
    {AccessLogKey::PathQuery, "path+query"},
    {AccessLogKey::Status, "status"},
    {AccessLogKey::Method, "method"},
    {AccessLogKey::Vhost, "vhost"},
    {AccessLogKey::Client, "client"},
}};

bool oneOf(std::string_view name, std::initializer_list<std::string_view> names) {
    for (const auto n : names)
        if (name == n)
            return true;
    return false;
}

std::optional<Timestamp> parseTime(std::string_view text, LogTimeSyntax syntax) {
    switch (syntax) {
        case LogTimeSyntax::Clf:
            return parseClfTime(text);
        case LogTimeSyntax::Iso:
            return parseIsoTime(text);
        case LogTimeSyntax::Epoch:
            return parseEpochTime(text);
        case LogTimeSyntax::Any:
            return parseAnyLogTime(text);
    }
    return std::nullopt;
}

// What is wrong with a time that did not parse in its field's syntax, and what was expected.
std::string timeProblem(const AccessLogFields& fields) {
    std::string_view expected = "10/Oct/2000:13:55:36 -0700, 2000-10-10T13:55:36Z or epoch seconds";
    switch (fields.timeSyntax) {
        case LogTimeSyntax::Clf:
            expected = "10/Oct/2000:13:55:36 -0700";
            break;
        case LogTimeSyntax::Iso:
            expected = "2000-10-10T13:55:36Z";
            break;
        case LogTimeSyntax::Epoch:
            expected = "epoch seconds such as 971211336.123";
            break;
        case LogTimeSyntax::Any:
            break;
    }
    std::string_view fault = logTimeProblem(fields.time);
    if (fault.empty())
        fault = "is a time, but not of the form this log format names";
    return std::string(fault) + " (expected e.g. " + std::string(expected) + ")";
}

// The unit of a JSON member that names a response time (the header's list); nullopt for others.
std::optional<ResponseTimeUnit> jsonResponseTimeUnit(std::string_view name) {
    if (oneOf(name, {"request_time", "upstream_response_time", "response_time", "duration"}))
        return ResponseTimeUnit::Seconds;
    if (oneOf(name, {"request_time_ms", "response_time_ms", "duration_ms"}))
        return ResponseTimeUnit::Milliseconds;
    if (oneOf(name, {"request_time_us", "response_time_us", "duration_us"}))
        return ResponseTimeUnit::Microseconds;
    return std::nullopt;
}

// The fields a filter sees: path and method as --key path and --key method make them.
FilterRecord filterRecordOf(const AccessLogFields& fields) {
    FilterRecord record;
    record.status = fields.status;
    record.method = fields.requestValid ? fields.method : kInvalidRequestKey;
    record.path =
        fields.requestValid ? fields.target.substr(0, fields.target.find('?')) : kInvalidRequestKey;
    record.vhost = fields.host;
    record.client = fields.client;
    return record;
}

}  // namespace

std::optional<AccessLogKey> accessLogKeyFromName(std::string_view name) {
    for (const auto& [key, keyName] : kKeyNames)
        if (name == keyName)
            return key;
    return std::nullopt;
}

std::string_view accessLogKeyName(AccessLogKey key) {
    for (const auto& [k, keyName] : kKeyNames)
        if (k == key)
            return keyName;
    return "path";
}

AccessLogParser::AccessLogParser(LogFormat format, AccessLogKey key)
    : m_format(std::move(format)), m_key(key) {
    if (key == AccessLogKey::Vhost && !m_format->hasHost())
        throw std::invalid_argument(
            "--key vhost needs $host, $server_name or $http_host in the "
            "log format; this format has none");
}

AccessLogParser AccessLogParser::jsonLines(AccessLogKey key) {
    return AccessLogParser(key);
}

FilterFields AccessLogParser::filterFields() const {
    FilterFields available = kAccessLogFilterFields;
    if (!m_format || m_format->hasHost())
        available.add(FilterField::Vhost);
    return available;
}

void AccessLogParser::setFilter(std::shared_ptr<const RecordFilter> filter) {
    if (filter)
        if (const auto missing = filter->missingField(filterFields(), kLines))
            throw std::invalid_argument("filter '" + filter->text() +
                                        "': " + describeFilterProblem(*missing));
    m_filter = std::move(filter);
}

void AccessLogParser::setSeries(std::shared_ptr<const SeriesFilters> series) {
    if (series)
        if (const auto missing = series->missingField(filterFields(), kLines))
            throw std::invalid_argument(*missing);
    m_series = series && !series->empty() ? std::move(series) : nullptr;
}

bool AccessLogParser::parseJson(std::string_view line, AccessLogFields& fields,
                                std::string& problem) {
    fields = {};
    for (std::string* s : {&m_time, &m_client, &m_request, &m_method, &m_target, &m_status, &m_host,
                           &m_bytes, &m_responseTime})
        s->clear();
    bool hasTime = false, hasClient = false, hasRequest = false, hasMethod = false,
         hasTarget = false, hasStatus = false, hasHost = false, hasBytes = false,
         hasResponseTime = false;
    const auto take = [](bool& has, std::string& into, std::string_view value) {
        if (!has) {
            has = true;
            into.assign(value);
        }
    };
    const bool ok = forEachJsonMember(
        line,
        [&](std::string_view name, std::string_view value, bool isString) {
            if (oneOf(name, {"time", "timestamp", "@timestamp", "time_iso8601", "time_local",
                             "msec", "ts"}))
                take(hasTime, m_time, value);
            else if (oneOf(name,
                           {"remote_addr", "client", "client_ip", "clientip", "ip", "remote_ip"}))
                take(hasClient, m_client, value);
            else if (name == "request")
                take(hasRequest, m_request, value);
            else if (oneOf(name, {"request_method", "method"}))
                take(hasMethod, m_method, value);
            else if (oneOf(name, {"request_uri", "uri", "url", "path"}))
                take(hasTarget, m_target, value);
            else if (oneOf(name, {"status", "status_code"}))
                take(hasStatus, m_status, value);
            else if (oneOf(name, {"host", "vhost", "server_name", "http_host"}))
                take(hasHost, m_host, value);
            else if (!isString && value == "null")
                return;  // a measure the server did not have, like "-"
            else if (oneOf(name, {"body_bytes_sent", "bytes_sent", "bytes", "size"}))
                take(hasBytes, m_bytes, value);
            else if (const auto unit = jsonResponseTimeUnit(name); unit && !hasResponseTime) {
                take(hasResponseTime, m_responseTime, value);
                fields.responseTimeUnit = *unit;
            }
        },
        problem);
    if (!ok)
        return false;
    if (!hasTime) {
        problem =
            "the object has no time member (time, timestamp, @timestamp, time_iso8601, "
            "time_local, msec or ts)";
        return false;
    }
    fields.time = m_time;
    fields.client = m_client;
    fields.status = m_status;
    fields.host = m_host;
    fields.bytes = m_bytes;
    fields.responseTime = m_responseTime;
    if (hasTarget || hasMethod) {
        fields.method = m_method;
        fields.target = m_target;
    } else if (hasRequest) {
        splitRequestLine(m_request, fields);
    }
    return true;
}

TraceErrorKind AccessLogParser::parse(std::string_view line, HitEvent& event,
                                      std::string& problem) {
    AccessLogFields fields;
    const bool matched =
        m_format ? m_format->match(line, fields, problem) : parseJson(line, fields, problem);
    if (!matched)
        return TraceErrorKind::LogLineMismatch;
    if (!m_filter && !m_series)
        return toEvent(fields, event, problem);
    const FilterRecord record = filterRecordOf(fields);
    if (m_filter && !m_filter->matches(record))
        return TraceErrorKind::Filtered;
    const TraceErrorKind kind = toEvent(fields, event, problem);
    if (m_series)
        event.series = m_series->mask(record);
    return kind;
}

std::uint8_t statusClassOf(std::string_view status) {
    if (status.size() != 3 || status[0] < '1' || status[0] > '5' || status[1] < '0' ||
        status[1] > '9' || status[2] < '0' || status[2] > '9')
        return 0;
    return static_cast<std::uint8_t>(status[0] - '0');
}

TraceErrorKind AccessLogParser::toEvent(const AccessLogFields& fields, HitEvent& event,
                                        std::string& problem) {
    const auto time = parseTime(fields.time, fields.timeSyntax);
    if (!time) {
        problem = "time " + quotedField(fields.time, 40) + " " + timeProblem(fields);
        return TraceErrorKind::BadLogTime;
    }
    event.time = *time;
    m_lastUtcOffset = utcOffsetOf(fields.time);
    ++m_timesRead;
    event.count = 1;
    event.statusClass = statusClassOf(fields.status);
    event.series = 0;
    event.visitor.assign(fields.client);
    std::string_view key;
    switch (m_key) {
        case AccessLogKey::Path:
        case AccessLogKey::PathQuery:
            if (!fields.requestValid) {
                key = kInvalidRequestKey;
                break;
            }
            key = m_key == AccessLogKey::Path ? fields.target.substr(0, fields.target.find('?'))
                                              : fields.target;
            break;
        case AccessLogKey::Status:
            key = fields.status;
            break;
        case AccessLogKey::Method:
            key = fields.requestValid ? fields.method : kInvalidRequestKey;
            break;
        case AccessLogKey::Vhost:
            key = fields.host;
            break;
        case AccessLogKey::Client:
            key = fields.client;
            break;
    }
    if (key.empty()) {
        problem = "no " + std::string(accessLogKeyName(m_key)) +
                  " in this line to use as the key (--key " + std::string(accessLogKeyName(m_key)) +
                  ")";
        return TraceErrorKind::MissingKeyField;
    }
    event.key.assign(key);
    if (m_key == AccessLogKey::PathQuery && !fields.query.empty() &&
        fields.target.find('?') == std::string_view::npos) {
        event.key += '?';
        event.key.append(fields.query);
    }
    if (!takeMeasures(fields, event, problem))
        return TraceErrorKind::BadMeasure;
    return TraceErrorKind::None;
}

}  // namespace hitcounter
