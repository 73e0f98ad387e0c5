// AlertCommand: --alert-command CMD, run by /bin/sh -c for each time a rule fires or clears,
// with the alert in its environment:
//   HITCOUNTER_ALERT_RULE   the rule's name          HITCOUNTER_ALERT_STATE  firing | cleared
//   HITCOUNTER_ALERT_TIME   the unix second          HITCOUNTER_ALERT_VALUE  as printed (nan)
//   HITCOUNTER_ALERT_TEXT   the rule as written
// Its stdout goes to our stderr (our stdout is the CSV); stdin is /dev/null; it starts with no
// signal blocked and the default action for every signal, in a process group of its own.
//
// Modes: Sequential (replay) runs each command to its end before the next, killing one that
// runs past kTimeout; Concurrent (listen) never waits: at most kMaxRunning run at once, and a
// transition beyond them is skipped and named on stderr, so a burst of alerts can neither
// stall the counting nor fork without bound. Finished commands are reaped at every run() and
// at the end; one that exits with another code than 0 is named on stderr.
//
// Threading: one thread (the command's main thread). Not copyable.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/alert/alert_monitor.h"

namespace hitcounter::cli {

class AlertCommand {
public:
    enum class Mode { Sequential, Concurrent };
    static constexpr std::size_t kMaxRunning = 4;
    static constexpr std::chrono::seconds kTimeout{10};

    AlertCommand(std::string command, Mode mode);
    // Waits for the commands still running, at most kTimeout in all; the rest are left to run.
    ~AlertCommand();
    AlertCommand(const AlertCommand&) = delete;
    AlertCommand& operator=(const AlertCommand&) = delete;

    void run(const AlertEvent& event, const std::string& ruleName, const std::string& ruleText,
             const std::string& valueText);

    std::uint64_t started() const { return m_started; }
    std::uint64_t skipped() const { return m_skipped; }

private:
    // Reaps the finished commands (waiting up to `wait` for all), naming failures.
    void reap(std::chrono::milliseconds wait);

    struct Running {
        pid_t pid;
        std::string what;  // "errors firing at 1733580900", for messages
    };
    std::string m_command;
    Mode m_mode;
    std::vector<Running> m_running;
    std::uint64_t m_started = 0;
    std::uint64_t m_skipped = 0;
};

}  // namespace hitcounter::cli
