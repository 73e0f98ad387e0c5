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
        }
        compiled.m_items.push_back(std::move(item));
    }
    flushLiteral();
    if (!hasTime)
        throw std::invalid_argument(
            "log format " + shown(format) +
            " has no time variable; expected $time_local, $time_iso8601 or $msec");
    return compiled;
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
                fields.query = value == "-" ? std::string_view{} : value;
                break;
            case Role::Status:
                fields.status = value;
                break;
            case Role::Host:
                fields.host = value;
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
