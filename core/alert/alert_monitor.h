// AlertMonitor: alert rules (alert_rule.h) evaluated every second over exact window counts of
// every hit and of each filtered series the rules name.
//
// Not thread-safe; owned by one thread (the CLI's consumer).
//
// The series: the rules' filters, each expression once, become one SeriesFilters (series())
// that the source asks of every line, so each hit arrives marked (HitEvent::series). Each
// series and "every hit" has a RingCounter of the window: exact, late hits within the window
// included, counts saturate; and a WindowedMeasures (bytes, response-time quantiles) when a
// rule names a measure function of it.
//
// Evaluation: advanceTo(T) evaluates each second after the last one evaluated up to T, oldest
// first, starting at startAt()'s second or else at the first hit's (nothing is evaluated
// before either). A hit of a
// second already evaluated (late) counts from the next evaluation on. Each rule is Inactive,
// Pending (holding, for less than its `for`) or Firing; a transition to Firing or from Firing
// to Inactive is an AlertEvent. Once every window is empty the values stay what they are until
// the next hit, so a gap in the hits costs O(rules), not O(seconds): only a Pending rule can
// still change there (it fires when its `for` ends inside the gap).
//
// Cost: add() O(1 + series bits set), plus WindowedMeasures::add for measured series; a
// second's evaluation O(series + rule nodes), plus WindowedMeasures::window for measured ones.
// Memory: (series + 1) rings of the window (RingCounter), plus a WindowedMeasures per measured
// series.
//
// Example (window 300, rule "errors: count(status=5xx) / count(*) > 50% for 2s"):
//     add 503 at 10, add 200 at 10, add 503 at 11, add 503 at 12, add 503 at 13
//     advanceTo(13) -> {13, errors, Firing, 0.8}  (held since 11: 2/3, 3/4, 4/5)
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/alert/alert_rule.h"
#include "core/base/hit_event.h"
#include "core/counters/ring_counter.h"
#include "core/filter/series_filters.h"

namespace hitcounter {

enum class AlertState { Inactive, Pending, Firing };

struct AlertEvent {
    Timestamp second = 0;
    std::size_t rule = 0;  // index into AlertMonitor::rules()
    bool firing = false;   // true: the rule fired; false: it cleared
    double value = 0;      // the rule's value at that second (NaN: undefined)
};

class AlertMonitor {
public:
    // Rules without a name are named "rule" + their 1-based place. Throws
    // std::invalid_argument when two rules share a name, and std::length_error when the rules
    // name more than SeriesFilters::kMax different filters.
    AlertMonitor(std::vector<AlertRule> rules, std::chrono::seconds window);

    // What the source marks each hit with; null when no rule names a filter.
    std::shared_ptr<const SeriesFilters> series() const { return m_seriesFilters; }

    // Evaluation starts at `second` (a live source: its start), unless it has started already.
    void startAt(Timestamp second);
    void add(const HitEvent& hit);
    // Evaluates the seconds after the last one evaluated up to `second` (see above); returns
    // the transitions, oldest first (by rule at one second).
    std::vector<AlertEvent> advanceTo(Timestamp second);

    std::size_t size() const { return m_rules.size(); }
    std::chrono::seconds window() const { return m_window; }
    const std::string& name(std::size_t rule) const { return m_names.at(rule); }
    const AlertRule& rule(std::size_t rule) const { return m_rules.at(rule); }
    AlertState state(std::size_t rule) const { return m_states.at(rule).state; }
    // The last second evaluated; nullopt before the first hit.
    std::optional<Timestamp> evaluatedThrough() const { return m_evaluated; }

private:
    struct RuleState {
        AlertState state = AlertState::Inactive;
        Timestamp since = 0;  // Pending: the first second of the current streak
        double value = 0;     // at the last evaluation
    };

    void evaluate(Timestamp second, std::vector<AlertEvent>& events);
    void fireHeldRulesThrough(Timestamp last, std::vector<AlertEvent>& events);

    std::vector<AlertRule> m_rules;
    std::vector<std::string> m_names;
    std::vector<std::vector<std::size_t>> m_ruleSeries;  // rule's filter i -> m_windows index
    std::shared_ptr<SeriesFilters> m_seriesFilters;
    std::chrono::seconds m_window;
    // Every hit's window (index 0) and each series' (index 1 + i for series filter i).
    struct Window {
        RingCounter hits;
        std::unique_ptr<WindowedMeasures> measures;  // null when no rule measures it
        void add(const HitEvent& hit);
        SeriesWindow at(Timestamp second);
    };
    std::vector<Window> m_windows;
    std::vector<RuleState> m_states;
    std::optional<Timestamp> m_evaluated;
    std::optional<Timestamp> m_newestHit;
};

}  // namespace hitcounter
