// Reading the file of recorded hits named on the hitcounter-cli command line (a trace CSV or an
// access log, plain or gzip, or - for stdin; opened with HitFile), the way every command that
// takes one reports problems: a file that cannot be opened, bad rows named by FILE:LINE (the
// first kReportedBadRows, then counted), --strict or a fatal error stopping the run with exit
// code 2. A gzip file cut short is read up to the cut and named ("FILE: truncated at line 1608:
// 1,607 lines replayed"); with --strict that too stops the run with exit code 2.
//
// Threading: main thread only; messages go to stderr through printError (cli_options.h).
#pragma once

#include <QString>
#include <functional>
#include <memory>
#include <optional>

#include "core/base/hit_event.h"
#include "core/io/hit_file.h"

namespace hitcounter::cli {

class TraceInput {
public:
    // Bad rows named one by one on stderr before only counting them.
    static constexpr std::uint64_t kReportedBadRows = 10;

    TraceInput(QString trace, HitFileOptions options)
        : m_trace(std::move(trace)), m_options(std::move(options)) {}

    // Opens the file; false after naming the file and the reason.
    bool open();
    // Calls onRow for every good row in file order. Returns an exit code if the run must stop
    // (bad row with `strict`, fatal error: kExitBadInput), else std::nullopt after reporting how
    // many bad rows were skipped.
    std::optional<int> read(bool strict, const std::function<void(const HitEvent&)>& onRow);

    const QString& name() const { return m_trace; }
    // Rows and bad rows read so far.
    const TraceProgress& progress() const { return m_progress; }
    // After read(): the file was a gzip stream cut short.
    bool truncated() const { return m_truncated; }

private:
    QString m_trace;
    HitFileOptions m_options;
    std::unique_ptr<HitFile> m_reader;
    TraceProgress m_progress;
    bool m_truncated = false;
};

}  // namespace hitcounter::cli
