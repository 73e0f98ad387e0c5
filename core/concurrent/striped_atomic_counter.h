// StripedAtomicCounter: a lock-free window counter for many writer threads. Each stripe is a
// ring of W atomic 64-bit slots; a slot packs (lap, count) in one word, where lap = t / W names
// which of the seconds t = i, i + W, i + 2W, ... slot i = t mod W currently holds. A writer
// thread always uses the same stripe, so threads on different cores touch different cache
// lines; readers merge all stripes.
//
// Stripes: the first writer threads of a counter each claim a stripe of their own (stripes
// 1 .. S-1, S = stripeCount()), which only they write: their hit() is a plain load and a
// release store on their slot and on their stripe's total, no read-modify-write (about what a
// single-threaded counter costs). Stripe 0, and the stripes of threads beyond the first S-1,
// are shared: those threads update them with compare-and-swap. A claim lasts as long as the
// counter (a thread that ends keeps its stripe), so a counter whose writers are replaced by
// new threads over and over ends up with them all on the shared stripe: still exact, slower.
//
// Thread-safe and lock-free: hit() on an own stripe is two loads and two stores; on a shared
// one a compare-and-swap loop on its slot plus one on its total; no thread ever waits for
// another.
//
// Contract: window_counter.h and concurrent_counter.h, with these differences:
//  - Resetting a slot for a new lap is the same CAS that adds the hit: the word goes from
//    (old lap, old count) to (new lap, n) at once, so a reader sees either the old second's
//    full count or the new second's, never a half-reset slot. Two writers racing to reset the
//    same slot both succeed in turn (the loser re-reads and adds to the winner's word).
//    Slot writes are release and slot reads acquire: a reader that counts a hit also sees
//    everything its writer did before hit().
//  - count(t) sums the slots one by one. With no hit moving the head during the call it is
//    exact: every hit() that returned before count() began is included. Hits running during
//    count() may or may not be. If the head moves during count(), seconds leaving the window
//    may already be missing from the sum.
//  - Limits of the packing: a slot holds at most kMaxSlotCount (2^32 - 1) hits of one second
//    from one stripe and saturates there (total() and other stripes stay exact); timestamps
//    given to one counter must span fewer than 2^31 windows (68 years at W = 1 s).
// Cost: hit() O(1): one relaxed load of the shared head (written only when time moves on), a
//       thread-local lookup of the thread's stripe, then as above. count() O(stripes * W).
// Memory: stripes * (W + 1) * 8 bytes rounded up to 64-byte lines, fixed at construction.
//
// Example, W = 10, thread A on stripe 0, thread B on stripe 1:
//     A: hit(3)  -> stripe 0 slot 3 = (lap 0, 1)
//     B: hit(3)  -> stripe 1 slot 3 = (lap 0, 1)
//     A: hit(13) -> stripe 0 slot 3: lap 0 -> lap 1 in one CAS: (1, 1)
//     count(13) == 1: the candidate second of slot 3 is 13; stripe 1 still holds lap 0 (= 3),
//     which is outside (3, 13].
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/concurrent/concurrent_counter.h"

namespace hitcounter {

class StripedAtomicCounter final : public ConcurrentCounter {
public:
    static constexpr Count kMaxSlotCount = 0xFFFF'FFFFU;

    // stripes is rounded up to a power of two; 0 picks twice the hardware threads, at least 4
    // (so that many writers, minus one, get stripes of their own).
    explicit StripedAtomicCounter(std::chrono::seconds window = kDefaultWindow,
                                  std::size_t stripes = 0);

    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;
    Count total() const override;

    std::chrono::seconds window() const override { return std::chrono::seconds{m_window}; }
    std::size_t memoryBytes() const override;
    bool isExact() const override { return true; }
    std::string_view name() const override { return "striped"; }
    Count droppedLate() const override { return m_droppedLate.load(std::memory_order_relaxed); }

    std::size_t stripeCount() const { return m_stripes; }

private:
    // One cache line of words; a stripe is a run of whole lines: [total, slot 0 .. slot W-1].
    struct alignas(64) Line {
        std::atomic<std::uint64_t> words[8]{};
    };

    struct StripeOfThread {
        std::size_t stripe;
        bool own;  // claimed by this thread: no other thread writes it
    };

    std::atomic<std::uint64_t>& word(std::size_t stripe, std::size_t index) const;
    void advanceHead(Timestamp t);
    // The calling thread's stripe in this counter: cached per thread, else claimStripe() (a
    // stripe of its own if one is free, else the shared stripe 0).
    StripeOfThread stripeOfThisThread();
    StripeOfThread claimStripe();
    // The new word for a slot holding `current` after n > 0 hits at (lap, t), never 0; kLate
    // if the slot holds a later lap (the hit is late).
    static constexpr std::uint64_t kLate = 0;
    static std::uint64_t afterHits(std::uint64_t current, std::int64_t lap, Count n);

    const std::int64_t m_window;
    const std::size_t m_stripes;
    const std::size_t m_linesPerStripe;
    const std::unique_ptr<Line[]> m_lines;
    const std::uint64_t m_id;  // this counter among all ever made: for the threads' stripe cache
    // Stripe i's owner (a thread number + 1), 0 while free; stripe 0 stays shared.
    const std::unique_ptr<std::atomic<std::uint64_t>[]> m_owners;
    alignas(64) std::atomic<Timestamp> m_head;
    alignas(64) std::atomic<Count> m_droppedLate{0};
};

}  // namespace hitcounter
