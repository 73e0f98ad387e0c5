// RedisConnection: one blocking connection to Redis (hiredis underneath) that never hangs:
// the connect and every command are bounded by RedisTimeouts.
//
// Not thread-safe; owned by one thread at a time (the RedisSink's flush thread, or a CLI
// command). Contract:
// - The constructor connects, sends AUTH (if the URL has a password) and SELECT (if db > 0),
//   then PING; it throws RedisError::Kind::Unreachable when the server cannot be reached in
//   time, RedisError::Kind::Rejected when it refuses the password or the database.
// - pipeline() writes every command before reading any reply (one round trip per chunk of
//   kPipelineChunk commands) and returns one reply per command, in order; a Redis error reply
//   is returned as a RedisReply of Type::Error, not thrown. An I/O error or a timeout throws
//   RedisError::Kind::Unreachable and leaves the connection broken(): whether the server
//   applied the commands is unknown, so callers must make their writes idempotent.
// Example:
//   RedisConnection c(parseRedisUrl("redis://127.0.0.1:6379"));
//   auto replies = c.pipeline({{"INCRBY", "k", "2"}, {"GET", "k"}});  // Integer 2, String "2"
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/fleet/redis_url.h"

struct redisContext;

namespace hitcounter::fleet {

// An Error (docs/architecture.md, "Errors"; hiredis's own convention stops at this wrapper).
class RedisError : public Error {
public:
    enum class Kind {
        Unreachable,  // connect refused or timed out, connection lost, command timed out
        Rejected,     // the server refused AUTH or SELECT (wrong password, bad database)
        Protocol,     // an unexpected reply (an error reply where a value was required)
    };
    RedisError(Kind kind, const std::string& message) : Error(message), m_kind(kind) {}
    Kind kind() const { return m_kind; }

private:
    Kind m_kind;
};

struct RedisReply {
    enum class Type { Nil, Integer, String, Status, Error, Array };
    Type type = Type::Nil;
    long long integer = 0;
    std::string text;  // String, Status and Error
    std::vector<RedisReply> elements;

    bool isError() const { return type == Type::Error; }
};

struct RedisTimeouts {
    std::chrono::milliseconds connect{1000};
    std::chrono::milliseconds command{2000};
    // RedisClient waits for no connect or reply past this (RedisSink's stop): each wait is cut
    // to the time left, and a call with no time left throws RedisError::Unreachable.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();

    // These timeouts cut to what is left before `deadline` at `now` (at least 1 ms each); nullopt
    // when nothing is left.
    std::optional<RedisTimeouts> within(std::chrono::steady_clock::time_point now) const;
};

class RedisConnection {
public:
    using Command = std::vector<std::string>;
    static constexpr std::size_t kPipelineChunk = 1024;

    explicit RedisConnection(const RedisUrl& url, RedisTimeouts timeouts = {});
    ~RedisConnection();
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;

    std::vector<RedisReply> pipeline(const std::vector<Command>& commands);
    // One command; an error reply throws RedisError::Kind::Protocol naming the command.
    RedisReply command(const Command& command);

    bool broken() const { return m_broken; }
    // How long each later reply is waited for (RedisClient cuts it to its deadline).
    void setCommandTimeout(std::chrono::milliseconds timeout);
    const RedisUrl& url() const { return m_url; }

private:
    void hello();  // AUTH, SELECT, PING; throws RedisError::Kind::Rejected on an error reply
    [[noreturn]] void failIo(const std::string& doing);

    RedisUrl m_url;
    redisContext* m_context = nullptr;
    std::chrono::milliseconds m_commandTimeout;
    bool m_broken = false;
};

}  // namespace hitcounter::fleet
