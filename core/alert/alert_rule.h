// AlertRule: "tell me when 5xx stay above 2 % for a minute" as a rule over the window counts
// of filtered series, parsed once and then evaluated every second (alert_monitor.h). The
// grammar is documented for users in docs/alerts.md; in short:
//
//     rule       := [NAME ':'] expr CMP threshold ['for' DURATION] ['clear' CMP threshold]
//     expr       := term (('+' | '-') term)*
//     term       := factor (('*' | '/') factor)*
//     factor     := NUMBER | FUNCTION '(' SERIES ')' | '(' expr ')'
//     FUNCTION   := 'count' | 'rate' | 'bytes' | 'p50' | 'p90' | 'p99' | 'max'
//     SERIES     := '*' (every hit) | a filter expression (record_filter.h, docs/filters.md)
//     CMP        := '>' | '>=' | '<' | '<='
//     threshold  := NUMBER ['%']            (2% is 0.02)
//     DURATION   := NUMBER ('s' | 'm' | 'h')  (whole seconds; 0s: at once)
//     NAME       := a letter, digit or '_', then letters, digits, '_', '.', '-' (at most 64)
//
//  - count(S) is the number of hits of series S in the window (t - W, t]; rate(S) is that
//    over W (hits per second); bytes(S) the bytes its hits sent (those that name them; 0 when
//    none did); p50/p90/p99(S) the nearest-rank quantiles of its hits' response times in
//    seconds (within 1 %: WindowedMeasures) and max(S) the slowest, undefined when no hit in
//    the window named its time. A division by zero makes the value undefined too.
//  - The rule holds at a second when `expr CMP threshold` is true there (never when the value
//    is undefined). It fires once it has held at every evaluated second for DURATION
//    (Prometheus' `for`): first true at t0, firing at t0 + DURATION.
//  - A firing rule clears at the first second its clear condition is true or its value is
//    undefined; without `clear`, when the rule no longer holds. A clear condition must lie on
//    the other side of the threshold (hysteresis): `> 2% clear < 1%`, not `> 2% clear > 3%`
//    nor `>= 2% clear <= 2%` (both would hold at 2 %).
//  - Without NAME a rule is named by its caller (alert_monitor.h: rule1, rule2, ...).
//
// Value type (move-only: it owns its compiled filters until AlertMonitor takes them).
// Errors: parse() returns a TextProblem whose column (1-based, in bytes) is where the problem
// is, inside a filter too; describeAlertProblem() words it for people.
//
// Example:
//     auto parsed = AlertRule::parse("errors: count(status=5xx) / count(*) > 2% for 60s");
//     std::get<AlertRule>(parsed).name();   // "errors"
//     AlertRule::parse("count(status=5xx) > ")   // TextProblem{0, 21, "expected a number ..."}
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/base/text_problem.h"
#include "core/filter/record_filter.h"
#include "core/sketches/windowed_measures.h"

namespace hitcounter {

enum class AlertComparison { Above, AtLeast, Below, AtMost };  // > >= < <=

// What a rule reads of one series' window: its hits, and (for a series a measure function
// names) what they measured.
struct SeriesWindow {
    double hits = 0;
    MeasuresSummary measures;
};

class AlertRule {
public:
    static constexpr std::size_t kMaxTextBytes = 4096;
    static constexpr int kMaxNesting = 32;

    // One node of the expression, in a flat tree (children by index).
    struct Node {
        enum class Kind {
            Number,
            Hits,  // count()
            Rate,
            Bytes,
            P50,
            P90,
            P99,
            Max,
            Add,
            Subtract,
            Multiply,
            Divide
        } kind{};
        double number = 0;  // Number
        int series = -1;    // the functions': an index into filters(), -1 for every hit (*)
        std::size_t left = 0, right = 0;  // the operators' operands
    };

    static std::variant<AlertRule, TextProblem> parse(std::string_view text);

    const std::string& text() const { return m_text; }
    const std::string& name() const { return m_name; }  // empty when the text names none
    std::chrono::seconds holdFor() const { return m_for; }

    // The filters count() and rate() name, each once, in order of first appearance.
    std::vector<RecordFilter>& filters() { return m_filters; }
    const std::vector<RecordFilter>& filters() const { return m_filters; }

    // The expression's value given each series' window (`series[i]` for filters()[i]) and
    // every hit's (`all`), over a window of `windowSeconds`; NaN when undefined.
    double value(const std::vector<SeriesWindow>& series, const SeriesWindow& all,
                 double windowSeconds) const;
    // Whether a measure function (bytes, p50, ..., max) names filters()[i] (-1: *): only
    // those series need their measures kept.
    bool measures(int series) const;
    // Whether p50, p90, p99 or max appears.
    bool readsResponseTimes() const;
    // Whether the rule holds for `value` (never for NaN); whether a firing rule clears.
    bool holds(double value) const;
    bool clears(double value) const;

private:
    AlertRule() = default;
    friend class AlertRuleParser;

    std::string m_text, m_name;
    std::vector<Node> m_nodes;  // the root is the last
    std::vector<RecordFilter> m_filters;
    AlertComparison m_comparison = AlertComparison::Above;
    double m_threshold = 0;
    std::optional<std::pair<AlertComparison, double>> m_clear;
    std::chrono::seconds m_for{0};
};

// "column 21: expected a number ...": a problem of a rule for people.
std::string describeAlertProblem(const TextProblem& problem);

}  // namespace hitcounter
