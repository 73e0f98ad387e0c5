// Reading the files of recorded hits named on the hitcounter-cli command line (trace CSVs or
// access logs, plain or gzip, or - alone for stdin; several files are read as one stream in
// time order, rotation sets oldest first: core/io/input_set.h), the way every command that
// takes them reports problems: a file that cannot be opened, bad rows named by FILE:LINE (the
// first kReportedBadRows, then counted), --strict or a fatal error stopping the run with exit
// code 2. A gzip file cut short is read up to the cut and named ("FILE: truncated at line 1608:
// 1,607 lines replayed"); with --strict that too stops the run with exit code 2.
//
// Threading: main thread only; messages go to stderr through printError (cli_options.h).
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

#include "core/base/hit_event.h"
#include "core/io/input_set.h"

namespace hitcounter::cli {

class TraceInput {
public:
    // Bad rows named one by one on stderr before only counting them.
    static constexpr std::uint64_t kReportedBadRows = 10;

    // keyBySource: every row's key is its source's label (--key source).
    TraceInput(QStringList files, HitFileOptions options, bool keyBySource = false)
        : m_files(std::move(files)), m_options(std::move(options)), m_keyBySource(keyBySource) {}
    ~TraceInput();

    // Opens the files; false after naming the file and the reason.
    bool open();
    // Calls onRow for every good row in merged order (one file: file order). Returns an exit
    // code if the run must stop (bad row with `strict`, fatal error: kExitBadInput), else
    // std::nullopt after reporting how many bad rows were skipped.
    std::optional<int> read(bool strict, const std::function<void(const HitEvent&)>& onRow);

    // The files as named, joined by ", " (one file: its name).
    QString name() const { return m_files.join(QStringLiteral(", ")); }
    // Rows and bad rows read so far, over all files.
    const TraceProgress& progress() const { return m_progress; }
    // After read(): a file was a gzip stream cut short.
    bool truncated() const { return m_truncated; }

private:
    QStringList m_files;
    HitFileOptions m_options;
    bool m_keyBySource;
    std::unique_ptr<InputSet> m_reader;
    TraceProgress m_progress;
    bool m_truncated = false;
};

}  // namespace hitcounter::cli
