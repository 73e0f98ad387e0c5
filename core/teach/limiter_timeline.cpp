#include "core/teach/limiter_timeline.h"

#include <algorithm>
#include <stdexcept>

#include "core/limiters/fixed_window.h"
#include "core/limiters/keyed_limiter.h"
#include "core/limiters/limiter_factory.h"
#include "core/limiters/sliding_counter.h"
#include "core/limiters/sliding_log.h"
#include "core/limiters/token_bucket.h"
#include "core/teach/number_text.h"

namespace hitcounter::teach {

namespace {

// Lessons are about one key.
constexpr std::string_view kKey = "user";

std::string secondsList(const std::vector<Pair>& runs) {
    std::string out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (i > 0)
            out += i + 1 == runs.size() ? " and " : ", ";
        out += num(runs[i].second);
        if (runs[i].count > 1)
            out += " (x" + num(runs[i].count) + ")";
    }
    return out;
}

}  // namespace

// "1.03" for 62 units of 1/60 token, to the nearest hundredth (0.9667 is "0.97", as the
// write-up's table has it; display only, decisions use the integers).
std::string tokensText(Count units, std::int64_t w) {
    const Count hundredths = (units * 200 / static_cast<Count>(w) + 1) / 2;
    std::string fraction = num(hundredths % 100);
    if (fraction.size() < 2)
        fraction.insert(0, "0");
    return num(hundredths / 100) + "." + fraction;
}

namespace {

std::string decisionText(const LimiterDecision& d) {
    if (d.rejected == 0)
        return d.accepted == 1 ? "accept" : "accept all " + num(d.accepted);
    if (d.accepted == 0)
        return d.rejected == 1 ? "reject" : "reject all " + num(d.rejected);
    return "accept " + num(d.accepted) + ", reject " + num(d.rejected);
}

// The four limiters, run together; lanes read the ones they show.
struct Limiters {
    explicit Limiters(RateLimit limit) : fixed(limit), log(limit), counter(limit), bucket(limit) {}
    KeyedLimiter<FixedWindow> fixed;
    KeyedLimiter<SlidingLog> log;
    KeyedLimiter<SlidingCounter> counter;
    KeyedLimiter<TokenBucket> bucket;

    RateLimiter& byName(std::string_view name) {
        if (name == FixedWindow::kName)
            return fixed;
        if (name == SlidingLog::kName)
            return log;
        if (name == SlidingCounter::kName)
            return counter;
        return bucket;
    }
};

// Fills the lane's state fields as seen at `clock`.
void readState(LimiterLane& lane, Limiters& limiters, Timestamp clock, const RateLimit& limit) {
    const std::int64_t w = limit.per.count();
    lane.window = clock / w;
    if (lane.name == FixedWindow::kName) {
        const auto* state = limiters.fixed.state(kKey);
        lane.current = state ? FixedWindow::acceptedInWindow(*state, clock, limit) : 0;
    } else if (lane.name == SlidingCounter::kName) {
        const auto* state = limiters.counter.state(kKey);
        const auto counts =
            state ? SlidingCounter::countsAt(*state, clock, limit) : SlidingCounter::Counts{};
        lane.current = counts.current;
        lane.previous = counts.previous;
        lane.weighted = counts.previous * static_cast<Count>(w - clock % w) +
                        counts.current * static_cast<Count>(w);
    } else if (lane.name == SlidingLog::kName) {
        std::vector<Pair> live;
        if (const auto* state = limiters.log.state(kKey)) {
            for (const auto& run : *state) {
                if (clock - run.time < w)
                    live.push_back({run.time, run.count});
            }
        }
        lane.log = std::move(live);
    } else {
        const auto* state = limiters.bucket.state(kKey);
        lane.tokenUnits =
            static_cast<Count>(state ? TokenBucket::unitsAt(*state, clock, limit)
                                     : Wide128{limit.limit} * static_cast<Wide128>(w));
    }
}

// Why the lane decided as it did, from the state before the request (`before`).
std::string reasonFor(const LimiterLane& before, const LimiterLane& after, const LimiterDecision& d,
                      Timestamp t, const RateLimit& limit) {
    const std::int64_t w = limit.per.count();
    const std::string l = num(limit.limit);
    const std::string verdict = decisionText(d);
    if (after.name == FixedWindow::kName) {
        const std::int64_t start = (t / w) * w;
        return "Fixed window: second " + num(t) + " is in window [" + num(start) + ", " +
               num(start + w) + "), which had accepted " + num(before.current) + " of " + l + ": " +
               verdict + ".";
    }
    if (after.name == SlidingLog::kName) {
        std::string text = "Sliding log: ";
        if (!after.expired.empty())
            text += secondsList(after.expired) + " left the log (" + num(t) + " - " +
                    num(after.expired.back().second) + " >= " + num(w) + "); ";
        const std::string window = "(" + num(t - w) + ", " + num(t) + "]";
        if (before.log.empty())
            return text + "no accepted request in " + window + ", fewer than " + l + ": " +
                   verdict + ".";
        Count held = 0;
        for (const Pair& run : before.log)
            held += run.count;
        return text + secondsList(before.log) + " still in " + window + ": " + num(held) +
               (held < limit.limit ? " < " : " = ") + l + ", " + verdict + ".";
    }
    if (after.name == SlidingCounter::kName) {
        return "Sliding counter: " + num(before.previous) + " x (" + num(w) + " - " + num(t % w) +
               ") + " + num(before.current) + " x " + num(w) + " = " + num(before.weighted) +
               (d.accepted > 0 ? " < " : " >= ") + l + " x " + num(w) + ": " + verdict + ".";
    }
    return "Token bucket: " + tokensText(before.tokenUnits, w) + " of " + l + " tokens" +
           (d.accepted > 0 ? ", at least one: " : ", less than one: ") + verdict + "; " +
           tokensText(after.tokenUnits, w) + " left, refilling " + l + "/" + num(w) +
           " per second.";
}

}  // namespace

