// HITCOUNTER_DCHECK as a release build compiles it (see invariant_modes.cpp).
#include "tests/core/invariant_modes.h"

#ifndef NDEBUG
#define NDEBUG
#endif
#include "core/base/invariant.h"

namespace invariant_modes {

void checkedWhenRelease(bool condition, int& evaluations) {
    HITCOUNTER_DCHECK((++evaluations, condition), "compiled out");
}

}  // namespace invariant_modes
