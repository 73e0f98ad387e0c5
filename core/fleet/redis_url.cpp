#include "core/fleet/redis_url.h"

#include <charconv>

namespace hitcounter::fleet {

namespace {

constexpr std::string_view kScheme = "redis://";
constexpr int kMaxDb = 15;

[[noreturn]] void fail(std::string_view url, const std::string& problem) {
    throw RedisUrlError("Redis URL '" + std::string(url) + "': " + problem +
                        "; expected redis://HOST:PORT[/DB] or redis://:PASSWORD@HOST:PORT[/DB]");
}

int wholeNumber(std::string_view url, std::string_view digits, int min, int max, const char* what) {
    int value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
        value < min || value > max)
        fail(url, std::string(what) + " '" + std::string(digits) + "' is not a whole number from " +
                      std::to_string(min) + " to " + std::to_string(max));
    return value;
}

}  // namespace

std::string RedisUrl::describe() const {
    const bool v6 = host.find(':') != std::string::npos;
    return std::string(kScheme) + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port) +
           "/" + std::to_string(db);
}

RedisUrl parseRedisUrl(std::string_view text) {
    if (!text.starts_with(kScheme))
        fail(text, "it does not start with redis://");
    std::string_view rest = text.substr(kScheme.size());
    RedisUrl url;
    if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
        const std::string_view userInfo = rest.substr(0, at);
        if (!userInfo.starts_with(':'))
            fail(text, "a user name is not supported, only ':PASSWORD@'");
        url.password = std::string(userInfo.substr(1));
        if (url.password.empty())
            fail(text, "the password after ':' is empty");
        if (url.password.find('@') != std::string::npos)
            fail(text, "the password contains '@'");
        rest = rest.substr(at + 1);
    }
    std::string_view hostPort = rest;
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        hostPort = rest.substr(0, slash);
        url.db = wholeNumber(text, rest.substr(slash + 1), 0, kMaxDb, "the database");
    }
    std::string_view portText;
    if (hostPort.starts_with('[')) {
        const auto close = hostPort.find(']');
        if (close == std::string_view::npos || close + 1 >= hostPort.size() ||
            hostPort[close + 1] != ':')
            fail(text, "an IPv6 host needs the form [ADDRESS]:PORT");
        url.host = std::string(hostPort.substr(1, close - 1));
        portText = hostPort.substr(close + 2);
    } else {
        const auto colon = hostPort.rfind(':');
        if (colon == std::string_view::npos)
            fail(text, "the port is missing");
        url.host = std::string(hostPort.substr(0, colon));
        portText = hostPort.substr(colon + 1);
    }
    if (url.host.empty())
        fail(text, "the host is empty");
    url.port = wholeNumber(text, portText, 1, 65535, "the port");
    return url;
}

}  // namespace hitcounter::fleet
