// EngineFrame: everything a view draws for one frame, as plain values. Built by the counting
// thread (EngineWorker) and handed to the GUI whole (a shared_ptr to const), as in Qt's
// mandelbrot example: nothing in it refers back into the engine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/engine_snapshot.h"
#include "core/engine/limits_frame.h"
#include "core/engine/policy_costs.h"

namespace hitcounter {

// One key of the items table.
struct KeyRow {
    std::string key;
    Count window = 0;           // hits in (head - W, head]
    Count level = 0;            // hits in the chosen level (1 min / 5 min / 1 h)
    Count allTime = 0;          // hits since the counters started
    std::uint64_t uniques = 0;  // distinct visitors in the window (estimate)
};

// A further key plotted with the selected one: its level count per second from keySeriesFrom.
struct KeySeriesValues {
    std::string key;
    std::vector<Count> values;
};

struct EngineFrame {
    std::uint64_t ticket = 0;  // the frame request it answers (EngineWorker::requestFrame)
    bool idle = false;         // the input queue was empty when the frame was built
    std::uint64_t streamEpoch = 0;
    Count hitsIngested = 0;  // hits fed to the engine since the worker started (saturating)
    std::uint64_t staleBatches = 0;

    EngineSnapshot snapshot;
    // The history views: if rebuild, forget every record; then replace or append `history`
    // (the records that changed since the previous frame, oldest first, up to the head).
    bool rebuild = false;
    std::vector<SecondRecord> history;

    // Items: the top keys by window count (ties by key), all keys together, and the selected
    // key's level count over its last keySeriesSeconds seconds (one value per second).
    std::vector<KeyRow> top;
    Count allKeysWindow = 0;
    std::uint64_t allKeysUniques = 0;
    // Keys forgotten under the key memory cap (EngineOptions::keyMemoryCap), and their hits.
    Count foldedKeys = 0;
    Count foldedHits = 0;
    std::size_t keyMemoryCap = 0;
    std::string selectedKey;
    Timestamp keySeriesFrom = 0;
    std::vector<Count> keySeries;
    // The further keys asked for (EngineWorker::setKeyView's `more`), same seconds.
    std::vector<KeySeriesValues> moreKeySeries;

    // Threshold alerts: each watched key (EngineWorker::setWatchedKeys), in or out of `top`,
    // with its window count at every second s from watchedFrom to the head: values[i] = its
    // hits in (s - W, s], s = watchedFrom + i (the history's per-second window count, per
    // key). watchedFrom is the head of the previous frame (its second may have changed while
    // open), or after a rebuild the oldest second whose whole window the keys still hold.
    Timestamp watchedFrom = 0;
    std::vector<KeySeriesValues> watched;

    // The Rate limits lab (limits_feed.h): empty unless limits.options.enabled.
    LimitsFrame limits;

    // What each policy costs per hit and per getHits, the CostMeter's newest figures.
    PolicyCosts costs;
};

}  // namespace hitcounter
