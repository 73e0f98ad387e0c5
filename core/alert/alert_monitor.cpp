#include "core/alert/alert_monitor.h"

#include <algorithm>
#include <bit>
#include <set>
#include <stdexcept>

namespace hitcounter {

AlertMonitor::AlertMonitor(std::vector<AlertRule> rules, std::chrono::seconds window)
    : m_rules(std::move(rules)),
      m_seriesFilters(std::make_shared<SeriesFilters>()),
      m_window(window),
      m_states(m_rules.size()) {
    std::set<std::string> names;
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        AlertRule& rule = m_rules[i];
        m_names.push_back(rule.name().empty() ? "rule" + std::to_string(i + 1) : rule.name());
        if (!names.insert(m_names.back()).second)
            throw std::invalid_argument("two rules are named " + m_names.back() +
                                        "; expected a name of its own for each rule");
        std::vector<std::size_t> indexes;
        for (RecordFilter& filter : rule.filters())
            indexes.push_back(1 + m_seriesFilters->add(std::move(filter)));
        m_ruleSeries.push_back(std::move(indexes));
    }
    for (std::size_t i = 0; i <= m_seriesFilters->size(); ++i)
        m_windows.push_back({RingCounter(window), nullptr});
    const auto measure = [&](std::size_t index) {
        if (!m_windows[index].measures)
            m_windows[index].measures = std::make_unique<WindowedMeasures>(window);
    };
    for (std::size_t r = 0; r < m_rules.size(); ++r) {
        if (m_rules[r].measures(-1))
            measure(0);
        for (std::size_t f = 0; f < m_ruleSeries[r].size(); ++f)
            if (m_rules[r].measures(int(f)))
                measure(m_ruleSeries[r][f]);
    }
    if (m_seriesFilters->empty())
        m_seriesFilters.reset();
}

void AlertMonitor::Window::add(const HitEvent& hit) {
    hits.hit(hit.time, hit.count);
    if (measures)
        measures->add(hit);
}

SeriesWindow AlertMonitor::Window::at(Timestamp second) {
    return {double(hits.count(second)), measures ? measures->window(second) : MeasuresSummary{}};
}

void AlertMonitor::startAt(Timestamp second) {
    if (!m_evaluated)
        m_evaluated = second - 1;
}

void AlertMonitor::add(const HitEvent& hit) {
    m_windows[0].add(hit);
    for (SeriesMask bits = hit.series; bits != 0; bits = SeriesMask(bits & (bits - 1))) {
        const auto index = 1 + std::size_t(std::countr_zero(bits));
        if (index < m_windows.size())
            m_windows[index].add(hit);
    }
    m_newestHit = m_newestHit ? std::max(*m_newestHit, hit.time) : hit.time;
    if (!m_evaluated)
        m_evaluated = hit.time - 1;
}

std::vector<AlertEvent> AlertMonitor::advanceTo(Timestamp second) {
    std::vector<AlertEvent> events;
    while (m_evaluated && *m_evaluated < second) {
        const Timestamp next = *m_evaluated + 1;
        evaluate(next, events);
        m_evaluated = next;
        // Every window empty: nothing changes until the next hit but a held rule's `for`.
        const bool empty = !m_newestHit || next - m_window.count() >= *m_newestHit;
        if (empty && next < second) {
            fireHeldRulesThrough(second, events);
            m_evaluated = second;
        }
    }
    return events;
}

void AlertMonitor::evaluate(Timestamp second, std::vector<AlertEvent>& events) {
    std::vector<SeriesWindow> windows;
    for (Window& w : m_windows)
        windows.push_back(w.at(second));
    std::vector<SeriesWindow> ruleWindows;
    for (std::size_t r = 0; r < m_rules.size(); ++r) {
        ruleWindows.clear();
        for (const std::size_t index : m_ruleSeries[r])
            ruleWindows.push_back(windows[index]);
        const AlertRule& rule = m_rules[r];
        RuleState& s = m_states[r];
        s.value = rule.value(ruleWindows, windows[0], double(m_window.count()));
        if (s.state == AlertState::Firing) {
            if (rule.clears(s.value)) {
                s.state = AlertState::Inactive;
                events.push_back({second, r, false, s.value});
            }
            continue;
        }
        if (!rule.holds(s.value)) {
            s.state = AlertState::Inactive;
            continue;
        }
        if (s.state == AlertState::Inactive) {
            s.state = AlertState::Pending;
            s.since = second;
        }
        if (second - s.since >= rule.holdFor().count()) {
            s.state = AlertState::Firing;
            events.push_back({second, r, true, s.value});
        }
    }
}

void AlertMonitor::fireHeldRulesThrough(Timestamp last, std::vector<AlertEvent>& events) {
    const std::size_t first = events.size();
    for (std::size_t r = 0; r < m_rules.size(); ++r) {
        RuleState& s = m_states[r];
        const Timestamp at = s.since + m_rules[r].holdFor().count();
        if (s.state == AlertState::Pending && at <= last) {
            s.state = AlertState::Firing;
            events.push_back({at, r, true, s.value});
        }
    }
    std::stable_sort(events.begin() + std::ptrdiff_t(first), events.end(),
                     [](const AlertEvent& a, const AlertEvent& b) { return a.second < b.second; });
}

}  // namespace hitcounter
