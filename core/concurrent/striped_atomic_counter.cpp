#include "core/concurrent/striped_atomic_counter.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <thread>

#include "core/base/saturating.h"

namespace hitcounter {

namespace {

constexpr Timestamp kNoHead = std::numeric_limits<Timestamp>::min();
constexpr int kCountBits = 32;
constexpr std::uint64_t kLapMask = 0xFFFF'FFFFU;

constexpr std::uint64_t pack(std::int64_t lap, Count count) {
    return (static_cast<std::uint64_t>(lap) & kLapMask) << kCountBits | count;
}
constexpr Count countOf(std::uint64_t word) {
    return word & StripedAtomicCounter::kMaxSlotCount;
}
// How many laps the slot's word is behind `lap` (negative: ahead), exact while the two laps
// are less than 2^31 apart.
constexpr std::int32_t lapsBehind(std::int64_t lap, std::uint64_t word) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(
        (static_cast<std::uint64_t>(lap) - (word >> kCountBits)) & kLapMask));
}

void addSaturating(std::atomic<Count>& target, Count n) {
    Count current = target.load(std::memory_order_relaxed);
    while (!target.compare_exchange_weak(current, saturatingAdd(current, n),
                                         std::memory_order_relaxed)) {
    }
}

std::atomic<std::uint64_t> g_counters{0};

// Each thread gets a number once, in the order threads first write to any counter: what a
// stripe's owner word holds (plus one).
std::size_t threadNumber() {
    static std::atomic<std::size_t> next{0};
    thread_local const std::size_t number = next.fetch_add(1, std::memory_order_relaxed);
    return number;
}

std::size_t stripesFor(std::size_t requested) {
    const std::size_t wanted =
        requested != 0 ? requested
                       : std::max<std::size_t>(4, 2 * std::thread::hardware_concurrency());
    return std::bit_ceil(wanted);
}

// Where second t lives for window w. Writers mostly repeat the same second, so each thread
// keeps the last answer and skips the 64-bit division.
struct SlotOf {
    std::int64_t lap;
    std::size_t index;
};
SlotOf slotOf(Timestamp t, std::int64_t w) {
    thread_local Timestamp lastSecond = 0;
    thread_local std::int64_t lastWindow = 0;
    thread_local SlotOf last{};
    if (t != lastSecond || w != lastWindow) {
        const std::int64_t lap = floorDiv(t, w);
        last = SlotOf{lap, static_cast<std::size_t>(t - lap * w)};
        lastSecond = t;
        lastWindow = w;
    }
    return last;
}

}  // namespace

StripedAtomicCounter::StripedAtomicCounter(std::chrono::seconds window, std::size_t stripes)
    : m_window(window.count()),
      m_stripes(stripesFor(stripes)),
      m_linesPerStripe((static_cast<std::size_t>(std::max<std::int64_t>(m_window, 0)) + 1 + 7) / 8),
      m_lines(std::make_unique<Line[]>(m_stripes * m_linesPerStripe)),
      m_id(g_counters.fetch_add(1, std::memory_order_relaxed) + 1),
      m_owners(std::make_unique<std::atomic<std::uint64_t>[]>(m_stripes)),
      m_head(kNoHead) {
    if (m_window <= 0) {
        throw std::invalid_argument("window must be at least 1 second");
    }
}

std::atomic<std::uint64_t>& StripedAtomicCounter::word(std::size_t stripe,
                                                       std::size_t index) const {
    return m_lines[stripe * m_linesPerStripe + index / 8].words[index % 8];
}

std::size_t StripedAtomicCounter::memoryBytes() const {
    return sizeof(*this) + m_stripes * m_linesPerStripe * sizeof(Line) +
           m_stripes * sizeof(std::atomic<std::uint64_t>);
}

[[gnu::always_inline]] inline StripedAtomicCounter::StripeOfThread
StripedAtomicCounter::stripeOfThisThread() {
    // One entry per thread: the counter it wrote last (writers mostly stay on one counter).
    thread_local std::uint64_t t_cachedCounter = 0;
    thread_local StripeOfThread t_cachedStripe{0, false};
    if (t_cachedCounter == m_id) [[likely]] {
        return t_cachedStripe;
    }
    t_cachedStripe = claimStripe();
    t_cachedCounter = m_id;
    return t_cachedStripe;
}

