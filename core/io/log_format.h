// LogFormat: a web server's access-log line layout, compiled from an nginx `log_format`
// string, and the matcher that cuts a line into the fields hitcounter uses.
//
// Thread-safe once built (match() is const). Cost of match(): O(line length).
//
// Format syntax (as in nginx.conf): literal text and variables `$name` or `${name}`. The
// variables hitcounter reads (any other is matched and ignored):
//     client  $remote_addr $realip_remote_addr
//     time    $time_local (`10/Oct/2000:13:55:36 -0700`), $time_iso8601, $msec (epoch seconds)
//     request $request (`GET /path?q HTTP/1.1`), or $request_method with $request_uri, or
//             $uri (path only) with $args / $query_string
//     status  $status
//     vhost   $host $server_name $http_host
//     bytes   $body_bytes_sent, else $bytes_sent (with the headers)
//     time    $request_time, else $upstream_response_time (seconds; a list of several
//             upstreams' times, "0.1, 0.2 : 0.3", is summed; "-": none)
// A variable's value runs up to the literal that follows it in the format (a '\' escapes the
// next character, so `"GET /a\" b"` stays one value); a variable with no literal after it runs
// up to the next space or tab. Text after the last item of the format is ignored, so logs with
// extra trailing fields (e.g. `"$http_x_forwarded_for"`) match the format without them.
//
// Predefined: common() is `$remote_addr $remote_ident $remote_user [$time_local] "$request"
// $status $body_bytes_sent` (nginx and Apache CLF; the ident field may be any word), combined()
// adds ` "$http_referer" "$http_user_agent"`.
//
// Apache: a format with no `$` variable is an Apache LogFormat (mod_log_config), its
// directives read as their nginx counterparts: %h %a (client), %t (`[...]`, CLF time) or
// %{sec}t (epoch), %r (request), %m %U %q (method, path, query), %s %>s (status), %v %{Host}i
// (vhost), %b %B (bytes), else %O; %D (microseconds), else %{us}T / %{ms}T / %T / %{s}T; %%
// is a '%'. Any other directive (%l, %u, %{Referer}i, ...) is matched and ignored; a
// condition such as %400,501{User-agent}i or %!200s is skipped before its letter.
//
// Example:
//     AccessLogFields f;
//     LogFormat::combined().match(
//         R"(::1 - - [10/Oct/2000:13:55:36 -0700] "GET /a?b=1 HTTP/1.1" 200 5 "-" "curl")", f);
//     // f.client == "::1", f.time == "10/Oct/2000:13:55:36 -0700", f.method == "GET",
//     // f.target == "/a?b=1", f.status == "200"
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitcounter {

enum class LogTimeSyntax { Clf, Iso, Epoch, Any };

// The unit a response-time field is written in ($request_time: seconds, Apache %D: us).
enum class ResponseTimeUnit { Seconds, Milliseconds, Microseconds };

// Views into the matched line (or into a reader's buffers); empty when the format lacks them.
struct AccessLogFields {
    std::string_view client;
    std::string_view time;
    LogTimeSyntax timeSyntax = LogTimeSyntax::Any;
    std::string_view method;
    std::string_view target;   // path and query as requested, e.g. "/a?b=1"
    std::string_view query;    // only from $args / $query_string (target holds the query itself)
    bool requestValid = true;  // false when $request is not `METHOD target[ PROTOCOL]`
    std::string_view status;
    std::string_view host;
    // Measures (measure_fields.h): empty when the format has no such field.
    std::string_view bytes;         // bytes sent: a whole number, or "-" for none sent
    std::string_view responseTime;  // in responseTimeUnit; "-": none
    ResponseTimeUnit responseTimeUnit = ResponseTimeUnit::Seconds;
};

// Splits a request line `METHOD SP target [SP protocol]` into `fields`; marks it invalid
// (requestValid = false) when it is not of that form (garbage, TLS bytes, "-").
void splitRequestLine(std::string_view request, AccessLogFields& fields);

class LogFormat {
public:
    // An nginx log_format, or an Apache LogFormat when it has no `$` (see above). Throws
    // std::invalid_argument naming the problem (an unterminated `${` or `%{`, a custom Apache
    // time format, no time variable).
    static LogFormat compile(std::string_view format);
    static const LogFormat& common();
    static const LogFormat& combined();

    // Fills `fields` and returns true if `line` follows the format; otherwise returns false and
    // sets `problem` to what was expected where.
    bool match(std::string_view line, AccessLogFields& fields, std::string& problem) const;

    const std::string& text() const { return m_text; }
    bool hasHost() const { return m_hasHost; }

private:
    enum class Role {
        Literal,
        Ignored,
        Client,
        Time,
        Request,
        Method,
        Target,
        Path,
        Query,
        Status,
        Host,
        Bytes,
        ResponseTime
    };
    struct Item {
        Role role = Role::Literal;
        std::string text;  // the literal, or the variable's name
        LogTimeSyntax timeSyntax = LogTimeSyntax::Any;
        ResponseTimeUnit unit = ResponseTimeUnit::Seconds;  // ResponseTime
        int preference = 0;  // Bytes, ResponseTime: of several, the lowest is read
    };

    static LogFormat compileApache(std::string_view format);
    // Of several bytes (or response-time) items, the one of lowest preference (the first of
    // those) is read; the others are matched and ignored.
    void keepPreferredMeasures();

    std::string m_text;
    std::vector<Item> m_items;
    bool m_hasHost = false;
};

}  // namespace hitcounter
