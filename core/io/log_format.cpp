#include "core/io/log_format.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace hitcounter {

namespace {

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool isMethodChar(char c) {
    return (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
}

// The first `literal` at or after `from` that is not escaped by an odd run of backslashes.
std::size_t findUnescaped(std::string_view line, std::string_view literal, std::size_t from) {
    for (auto at = line.find(literal, from); at != std::string_view::npos;
         at = line.find(literal, at + 1)) {
        std::size_t backslashes = 0;
        while (at - backslashes > from && line[at - backslashes - 1] == '\\')
            ++backslashes;
        if (backslashes % 2 == 0)
            return at;
    }
    return std::string_view::npos;
}

std::string shown(std::string_view s) {
    constexpr std::size_t kLimit = 40;
    std::string out = "'";
    for (const char c : s.substr(0, kLimit)) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        } else {
            out += c;
        }
    }
    out += s.size() > kLimit ? "...'" : "'";
    return out;
}

}  // namespace

void splitRequestLine(std::string_view request, AccessLogFields& fields) {
    const auto space = request.find(' ');
    const auto method = request.substr(0, space);
    const bool methodOk = !method.empty() && method.size() <= 32 &&
                          std::all_of(method.begin(), method.end(), isMethodChar);
    if (space == std::string_view::npos || !methodOk) {
        fields.requestValid = false;
        return;
    }
    auto rest = request.substr(space + 1);
    const auto end = rest.find(' ');
    const auto target = rest.substr(0, end);
    if (target.empty()) {
        fields.requestValid = false;
        return;
    }
    fields.method = method;
    fields.target = target;
    fields.requestValid = true;
}

LogFormat LogFormat::compile(std::string_view format) {
    if (format.find('$') == std::string_view::npos && format.find('%') != std::string_view::npos)
        return compileApache(format);
    LogFormat compiled;
    compiled.m_text = std::string(format);
    bool hasTime = false;
    std::string literal;
    const auto flushLiteral = [&] {
        if (!literal.empty())
            compiled.m_items.push_back({Role::Literal, std::exchange(literal, {})});
    };
    for (std::size_t i = 0; i < format.size();) {
        if (format[i] != '$') {
            literal += format[i++];
            continue;
        }
        std::string name;
        if (i + 1 < format.size() && format[i + 1] == '{') {
            const auto close = format.find('}', i + 2);
            if (close == std::string_view::npos)
                throw std::invalid_argument("log format: '${' at column " + std::to_string(i + 1) +
                                            " has no closing '}'");
            name = std::string(format.substr(i + 2, close - i - 2));
            i = close + 1;
        } else {
            auto end = i + 1;
            while (end < format.size() && isNameChar(format[end]))
                ++end;
            name = std::string(format.substr(i + 1, end - i - 1));
            i = end;
        }
        if (name.empty() || !std::all_of(name.begin(), name.end(), isNameChar))
            throw std::invalid_argument("log format: '$' at column " + std::to_string(i) +
                                        " is not followed by a variable name");
        flushLiteral();
        Item item{Role::Ignored, name};
        if (name == "remote_addr" || name == "realip_remote_addr") {
            item.role = Role::Client;
        } else if (name == "time_local" || name == "time_iso8601" || name == "msec") {
            item.role = Role::Time;
            item.timeSyntax = name == "time_local"     ? LogTimeSyntax::Clf
                              : name == "time_iso8601" ? LogTimeSyntax::Iso
                                                       : LogTimeSyntax::Epoch;
            hasTime = true;
        } else if (name == "request") {
            item.role = Role::Request;
        } else if (name == "request_method") {
            item.role = Role::Method;
        } else if (name == "request_uri") {
            item.role = Role::Target;
        } else if (name == "uri" || name == "document_uri") {
            item.role = Role::Path;
        } else if (name == "args" || name == "query_string") {
            item.role = Role::Query;
        } else if (name == "status") {
            item.role = Role::Status;
        } else if (name == "host" || name == "server_name" || name == "http_host") {
            item.role = Role::Host;
            compiled.m_hasHost = true;
        } else if (name == "body_bytes_sent" || name == "bytes_sent") {
            item.role = Role::Bytes;
            item.preference = name == "body_bytes_sent" ? 0 : 1;
        } else if (name == "request_time" || name == "upstream_response_time") {
            item.role = Role::ResponseTime;
            item.preference = name == "request_time" ? 0 : 1;
        }
        compiled.m_items.push_back(std::move(item));
    }
    flushLiteral();
    if (!hasTime)
        throw std::invalid_argument(
            "log format " + shown(format) +
            " has no time variable; expected $time_local, $time_iso8601 or $msec");
    compiled.keepPreferredMeasures();
    return compiled;
}

