#include "core/metrics/key_families.h"

#include <string>

namespace hitcounter::metrics {

std::vector<MetricFamily> keyFamilies(std::span<const KeyWindowRow> rows, const KeyWindowRow& other,
                                      std::span<const std::chrono::seconds> windows,
                                      std::chrono::seconds uniquesWindow) {
    MetricFamily hits{.name = "hitcounter_hits",
                      .type = MetricType::Counter,
                      .help =
                          "Hits per key since the key got its own series; keys beyond "
                          "--metrics-keys are summed under key=\"__other__\".",
                      .unit = {},
                      .samples = {}};
    MetricFamily window{.name = "hitcounter_window_hits",
                        .type = MetricType::Gauge,
                        .help =
                            "Exact hits per key in the last `window` seconds, (now - "
                            "window, now].",
                        .unit = {},
                        .samples = {}};
    MetricFamily uniques{.name = "hitcounter_window_uniques",
                         .type = MetricType::Gauge,
                         .help =
                             "Distinct visitors per key in the last `window` seconds "
                             "(HyperLogLog estimate), where hits name visitors.",
                         .unit = {},
                         .samples = {}};
    const std::string uniquesLabel = std::to_string(uniquesWindow.count());
    const auto addRow = [&](const KeyWindowRow& row) {
        hits.samples.push_back({{{"key", row.label}}, row.total});
        for (std::size_t i = 0; i < windows.size() && i < row.windows.size(); ++i) {
            window.samples.push_back(
                {{{"key", row.label}, {"window", std::to_string(windows[i].count())}},
                 row.windows[i]});
        }
        if (row.uniques) {
            uniques.samples.push_back(
                {{{"key", row.label}, {"window", uniquesLabel}}, Count{*row.uniques}});
        }
    };
    for (const KeyWindowRow& row : rows) {
        addRow(row);
    }
    addRow(other);
    return {std::move(hits), std::move(window), std::move(uniques)};
}

}  // namespace hitcounter::metrics
