// --alert RULE (repeatable) for `replay` and `listen`: the rules (core/alert, docs/alerts.md)
// parsed into one AlertMonitor, and their firing and clearing printed as they happen.
//
// Output: a header `time,rule,state,value`, then one line per transition, flushed at once:
// the unix second, the rule's name, `firing` or `cleared`, and the rule's value there
// (`nan` when undefined: a division by zero). Exit status kExitAlertFired when any rule fired
// during the run.
//
// Threading: main thread only. Functions that return std::nullopt have already written their
// message to stderr (cli_options.h).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/json_writer.h"
#include "core/alert/alert_monitor.h"

namespace hitcounter::cli {

inline constexpr int kExitAlertFired = 3;  // a rule fired (and the run itself succeeded)

QCommandLineOption alertCliOption();

class AlertRun {
public:
    // Transitions go to `out` as CSV lines (none with `csv` false: the caller writes JSON).
    AlertRun(std::unique_ptr<AlertMonitor> monitor, std::FILE* out, bool csv);

    // What the sources mark each hit with (HitFileOptions::series, ListenerOptions::series).
    std::shared_ptr<const SeriesFilters> series() const { return m_monitor->series(); }

    // Prints the CSV header: call once the input is open, before the first hit.
    void begin();
    void add(const HitEvent& hit) { m_monitor->add(hit); }
    void add(const HitBatch& batch);
    // Evaluates up to `second` and prints what fired or cleared.
    void advanceTo(Timestamp second);

    bool anyFired() const { return m_fired > 0; }
    // "alerts": every transition {time, rule, state, value (null: undefined)};
    // "alert_rules": each rule's {name, rule (its text), firing (at the end), fired (times)}.
    void writeJson(JsonWriter& out) const;
    // The same two members as text for a hand-written top-level object (four spaces indented,
    // no comma before or after).
    std::string membersJson() const;

private:
    std::unique_ptr<AlertMonitor> m_monitor;
    std::FILE* m_out;
    bool m_csv;
    std::vector<AlertEvent> m_events;
    std::vector<std::size_t> m_firedPerRule;
    std::size_t m_fired = 0;
};

// An AlertRun of every --alert RULE over `window` (null without one), or std::nullopt after
// naming the bad rule: "--alert 'count(*) >': column 11: expected a number, found the end".
std::optional<std::unique_ptr<AlertRun>> alertRunFrom(const QCommandLineParser& parser,
                                                      const QCommandLineOption& option,
                                                      std::chrono::seconds window, std::FILE* out,
                                                      bool csv);

}  // namespace hitcounter::cli
