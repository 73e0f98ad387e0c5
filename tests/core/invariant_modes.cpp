// HITCOUNTER_DCHECK compiled both ways in one binary, whatever the build type: this file
// includes nothing but invariant.h (no inline code of other headers, so no ODR clash).
#include "tests/core/invariant_modes.h"

#undef NDEBUG
#include "core/base/invariant.h"

namespace invariant_modes {

int checkedWhenDebug(bool condition, int& evaluations) {
    HITCOUNTER_DCHECK((++evaluations, condition), "a debug-build check");
    return __LINE__ - 1;
}

}  // namespace invariant_modes
