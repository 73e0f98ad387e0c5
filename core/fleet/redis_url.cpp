#include "core/fleet/redis_url.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace hitcounter::fleet {

namespace {

constexpr std::string_view kScheme = "redis://";
constexpr int kMaxDb = 15;

[[noreturn]] void fail(std::string_view url, const std::string& problem) {
    throw RedisUrlError("Redis URL '" + redactedRedisUrl(url) + "': " + problem +
                        "; expected redis://HOST:PORT[/DB] or "
                        "redis://[USER]:PASSWORD@HOST:PORT[/DB]");
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
    return std::string(kScheme) + (user.empty() ? "" : user + "@") +
           (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/" + std::to_string(db);
}

namespace {

// Where the password of `text` (between "USER:" and the last '@') stands; nullopt if it has none.
struct PasswordPlace {
    std::size_t colon;  // the ':' before it
    std::size_t at;     // the '@' after it
};
std::optional<PasswordPlace> passwordPlace(std::string_view text) {
    const auto start = text.find("://");
    const auto at = text.rfind('@');
    if (start == std::string_view::npos || at == std::string_view::npos || at < start + 3)
        return std::nullopt;
    const auto colon = text.find(':', start + 3);
    if (colon >= at - 1)
        return std::nullopt;  // no ':' in the user part, or nothing after it
    return PasswordPlace{colon, at};
}

}  // namespace

std::string redactedRedisUrl(std::string_view text) {
    const auto place = passwordPlace(text);
    if (!place)
        return std::string(text);
    return std::string(text.substr(0, place->colon + 1)) + "***" +
           std::string(text.substr(place->at));
}

std::string redisUrlWithoutPassword(std::string_view text) {
    const auto place = passwordPlace(text);
    if (!place)
        return std::string(text);
    const std::size_t start = text.find("://") + 3;
    const bool user = place->colon > start;
    return std::string(text.substr(0, place->colon)) +
           std::string(text.substr(user ? place->at : place->at + 1));
}

RedisUrl parseRedisUrl(std::string_view text) {
    if (!text.starts_with(kScheme))
        fail(text, "it does not start with redis://");
    std::string_view rest = text.substr(kScheme.size());
    RedisUrl url;
    if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
        const std::string_view userInfo = rest.substr(0, at);
        const auto colon = userInfo.find(':');
        url.user = std::string(userInfo.substr(0, colon));
        if (colon != std::string_view::npos) {
            url.password = std::string(userInfo.substr(colon + 1));
            if (url.password.empty())
                fail(text, "the password after ':' is empty");
        } else if (url.user.empty()) {
            fail(text, "the user name before '@' is empty");
        }
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

RedisUrl resolveRedisUrl(std::string_view text,
                         const std::optional<std::filesystem::path>& passwordFile) {
    RedisUrl url = parseRedisUrl(text);
    if (passwordFile) {
        const std::string name = passwordFile->string();
        std::ifstream in(*passwordFile, std::ios::binary);
        if (!in)
            throw RedisUrlError("--redis-password-file '" + name +
                                "': cannot read it: " + std::strerror(errno));
        std::string content(kMaxPasswordFileBytes + 1, '\0');
        in.read(content.data(), std::streamsize(content.size()));
        content.resize(std::size_t(in.gcount()));
        if (content.size() > kMaxPasswordFileBytes)
            throw RedisUrlError("--redis-password-file '" + name + "': it is larger than " +
                                std::to_string(kMaxPasswordFileBytes) +
                                " bytes; a password file holds one line");
        content = content.substr(0, content.find_first_of("\r\n"));
        if (content.empty())
            throw RedisUrlError("--redis-password-file '" + name + "': its first line is empty");
        url.password = std::move(content);
    } else if (url.password.empty()) {
        if (const char* fromEnvironment = std::getenv(kRedisPasswordVariable))
            url.password = fromEnvironment;
    }
    return url;
}

}  // namespace hitcounter::fleet
