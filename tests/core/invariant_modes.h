// Helpers compiled with and without NDEBUG, for tst_invariant.
#pragma once

namespace invariant_modes {

// Runs HITCOUNTER_DCHECK(condition) as a Debug build does; counts evaluations of the
// condition; returns the line of the check.
int checkedWhenDebug(bool condition, int& evaluations);
// The same check as a release (NDEBUG) build compiles it.
void checkedWhenRelease(bool condition, int& evaluations);

}  // namespace invariant_modes
