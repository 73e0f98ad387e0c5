// SeekCheckpoints: where a replay's consumer holds copies of its counting state, so that a
// seek restores the nearest one at or before its target and fast-forwards only the rows after
// it, instead of every row from the start (replay_source.h, seek()).
//
// The protocol travels with the data, as the seek's reset does (hit_event.h):
//  - A replay numbers the rows of its first pass in file order (good rows only) and tags each
//    batch of that pass with its stream id and the number of its first row (HitBatch::stream,
//    firstRow). A consumer that counted every row from 0 up to some batch's end, in one epoch,
//    may keep a copy of its state there, with that point: `rows` counted, the largest row time
//    among them (`rowMax`) and its head (`head`, >= rowMax: Clock markers move it too).
//  - seek(T) asks newestAtOrBefore(stream, T); given a checkpoint, its Reset marker carries
//    it (HitBatch::resume), the replay skips the checkpoint's first `rows` rows unsent (reading
//    on to their last row's file `line` without parsing, when the batch said it: lastLine) and
//    fast-forwards from there with rowMax as its running maximum. The consumer restores the
//    state it carries. What it then holds equals a fast-forward from the start: the rows
//    skipped are exactly the ones the copy counted.
//
// Threading: implementations are called from the replay's thread while the consumer adds
// checkpoints from its own; they must be thread-safe. A checkpoint is immutable once shared.
#pragma once

#include <cstdint>
#include <memory>

#include "core/base/types.h"

namespace hitcounter {

// A point in a replay's first pass: after its first `rows` rows.
struct StreamPoint {
    std::uint64_t rows = 0;
    Timestamp rowMax = 0;    // the largest time among those rows
    Timestamp head = 0;      // the consumer's head there (a seek to T can use it if head <= T)
    std::uint64_t line = 0;  // the file line of the last of the rows (HitBatch::lastLine); 0:
                             // unknown, the replay reads the rows to skip them
};

// The consumer's state at a point; what the state is, is the consumer's (checkpoint_store.h).
class SeekCheckpoint {
public:
    explicit SeekCheckpoint(StreamPoint point) : m_point(point) {}
    virtual ~SeekCheckpoint() = default;
    const StreamPoint& point() const { return m_point; }

private:
    StreamPoint m_point;
};

class SeekCheckpoints {
public:
    virtual ~SeekCheckpoints() = default;
    // The checkpoint of `stream` with the largest head at or before t; nullptr if none.
    virtual std::shared_ptr<const SeekCheckpoint> newestAtOrBefore(std::uint64_t stream,
                                                                   Timestamp t) const = 0;
};

}  // namespace hitcounter
