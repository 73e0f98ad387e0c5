// Reading a trace named on the hitcounter-cli command line (a file, or - for stdin) with the
// core's TraceReader, the way every command that takes a trace reports problems: a file that
// cannot be opened, bad rows named by FILE:LINE (the first kReportedBadRows, then counted),
// --strict or a fatal header stopping the run with exit code 2.
//
// Threading: main thread only; messages go to stderr through printError (cli_options.h).
#pragma once

#include <QString>
#include <fstream>
#include <functional>
#include <istream>
#include <optional>

#include "core/io/trace_reader.h"
#include "core/sources/hit_event.h"

namespace hitcounter::cli {

class TraceInput {
public:
    // Bad rows named one by one on stderr before only counting them.
    static constexpr std::uint64_t kReportedBadRows = 10;

    explicit TraceInput(QString trace) : m_trace(std::move(trace)) {}

    // Opens the trace; false after naming the file and the reason.
    bool open();
    // Calls onRow for every good row in file order. Returns an exit code if the run must stop
    // (bad row with `strict`, fatal header: kExitBadInput; read error: kExitFailure), else
    // std::nullopt after reporting how many bad rows were skipped.
    std::optional<int> read(bool strict, const std::function<void(const HitEvent&)>& onRow);

    const QString& name() const { return m_trace; }
    // Rows and bad rows read so far.
    const TraceProgress& progress() const { return m_progress; }

private:
    QString m_trace;
    std::ifstream m_file;
    std::istream* m_in = nullptr;
    TraceProgress m_progress;
};

}  // namespace hitcounter::cli
