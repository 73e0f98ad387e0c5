// --alert RULE (repeatable), --alert-file FILE and --alert-command CMD for `replay` and
// `listen`: the rules (core/alert, docs/alerts.md) parsed into one AlertMonitor, their firing
// and clearing printed as they happen, and the command run for each (alert_command.h).
//
// A rules file: one rule per line; blank lines and lines starting with '#' are skipped; at
// most kMaxRulesFileBytes. Its rules come before the --alert ones (unnamed rules are numbered
// in that order). A bad rule is named by file, line and column.
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
#include <QList>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/alert_command.h"
#include "app/cli/json_writer.h"
#include "core/alert/alert_monitor.h"

namespace hitcounter::cli {

inline constexpr int kExitAlertFired = 3;  // a rule fired (and the run itself succeeded)

inline constexpr std::size_t kMaxRulesFileBytes = 1 << 20;

struct AlertCliOptions {
    QCommandLineOption alert, alertFile, alertCommand;
    QList<QCommandLineOption> all() const { return {alert, alertFile, alertCommand}; }
};
AlertCliOptions alertCliOptions();

class AlertRun {
public:
    // Transitions go to `out` as CSV lines (none with `csv` false: the caller writes JSON).
    AlertRun(std::unique_ptr<AlertMonitor> monitor, std::FILE* out, bool csv);

    // What the sources mark each hit with (HitFileOptions::series, ListenerOptions::series).
    std::shared_ptr<const SeriesFilters> series() const { return m_monitor->series(); }

    // Prints the CSV header: call once the input is open, before the first hit.
    void begin();
    // A replay's hit, in the order read.
    void add(const HitEvent& hit);
    // listen: evaluation starts at `now` (a silent source's `count(*) < 1` fires too).
    void beginLive(Timestamp now);
    // listen: the batch's hits whose own time lies in the wall clock's window, (now - W,
    // now + 1]; the others (a Graphite or statsd `T` time of the past or the future) are
    // counted, not evaluated: one far ahead would push every later hit out of the windows.
    void addLive(const HitBatch& batch, Timestamp now);
    // Names on stderr each rule reading response times when no hit named one, and the hits
    // addLive() left out.
    void reportAtEnd() const;
    // Evaluates up to `second` and prints what fired or cleared.
    void advanceTo(Timestamp second);

    // From now on `command` runs for each transition.
    void setCommand(std::unique_ptr<AlertCommand> command) { m_command = std::move(command); }

    bool anyFired() const { return m_fired > 0; }
    // "alerts": every transition {time, rule, state, value (null: undefined)};
    // "alert_rules": each rule's {name, rule (its text), firing (at the end), fired (times)}.
    void writeJson(JsonWriter& out) const;
    // The same two members as text for a hand-written top-level object (four spaces indented,
    // no comma before or after).
    std::string membersJson() const;

private:
    std::unique_ptr<AlertMonitor> m_monitor;
    std::unique_ptr<AlertCommand> m_command;  // null without --alert-command
    std::FILE* m_out;
    bool m_csv;
    std::vector<AlertEvent> m_events;
    std::vector<std::size_t> m_firedPerRule;
    std::size_t m_fired = 0;
    std::uint64_t m_timedHits = 0;
    std::uint64_t m_outsideWindow = 0;  // addLive's
};

// An AlertRun of the --alert-file rules and every --alert RULE over `window` (null without
// any), running --alert-command in `mode`; or std::nullopt after naming the bad rule
// ("--alert 'count(*) >': column 11: expected a number, found the end", "rules.txt:3: column
// 7: ...") or file.
std::optional<std::unique_ptr<AlertRun>> alertRunFrom(const QCommandLineParser& parser,
                                                      const AlertCliOptions& options,
                                                      std::chrono::seconds window, std::FILE* out,
                                                      bool csv, AlertCommand::Mode mode);

}  // namespace hitcounter::cli
