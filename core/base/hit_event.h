// HitEvent and HitBatch: what sources produce and the engine consumes. Values only: a batch
// is moved across the thread boundary, never shared.
//
// A batch also carries its stream epoch and kind, so that a seek travels through the same
// queue as the data it replaces (no handshake between threads):
//  - Hits: live or replayed hits of `epoch`.
//  - Reset: an empty marker. The consumer forgets every hit and takes `epoch` as its current
//    epoch; batches of any other epoch that follow it are dropped.
//  - Rebuild: hits a seek re-sends to rebuild the state at its target (counted like Hits,
//    but a recording tap skips them: they were recorded when they first streamed).
//  - Clock: an empty marker: the source's own clock (a replay's trace time) has reached
//    `clock` with no hit since the batches before it. The consumer moves its head there if it
//    holds a hit (Engine::advanceTo), so the window slides through a gap in the hits as it
//    does in an uninterrupted run; it never moves a head back, and it is ignored before the
//    first hit (an empty window stays empty).
// Live sources leave epoch 0 and kind Hits.
// A replay's first pass also tags its batches with a stream id and the number of their first
// row, and a seek's Reset may carry a checkpoint of the consumer's state to restore
// (seek_checkpoints.h, in core/sources).
//
// Example (a seek to T in a replay, epoch 3, T between two hits):
//     {Reset, 3}  {Rebuild, 3: rows up to T}  {Clock, 3: T}  ...  {Hits, 3: rows after T}
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace hitcounter {

class SeekCheckpoint;  // core/sources/seek_checkpoints.h

struct HitEvent {
    Timestamp time = 0;   // whole seconds (trace time for replay, unix time for live sources)
    std::string key;      // item (page, metric name); empty when the source has none
    std::string visitor;  // visitor id; empty when the source has none
    Count count = 1;      // hits this event stands for (statsd "c" value / rate)
    // HTTP status class of an access-log hit: 1..5 for 1xx..5xx; 0 unknown (trace CSV,
    // statsd, a status that is not a 3-digit code from 100 to 599).
    std::uint8_t statusClass = 0;
    // The source's series filters that accepted the hit's line (SeriesFilters, in
    // core/filter): bit i for filter i; 0 without series filters. In the padding after
    // statusClass: no byte more per hit.
    std::uint16_t series = 0;
    // What the hit measured (docs/measures.md), where its source says: the response time in
    // seconds (an access log's $request_time or %D, a statsd timer), kNoSeconds (negative)
    // when none; and the bytes sent ($body_bytes_sent, %b), kNoBytes when none. They fill the
    // padding after statusClass and one word (96 bytes in all with libstdc++, 88 without).
    static constexpr float kNoSeconds = -1.0f;
    static constexpr std::uint64_t kNoBytes = std::numeric_limits<std::uint64_t>::max();
    float seconds = kNoSeconds;
    std::uint64_t bytes = kNoBytes;

    bool hasSeconds() const { return seconds >= 0.0f; }
    bool hasBytes() const { return bytes != kNoBytes; }

    friend bool operator==(const HitEvent&, const HitEvent&) = default;
};

enum class BatchKind : std::uint8_t { Hits, Reset, Rebuild, Clock };

// A vector of hits plus its place in the stream (see above).
struct HitBatch : std::vector<HitEvent> {
    using std::vector<HitEvent>::vector;

    std::uint64_t epoch = 0;
    BatchKind kind = BatchKind::Hits;
    Timestamp clock = 0;  // kind Clock: the second the source's clock has reached
    // A replay's first pass (seek_checkpoints.h): its stream id (0: none) and the number of
    // the batch's first row in file order.
    std::uint64_t stream = 0;
    std::uint64_t firstRow = 0;
    // The file line of the batch's last row, where reading can resume (HitFile::resumeAfter);
    // 0: unknown.
    std::uint64_t lastLine = 0;
    // kind Reset: the consumer restores this state instead of starting empty (nullptr: empty).
    std::shared_ptr<const SeekCheckpoint> resume;

    // A Reset or Clock marker: empty, and still meant to arrive.
    bool marker() const { return kind == BatchKind::Reset || kind == BatchKind::Clock; }

    static HitBatch resetMarker(std::uint64_t epoch) {
        HitBatch marker;
        marker.epoch = epoch;
        marker.kind = BatchKind::Reset;
        return marker;
    }
    static HitBatch clockMarker(std::uint64_t epoch, Timestamp now) {
        HitBatch marker;
        marker.epoch = epoch;
        marker.kind = BatchKind::Clock;
        marker.clock = now;
        return marker;
    }
};

}  // namespace hitcounter