StripedAtomicCounter::StripeOfThread StripedAtomicCounter::claimStripe() {
    const std::uint64_t me = threadNumber() + 1;
    // Stripe 0 is never claimed: a thread that finds every other stripe taken shares it (and
    // only it, so no shared writer ever races an owner's plain stores).
    for (std::size_t i = 1; i < m_stripes; ++i) {
        std::uint64_t owner = m_owners[i].load(std::memory_order_acquire);
        if (owner == me) {
            return {i, true};  // claimed before, then the thread wrote another counter
        }
        if (owner == 0 &&
            m_owners[i].compare_exchange_strong(owner, me, std::memory_order_acq_rel)) {
            return {i, true};
        }
    }
    return {0, false};
}

[[gnu::always_inline]] inline std::uint64_t StripedAtomicCounter::afterHits(std::uint64_t current,
                                                                            std::int64_t lap,
                                                                            Count n) {
    const Count held = countOf(current);
    const std::int32_t behind = lapsBehind(lap, current);
    if (held == 0 || behind > 0) {
        // The slot is empty or holds an older second, which has left every window that
        // contains t: replace it whole.
        return pack(lap, std::min(n, kMaxSlotCount));
    }
    if (behind == 0) {
        return pack(lap, std::min(saturatingAdd(held, n), kMaxSlotCount));
    }
    return kLate;  // a later lap is stored here, so the head is at least t + W
}

void StripedAtomicCounter::advanceHead(Timestamp t) {
    Timestamp head = m_head.load(std::memory_order_relaxed);
    while (t > head && !m_head.compare_exchange_weak(head, t, std::memory_order_relaxed)) {
    }
}

void StripedAtomicCounter::hit(Timestamp t, Count n) {
    const Timestamp head = m_head.load(std::memory_order_relaxed);
    if (t > head) {
        advanceHead(t);
    } else if (t <= head - m_window) {
        addSaturating(m_droppedLate, n);
        return;
    }
    if (n == 0) {
        return;
    }
    const auto [lap, index] = slotOf(t, m_window);
    const auto [stripe, own] = stripeOfThisThread();
    std::atomic<std::uint64_t>& slot = word(stripe, 1 + index);
    std::atomic<std::uint64_t>& total = word(stripe, 0);
    if (own) {
        // Only this thread writes the stripe: a load and a store, readers see either word.
        const std::uint64_t desired = afterHits(slot.load(std::memory_order_relaxed), lap, n);
        if (desired == kLate) [[unlikely]] {
            addSaturating(m_droppedLate, n);
            return;
        }
        slot.store(desired, std::memory_order_release);
        total.store(saturatingAdd(total.load(std::memory_order_relaxed), n),
                    std::memory_order_relaxed);
        return;
    }
    std::uint64_t current = slot.load(std::memory_order_acquire);
    for (;;) {
        const std::uint64_t desired = afterHits(current, lap, n);
        if (desired == kLate) {
            addSaturating(m_droppedLate, n);
            return;
        }
        if (slot.compare_exchange_weak(current, desired, std::memory_order_acq_rel,
                                       std::memory_order_acquire)) {
            break;
        }
    }
    addSaturating(total, n);
}

Count StripedAtomicCounter::count(Timestamp t) {
    advanceHead(t);
    const Timestamp newest = std::max(m_head.load(std::memory_order_relaxed), t);
    // The window (newest - W, newest] holds exactly one second per slot; only those <= t count.
    const Timestamp first = newest - m_window + 1;
    const std::int64_t seconds = std::min<std::int64_t>(m_window, t - first + 1);
    const std::int64_t firstLap = floorDiv(first, m_window);
    const auto firstIndex = static_cast<std::size_t>(first - firstLap * m_window);
    Wide128 sum = 0;
    for (std::size_t stripe = 0; stripe < m_stripes; ++stripe) {
        std::int64_t lap = firstLap;
        std::size_t index = firstIndex;
        for (std::int64_t k = 0; k < seconds; ++k) {
            const std::uint64_t current = word(stripe, 1 + index).load(std::memory_order_acquire);
            if (lapsBehind(lap, current) == 0) {
                sum += countOf(current);
            }
            if (++index == static_cast<std::size_t>(m_window)) {
                index = 0;
                ++lap;
            }
        }
    }
    return clampToCount(sum);
}

Count StripedAtomicCounter::total() const {
    Count sum = 0;
    for (std::size_t stripe = 0; stripe < m_stripes; ++stripe) {
        sum = saturatingAdd(sum, word(stripe, 0).load(std::memory_order_relaxed));
    }
    return sum;
}

}  // namespace hitcounter
