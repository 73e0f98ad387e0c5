// ConcurrentCounter: a WindowCounter that many threads may call at once.
//
// Thread-safe: hit(), count() and every const member may be called from any thread at the same
// time (this strengthens the single-owner rule of window_counter.h; the window contract is the
// same). A hit is never lost: every hit() is either counted or added to droppedLate().
//
// total() is the number of hits accepted so far (all time, including those that have since
// left the window), so that total() + droppedLate() equals the hits passed to hit() once the
// writers have finished.
#pragma once

#include "core/counters/window_counter.h"

namespace hitcounter {

class ConcurrentCounter : public WindowCounter {
public:
    virtual Count total() const = 0;
};

}  // namespace hitcounter
