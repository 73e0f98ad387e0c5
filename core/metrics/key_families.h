// The per-key metric families, from HotKeyWindows' rows (docs/metrics.md lists them):
//   hitcounter_hits_total{key}                counter, a row's hits since it was made
//   hitcounter_window_hits{key, window}       gauge, hits in (now - window, now], one sample
//                                             per window ("60", "300", "3600")
//   hitcounter_window_uniques{key, window}    gauge, distinct visitors in the uniques window,
//                                             only for rows whose hits named visitors
// Every row gives one sample per family, then other (key="__other__") last.
//
// Threading: a pure function; safe from any thread.
#pragma once

#include <chrono>
#include <span>
#include <vector>

#include "core/metrics/exposition.h"
#include "core/metrics/hot_key_windows.h"

namespace hitcounter::metrics {

std::vector<MetricFamily> keyFamilies(std::span<const KeyWindowRow> rows, const KeyWindowRow& other,
                                      std::span<const std::chrono::seconds> windows,
                                      std::chrono::seconds uniquesWindow);

}  // namespace hitcounter::metrics
