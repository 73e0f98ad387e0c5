// The running source as the type a test started it as (a follower's rotations, a simulator's
// position): what ui/ only asks capabilities of (core/sources/source_capabilities.h), a test
// may look at whole. Null if another type runs or none.
#pragma once

#include "ui/sources/source_session.h"

namespace hitcounter::testing {

template <class S>
S* runningAs(const ui::SourceSession& session) {
    return dynamic_cast<S*>(session.source());
}

}  // namespace hitcounter::testing
