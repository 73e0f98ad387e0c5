// RedisUrl: where a fleet's Redis is, parsed from `redis://[[USER]:PASSWORD@]HOST:PORT[/DB]`.
//
// Pure value, no I/O (but resolveRedisUrl, which reads the password's file or environment).
// Examples:
//   redis://127.0.0.1:6379            host 127.0.0.1, port 6379, db 0, no password
//   redis://:s3cret@cache:6380/2      host cache, port 6380, db 2, password "s3cret"
//   redis://app:s3cret@cache:6380     user "app" (a Redis 6 ACL user), password "s3cret"
//   redis://app@cache:6380            user "app", the password from resolveRedisUrl
//   redis://[::1]:6379                IPv6 literal in brackets
// The port is required (1..65535), DB is 0..15 (Redis' default number of databases), the
// password is taken verbatim (no percent-decoding) and may not contain '@'.
//
// Secrets: a password in a URL is seen by every user of the machine (`ps`), so programs take
// it from HITCOUNTER_REDIS_PASSWORD (as redis-cli takes REDISCLI_AUTH) or a file. No message,
// describe() or redactedRedisUrl() ever holds it.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hitcounter::fleet {

// Thrown for a malformed URL; what() names the URL and the problem.
class RedisUrlError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct RedisUrl {
    std::string host;
    int port = 6379;
    int db = 0;
    std::string user;      // empty: the default user (AUTH PASSWORD); else AUTH USER PASSWORD
    std::string password;  // empty: no AUTH

    // `redis://[user@]host:port/db`, without the password (safe to print).
    std::string describe() const;
};

// Parses `text`; throws RedisUrlError naming the problem (with the URL's password hidden).
RedisUrl parseRedisUrl(std::string_view text);

// `text` with the password of its user part replaced by "***" (safe to print).
std::string redactedRedisUrl(std::string_view text);
// `text` without its password (safe to store): redis://:pw@h:1 -> redis://h:1,
// redis://app:pw@h:1 -> redis://app@h:1 (the password then comes from resolveRedisUrl).
std::string redisUrlWithoutPassword(std::string_view text);

// The variable a password is read from when the URL names none.
inline constexpr const char* kRedisPasswordVariable = "HITCOUNTER_REDIS_PASSWORD";
// The longest password file read (a password is one line).
inline constexpr std::size_t kMaxPasswordFileBytes = 4096;

// parseRedisUrl(text), with its password from `passwordFile` when given (its first line, without
// the line break), else, when the URL has none, from kRedisPasswordVariable when that is set
// and not empty. Throws RedisUrlError for a bad URL or a file that cannot be read, is empty or
// is longer than kMaxPasswordFileBytes (naming the file, never its content).
RedisUrl resolveRedisUrl(std::string_view text,
                         const std::optional<std::filesystem::path>& passwordFile = std::nullopt);

}  // namespace hitcounter::fleet
