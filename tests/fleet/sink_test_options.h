// What the fleet tests and benchmarks share: the wall clock in unix seconds (the second a sink
// flushes under) and sink options with short intervals, so that a test sees its flushes, retries
// and timeouts within a second or two.
#pragma once

#include <chrono>
#include <string>

#include "core/base/types.h"
#include "core/fleet/redis_sink.h"
#include "core/fleet/redis_url.h"

namespace hitcounter::fleet::testing {

inline Timestamp unixNow() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A sink for `instance` on `url` flushing every `flushInterval`, retrying after 20 to 200 ms,
// with `timeouts` on the connect and on every command.
inline RedisSinkOptions fastSinkOptions(
    const std::string& url, const std::string& instance,
    RedisTimeouts timeouts = {std::chrono::milliseconds(300), std::chrono::milliseconds(2000)},
    std::chrono::milliseconds flushInterval = std::chrono::milliseconds(50)) {
    RedisSinkOptions o;
    o.url = parseRedisUrl(url);
    o.instance = instance;
    o.version = "test";
    o.flushInterval = flushInterval;
    o.minBackoff = std::chrono::milliseconds(20);
    o.maxBackoff = std::chrono::milliseconds(200);
    o.timeouts = timeouts;
    return o;
}

}  // namespace hitcounter::fleet::testing
