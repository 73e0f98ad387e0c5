// RedisUrl: where a fleet's Redis is, parsed from `redis://[:PASSWORD@]HOST:PORT[/DB]`.
//
// Pure value, no I/O. Examples:
//   redis://127.0.0.1:6379        host 127.0.0.1, port 6379, db 0, no password
//   redis://:s3cret@cache:6380/2  host cache, port 6380, db 2, password "s3cret"
//   redis://[::1]:6379            IPv6 literal in brackets
// The port is required (1..65535), DB is 0..15 (Redis' default number of databases), the
// password is taken verbatim (no percent-decoding) and may not contain '@'. A user name
// (`redis://user:pw@...`, Redis 6 ACL) is not supported and is an error.
#pragma once

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
    std::string password;  // empty: no AUTH

    // `redis://host:port/db`, without the password (safe to print).
    std::string describe() const;
};

// Parses `text`; throws RedisUrlError naming the problem.
RedisUrl parseRedisUrl(std::string_view text);

}  // namespace hitcounter::fleet
