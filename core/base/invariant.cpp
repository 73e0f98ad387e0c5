#include "core/base/invariant.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace hitcounter {

namespace {

void printAndAbort(const char* condition, const char* file, int line, const char* message) {
    std::fprintf(stderr, "hitcounter: invariant failed at %s:%d: %s (%s)\n", file, line, condition,
                 message);
    std::fflush(stderr);
    std::abort();
}

std::atomic<InvariantHandler> g_handler{&printAndAbort};

}  // namespace

InvariantHandler setInvariantHandler(InvariantHandler handler) {
    return g_handler.exchange(handler ? handler : &printAndAbort);
}

void invariantFailed(const char* condition, const char* file, int line, const char* message) {
    g_handler.load()(condition, file, line, message);
}

void checkedInLibrary(bool condition) {
    HITCOUNTER_DCHECK(condition, "a library check");
    (void)condition;
}

}  // namespace hitcounter