LogFormat LogFormat::compileApache(std::string_view format) {
    LogFormat compiled;
    compiled.m_text = std::string(format);
    bool hasTime = false;
    std::string literal;
    const auto add = [&](Item item) {
        if (!literal.empty())
            compiled.m_items.push_back({Role::Literal, std::exchange(literal, {})});
        compiled.m_items.push_back(std::move(item));
    };
    for (std::size_t i = 0; i < format.size();) {
        if (format[i] != '%') {
            literal += format[i++];
            continue;
        }
        if (format.substr(i, 2) == "%%") {
            literal += '%';
            i += 2;
            continue;
        }
        const std::size_t start = i++;
        // A condition (%400,501{User-agent}i, %!200s) or a redirect (%>s, %<s) before the letter.
        while (i < format.size() &&
               std::string_view("0123456789,!<>").find(format[i]) != std::string_view::npos)
            ++i;
        std::string_view param;
        if (i < format.size() && format[i] == '{') {
            const auto close = format.find('}', i + 1);
            if (close == std::string_view::npos)
                throw std::invalid_argument("log format: '%{' at column " + std::to_string(i + 1) +
                                            " has no closing '}'");
            param = format.substr(i + 1, close - i - 1);
            i = close + 1;
        }
        if (i >= format.size())
            throw std::invalid_argument("log format: '%' at column " + std::to_string(start + 1) +
                                        " ends the format without a directive letter");
        const char letter = format[i++];
        Item item{Role::Ignored, std::string(format.substr(start, i - start))};
        switch (letter) {
            case 'h':
            case 'a':
                item.role = Role::Client;
                break;
            case 't':
                if (param.empty()) {
                    // %t writes its brackets itself.
                    literal += '[';
                    add({Role::Time, item.text, LogTimeSyntax::Clf});
                    literal += ']';
                    hasTime = true;
                    continue;
                }
                if (param != "sec")
                    throw std::invalid_argument(
                        "log format: " + shown(item.text) +
                        ": custom Apache time formats are not read; use %t or %{sec}t");
                item.role = Role::Time;
                item.timeSyntax = LogTimeSyntax::Epoch;
                hasTime = true;
                break;
            case 'r':
                item.role = Role::Request;
                break;
            case 'm':
                item.role = Role::Method;
                break;
            case 'U':
                item.role = Role::Path;
                break;
            case 'q':
                item.role = Role::Query;
                break;
            case 's':
                item.role = Role::Status;
                break;
            case 'v':
                item.role = Role::Host;
                break;
            case 'i':
                if (param.size() == 4 && std::equal(param.begin(), param.end(), "host",
                                                    [](char a, char b) { return (a | 0x20) == b; }))
                    item.role = Role::Host;
                break;
            case 'b':
            case 'B':
            case 'O':
                item.role = Role::Bytes;
                item.preference = letter == 'O' ? 1 : 0;
                break;
            case 'D':
            case 'T':
                item.role = Role::ResponseTime;
                if (letter == 'D' || param == "us") {
                    item.unit = ResponseTimeUnit::Microseconds;
                } else if (param == "ms") {
                    item.unit = ResponseTimeUnit::Milliseconds;
                    item.preference = 1;
                } else {
                    item.preference = 2;  // whole seconds
                }
                break;
            default:
                break;
        }
        compiled.m_hasHost = compiled.m_hasHost || item.role == Role::Host;
        add(std::move(item));
    }
    if (!literal.empty())
        compiled.m_items.push_back({Role::Literal, std::move(literal)});
    if (!hasTime)
        throw std::invalid_argument("Apache log format " + shown(format) +
                                    " has no time directive; expected %t or %{sec}t");
    compiled.keepPreferredMeasures();
    return compiled;
}