LimiterTimeline::LimiterTimeline(std::vector<Operation> operations, RateLimit limit,
                                 std::vector<std::string> names)
    : m_operations(std::move(operations)), m_limit(limit), m_names(std::move(names)) {
    checkRateLimit(limit);
    if (static_cast<Wide128>(limit.limit) * static_cast<Wide128>(limit.per.count()) >
        Wide128{Count{1} << 63})
        throw std::invalid_argument("a lesson's L x W must stay below 2^63");
    const auto known = limiterNames();
    for (const auto& name : m_names) {
        if (std::find(known.begin(), known.end(), name) == known.end())
            throw std::invalid_argument("unknown rate limiter '" + name + "'");
        if (std::count(m_names.begin(), m_names.end(), name) > 1)
            throw std::invalid_argument("rate limiter '" + name + "' named twice");
    }
    Limiters limiters(limit);
    LimiterFrame start;
    for (const auto& name : m_names) {
        LimiterLane lane;
        lane.name = name;
        readState(lane, limiters, 0, limit);
        start.lanes.push_back(std::move(lane));
    }
    // Only what the lesson shows (issue 24, wrong 7: no bucket in a lesson without one).
    const bool bucket =
        std::find(m_names.begin(), m_names.end(), TokenBucket::kName) != m_names.end();
    start.narration = std::string("Every limiter starts fresh: nothing accepted yet") +
                      (bucket ? ", the bucket full (" + num(limit.limit) + " tokens)" : "") +
                      ". Step forward to send the first request.";
    m_frames.push_back(std::move(start));

    for (std::size_t k = 0; k < m_operations.size(); ++k) {
        const Operation& op = m_operations[k];
        const LimiterFrame& previous = m_frames.back();
        LimiterFrame frame;
        frame.step = k + 1;
        frame.op = op;
        const Timestamp clock = std::max(op.second, previous.clock.value_or(0));
        frame.clock = clock;
        const bool request = op.kind == Operation::Kind::Hit;
        for (std::size_t i = 0; i < m_names.size(); ++i) {
            LimiterLane before = previous.lanes[i];
            readState(before, limiters, clock, limit);  // the state the request meets
            LimiterLane lane;
            lane.name = m_names[i];
            lane.accepted = before.accepted;
            lane.rejected = before.rejected;
            if (request) {
                LimiterDecision d{op.second, 0, 0};
                d.accepted = limiters.byName(lane.name).admit(kKey, op.second, op.repeat);
                d.rejected = op.repeat - d.accepted;
                lane.decision = d;
                lane.accepted += d.accepted;
                lane.rejected += d.rejected;
            } else {
                limiters.byName(lane.name).advance(clock);
            }
            readState(lane, limiters, clock, limit);
            for (const Pair& run : previous.lanes[i].log) {
                if (clock - run.second >= limit.per.count())
                    lane.expired.push_back(run);
            }
            lane.tokensLeft = previous.lanes[i].tokensLeft;
            if (lane.decision) {
                lane.reason = reasonFor(before, lane, *lane.decision, clock, limit);
                if (lane.name == TokenBucket::kName) {
                    lane.tokensLeft.push_back(lane.tokenUnits);
                }
            }
            frame.lanes.push_back(std::move(lane));
        }
        if (request) {
            std::string text = op.second < clock ? "A late request (second " + num(op.second) +
                                                       ") is decided at " + num(clock) + ". "
                                                 : std::string();
            for (const auto& lane : frame.lanes)
                text += (text.empty() ? "" : " ") + lane.reason;
            frame.narration = std::move(text);
        } else {
            frame.narration = "No request: the clock moves to " + num(clock) +
                              ". Old requests leave the windows and the bucket refills.";
        }
        m_frames.push_back(std::move(frame));
    }
}

std::vector<std::vector<LimiterDecision>> LimiterTimeline::decisions(std::size_t step) const {
    std::vector<std::vector<LimiterDecision>> out(m_names.size());
    for (std::size_t k = 1; k <= std::min(step, m_frames.size() - 1); ++k) {
        for (std::size_t i = 0; i < m_names.size(); ++i) {
            if (m_frames[k].lanes[i].decision)
                out[i].push_back(*m_frames[k].lanes[i].decision);
        }
    }
    return out;
}

}  // namespace hitcounter::teach
