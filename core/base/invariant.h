// HITCOUNTER_DCHECK: debug-build invariant checks, in the style of folly's DCHECK.
//
// Thread-safe: the check itself reads only what its condition reads; the handler is swapped
// atomically (tests only).
//
// HITCOUNTER_DCHECK(condition, "what broke") evaluates `condition` only when NDEBUG is not
// defined (the Debug builds: the asan and tsan presets, so CI runs every check under the
// sanitizers). When it is false the handler runs; the default handler prints
//     hitcounter: invariant failed at core/counters/ring_counter.cpp:140: m_total == sum
//     (the running total equals the sum of the live cells)
// to stderr and aborts. With NDEBUG (RelWithDebInfo, Release) the condition is compiled out:
// it is still parsed and type-checked, but never evaluated, so it costs nothing.
//
// Use it where a wrong state would silently corrupt answers (a running total that drifted from
// its cells, a gap in a per-second history, a queue's byte count), not for input errors: bad
// input is an error value users can act on, in every build.
//
// Example:
//     HITCOUNTER_DCHECK(m_history.empty() || m_history.back().second + 1 == t,
//                       "history seconds are contiguous");
#pragma once

namespace hitcounter {

// Called with the condition's text, where it is, and the message; may return (a test's
// recording handler), and then execution goes on as if the check had passed.
using InvariantHandler = void (*)(const char* condition, const char* file, int line,
                                  const char* message);

// Installs `handler` (nullptr: the default, print and abort); returns the previous one.
InvariantHandler setInvariantHandler(InvariantHandler handler);

// What HITCOUNTER_DCHECK calls when its condition is false.
void invariantFailed(const char* condition, const char* file, int line, const char* message);

// HITCOUNTER_DCHECK(condition, "a library check") compiled as the library is (Debug: evaluated;
// release: compiled out): tests show with it whether the library's checks are on in a build.
void checkedInLibrary(bool condition);

}  // namespace hitcounter

#ifdef NDEBUG
#define HITCOUNTER_DCHECK(condition, message) static_cast<void>(sizeof(!(condition)))
#else
#define HITCOUNTER_DCHECK(condition, message) \
    ((condition) ? static_cast<void>(0)       \
                 : ::hitcounter::invariantFailed(#condition, __FILE__, __LINE__, message))
#endif
