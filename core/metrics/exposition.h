// The Prometheus exposition formats: metric families as values, rendered as the text format
// 0.0.4 or as OpenMetrics 1.0, and the choice between them from a scraper's Accept header.
//
// Threading: values and pure functions; safe from any thread.
//
// Contract:
//  - A family's `name` is its base name: a counter "hitcounter_hits" renders samples
//    "hitcounter_hits_total" (both formats; the 0.0.4 TYPE line names the _total sample, the
//    OpenMetrics one the family), an info family "hitcounter_build" renders
//    "hitcounter_build_info" (0.0.4: a gauge). Names and label names must match
//    [a-zA-Z_][a-zA-Z0-9_]* (the caller's promise: they are fixed strings here).
//  - Label values are any bytes the caller made valid UTF-8 (label_text.h does that for keys);
//    render() escapes '\' '"' and line feed as both formats require, so any value keeps the
//    exposition valid. HELP text is escaped likewise ('"' only in OpenMetrics, as its grammar
//    asks).
//  - Integer values print digit for digit (a count of 18446744073709551615 stays exact in the
//    text, whatever the scraper does with it); real values print in the shortest form that
//    reads back to the same double, NaN as NaN and infinities as +Inf / -Inf.
//  - A family with no sample is still declared (TYPE, HELP): an empty family is valid in both.
//  - OpenMetrics ends with "# EOF\n"; `unit` (when set, and the name ends in "_" + unit) adds
//    a UNIT line there.
// Cost: O(bytes written).
//
// Example:
//     MetricFamily hits{"hitcounter_hits", MetricType::Counter, "Hits per key.", "",
//                       {{{{"key", "a\"b"}}, Count{3}}}};
//     render({hits}, ExpositionFormat::Text004) ==
//         "# HELP hitcounter_hits_total Hits per key.\n"
//         "# TYPE hitcounter_hits_total counter\n"
//         "hitcounter_hits_total{key=\"a\\\"b\"} 3\n"
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/base/types.h"

namespace hitcounter::metrics {

enum class MetricType { Counter, Gauge, Info };

struct Label {
    std::string name;
    std::string value;
    friend bool operator==(const Label&, const Label&) = default;
};

struct Sample {
    std::vector<Label> labels;
    std::variant<Count, double> value = Count{0};
    friend bool operator==(const Sample&, const Sample&) = default;
};

struct MetricFamily {
    std::string name;  // the base name (see above)
    MetricType type = MetricType::Gauge;
    std::string help;
    std::string unit;  // OpenMetrics UNIT, e.g. "seconds"; empty: none
    std::vector<Sample> samples;
    friend bool operator==(const MetricFamily&, const MetricFamily&) = default;
};

enum class ExpositionFormat { Text004, OpenMetrics100 };

std::string render(std::span<const MetricFamily> families, ExpositionFormat format);

// The Content-Type header for a format, e.g. "text/plain; version=0.0.4; charset=utf-8".
std::string_view contentType(ExpositionFormat format);

// The format a scraper asked for with its Accept header: OpenMetrics 1.0 when
// application/openmetrics-text (without a version, or version 1.0.0 or 0.0.1, whose grammar
// 1.0.0 keeps) has the highest q of the types offered here; otherwise, including an empty or
// unparsable header, the text format 0.0.4 (what every scraper reads). Ties go to the type
// listed first. Prometheus 2.42 sends
//     application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;
//     q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1
// and gets OpenMetrics 1.0.
ExpositionFormat negotiateFormat(std::string_view accept);

}  // namespace hitcounter::metrics