void LogFormat::keepPreferredMeasures() {
    for (const Role role : {Role::Bytes, Role::ResponseTime}) {
        Item* kept = nullptr;
        for (Item& item : m_items) {
            if (item.role != role)
                continue;
            if (kept == nullptr || item.preference < kept->preference) {
                if (kept != nullptr)
                    kept->role = Role::Ignored;
                kept = &item;
            } else {
                item.role = Role::Ignored;
            }
        }
    }
}

const LogFormat& LogFormat::common() {
    static const LogFormat format = compile(
        R"($remote_addr $remote_ident $remote_user [$time_local] "$request" $status $body_bytes_sent)");
    return format;
}

const LogFormat& LogFormat::combined() {
    static const LogFormat format =
        compile(R"($remote_addr $remote_ident $remote_user [$time_local] "$request" $status )"
                R"($body_bytes_sent "$http_referer" "$http_user_agent")");
    return format;
}

bool LogFormat::match(std::string_view line, AccessLogFields& fields, std::string& problem) const {
    fields = {};
    std::optional<std::string_view> request;
    std::size_t pos = 0;
    for (std::size_t i = 0; i < m_items.size(); ++i) {
        const Item& item = m_items[i];
        if (item.role == Role::Literal) {
            if (line.substr(pos, item.text.size()) != item.text) {
                problem = "expected " + shown(item.text) + " at column " + std::to_string(pos + 1) +
                          ", found " + shown(line.substr(pos, item.text.size() + 8));
                return false;
            }
            pos += item.text.size();
            continue;
        }
        std::size_t end;
        if (i + 1 < m_items.size() && m_items[i + 1].role == Role::Literal) {
            end = findUnescaped(line, m_items[i + 1].text, pos);
            if (end == std::string_view::npos) {
                problem = "no " + shown(m_items[i + 1].text) + " after $" + item.text +
                          " (column " + std::to_string(pos + 1) + ")";
                return false;
            }
        } else {
            end = line.find_first_of(" \t", pos);
            if (end == std::string_view::npos)
                end = line.size();
        }
        const auto value = line.substr(pos, end - pos);
        pos = end;
        switch (item.role) {
            case Role::Client:
                fields.client = value;
                break;
            case Role::Time:
                fields.time = value;
                fields.timeSyntax = item.timeSyntax;
                break;
            case Role::Request:
                request = value;
                break;
            case Role::Method:
                fields.method = value;
                break;
            case Role::Target:
            case Role::Path:
                fields.target = value;
                break;
            case Role::Query:
                // Apache's %q writes its '?'.
                fields.query = value == "-"             ? std::string_view{}
                               : value.starts_with('?') ? value.substr(1)
                                                        : value;
                break;
            case Role::Status:
                fields.status = value;
                break;
            case Role::Host:
                fields.host = value;
                break;
            case Role::Bytes:
                fields.bytes = value;
                break;
            case Role::ResponseTime:
                fields.responseTime = value;
                fields.responseTimeUnit = item.unit;
                break;
            case Role::Literal:
            case Role::Ignored:
                break;
        }
    }
    if (request)
        splitRequestLine(*request, fields);
    return true;
}

}  // namespace hitcounter
