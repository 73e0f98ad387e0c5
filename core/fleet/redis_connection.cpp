#include "core/fleet/redis_connection.h"

#include <hiredis/hiredis.h>

#include <algorithm>

namespace hitcounter::fleet {

namespace {

timeval toTimeval(std::chrono::milliseconds ms) {
    const auto count = std::max<long long>(ms.count(), 1);
    return timeval{static_cast<time_t>(count / 1000),
                   static_cast<suseconds_t>(count % 1000 * 1000)};
}

RedisReply convert(const redisReply* r) {
    RedisReply out;
    switch (r->type) {
        case REDIS_REPLY_INTEGER:
            out.type = RedisReply::Type::Integer;
            out.integer = r->integer;
            break;
        case REDIS_REPLY_STRING:
        case REDIS_REPLY_STATUS:
        case REDIS_REPLY_ERROR:
            out.type = r->type == REDIS_REPLY_STRING   ? RedisReply::Type::String
                       : r->type == REDIS_REPLY_STATUS ? RedisReply::Type::Status
                                                       : RedisReply::Type::Error;
            out.text.assign(r->str, r->len);
            break;
        case REDIS_REPLY_ARRAY:
            out.type = RedisReply::Type::Array;
            out.elements.reserve(r->elements);
            for (size_t i = 0; i < r->elements; ++i)
                out.elements.push_back(convert(r->element[i]));
            break;
        default:
            out.type = RedisReply::Type::Nil;
    }
    return out;
}

}  // namespace

std::optional<RedisTimeouts> RedisTimeouts::within(
    std::chrono::steady_clock::time_point now) const {
    if (now >= deadline)
        return std::nullopt;
    if (deadline == std::chrono::steady_clock::time_point::max())
        return *this;
    const auto left = std::max(std::chrono::ceil<std::chrono::milliseconds>(deadline - now),
                               std::chrono::milliseconds(1));
    RedisTimeouts cut = *this;
    cut.connect = std::min(connect, left);
    cut.command = std::min(command, left);
    return cut;
}

RedisConnection::RedisConnection(const RedisUrl& url, RedisTimeouts timeouts)
    : m_url(url), m_commandTimeout(timeouts.command) {
    m_context = redisConnectWithTimeout(url.host.c_str(), url.port, toTimeval(timeouts.connect));
    if (!m_context)
        throw RedisError(RedisError::Kind::Unreachable,
                         "cannot connect to " + url.describe() + ": out of memory");
    if (m_context->err) {
        const std::string problem = m_context->errstr;
        redisFree(m_context);
        m_context = nullptr;
        throw RedisError(RedisError::Kind::Unreachable,
                         "cannot connect to " + url.describe() + ": " + problem);
    }
    try {
        if (redisSetTimeout(m_context, toTimeval(timeouts.command)) != REDIS_OK)
            failIo("setting the command timeout");
        hello();
    } catch (...) {
        // The destructor does not run for a constructor that throws.
        redisFree(m_context);
        m_context = nullptr;
        throw;
    }
}

void RedisConnection::setCommandTimeout(std::chrono::milliseconds timeout) {
    if (timeout == m_commandTimeout || m_broken)
        return;
    if (redisSetTimeout(m_context, toTimeval(timeout)) != REDIS_OK)
        failIo("setting the command timeout");
    m_commandTimeout = timeout;
}

void RedisConnection::hello() {
    std::vector<Command> commands;
    if (!m_url.password.empty())
        commands.push_back(m_url.user.empty() ? Command{"AUTH", m_url.password}
                                              : Command{"AUTH", m_url.user, m_url.password});
    if (m_url.db != 0)
        commands.push_back({"SELECT", std::to_string(m_url.db)});
    commands.push_back({"PING"});
    for (const RedisReply& reply : pipeline(commands))
        if (reply.isError())
            throw RedisError(RedisError::Kind::Rejected,
                             m_url.describe() + " refused the connection: " + reply.text);
}

RedisConnection::~RedisConnection() {
    if (m_context)
        redisFree(m_context);
}

void RedisConnection::failIo(const std::string& doing) {
    m_broken = true;
    std::string problem = m_context && m_context->err ? m_context->errstr : "unknown error";
    if (problem.find("temporarily unavailable") != std::string::npos)  // SO_RCVTIMEO ran out
        problem = "no answer within the command timeout";
    throw RedisError(RedisError::Kind::Unreachable,
                     m_url.describe() + ": failed while " + doing + ": " + problem);
}

std::vector<RedisReply> RedisConnection::pipeline(const std::vector<Command>& commands) {
    if (m_broken)
        throw RedisError(RedisError::Kind::Unreachable,
                         m_url.describe() + ": connection is broken");
    std::vector<RedisReply> replies;
    replies.reserve(commands.size());
    std::vector<const char*> argv;
    std::vector<size_t> lengths;
    for (size_t first = 0; first < commands.size(); first += kPipelineChunk) {
        const size_t last = std::min(commands.size(), first + kPipelineChunk);
        for (size_t i = first; i < last; ++i) {
            argv.clear();
            lengths.clear();
            for (const std::string& arg : commands[i]) {
                argv.push_back(arg.data());
                lengths.push_back(arg.size());
            }
            if (redisAppendCommandArgv(m_context, int(argv.size()), argv.data(), lengths.data()) !=
                REDIS_OK)
                failIo("queueing " + commands[i].front());
        }
        for (size_t i = first; i < last; ++i) {
            void* raw = nullptr;
            if (redisGetReply(m_context, &raw) != REDIS_OK || !raw)
                failIo("waiting for the reply to " + commands[i].front());
            auto* reply = static_cast<redisReply*>(raw);
            replies.push_back(convert(reply));
            freeReplyObject(reply);
        }
    }
    return replies;
}

RedisReply RedisConnection::command(const Command& command) {
    RedisReply reply = std::move(pipeline({command}).front());
    if (reply.isError())
        throw RedisError(RedisError::Kind::Protocol,
                         m_url.describe() + ": " + command.front() + " failed: " + reply.text);
    return reply;
}

}  // namespace hitcounter::fleet
