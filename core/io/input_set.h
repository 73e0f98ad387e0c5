// Several files of recorded hits read as one stream (hitcounter-cli replay a.log b.log.gz ...,
// docs/sources.md "Several files as one"): the files are grouped into sources, each source is
// read in its own order, and the sources are merged in time order.
//
// Sources: the files of one rotation set are one source, read oldest first as if they were
// one file: `access.log.3.gz`, `access.log.2.gz`, `access.log.1`, `access.log` (logrotate's
// numbered names: the higher the number, the older), or `access.log-20261205.gz`,
// `access.log-20261206`, `access.log` (logrotate's dateext: the earlier the date, the older);
// `.gz` or not, each file's format is detected on its own. Any other file is a source of its
// own. A source's label is its rotation set's base path (`access.log`), else the file's path as
// given: it names the source in `--key source` and in messages.
//
// Merge: the next row is the one with the smallest time among the sources' next rows (ties:
// the source named first), so each source's rows keep their order (a late line in one log stays
// where its server wrote it and is counted as a late hit, exactly as in that log alone) and a
// rotation set gives exactly the rows, in the order, of its files concatenated oldest first.
//
// Not thread-safe; one owner thread. Memory: one open HitFile (its buffers) per file and one
// pending row per source. Cost per row: O(sources) to find the smallest time; one source is
// read straight through (no pending row).
//
// Example: groupInputSources({"web2.log", "a/access.log", "a/access.log.2.gz", "a/access.log.1"})
//     -> {"web2.log": [web2.log]}, {"a/access.log": [a/access.log.2.gz, a/access.log.1,
//        a/access.log]}
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/io/hit_file.h"

namespace hitcounter {

struct InputSource {
    std::string label;               // the rotation set's base path, or the file's path
    std::vector<std::string> files;  // oldest first
};

// Groups paths into sources in the order their first file was named. Throws
// std::invalid_argument naming a path given twice.
std::vector<InputSource> groupInputSources(const std::vector<std::string>& paths);

class InputSet {
public:
    // Opens every file with `options` (its format detected on its own unless options name one).
    // With keyBySource every row's key is its source's label. Throws HitFileError (the message
    // names the file) if one cannot be opened, std::invalid_argument if there is no source.
    InputSet(std::vector<InputSource> sources, const HitFileOptions& options, bool keyBySource);
    // One file already open (standard input), a source of its own labelled `label`.
    InputSet(std::unique_ptr<HitFile> file, const std::string& label, bool keyBySource);
    ~InputSet();

    InputSet(const InputSet&) = delete;
    InputSet& operator=(const InputSet&) = delete;

    // The next row in merged order, a bad row (error() and errorFile() say what and where; a
    // fatal one ends the set: End follows), or End when every source is done.
    TraceStatus next(TraceRow& row);
    const TraceError& error() const { return m_error; }
    // The file the last bad row is in.
    const std::string& errorFile() const { return m_errorFile; }
    // Summed over the files.
    TraceProgress progress() const;
    // Bytes of the files themselves consumed so far (compressed bytes for gzip), summed.
    std::uint64_t fileBytesRead() const;
    // The files' formats (HitFile::description), each distinct one once in the order of the
    // sources, joined by " + ": "combined log format", "combined log format + trace CSV (gzip)".
    std::string description() const;

    // Whether the rows come from one file, so that TraceRow::line names a row's place in the
    // whole input (resumeAfter can skip to it).
    bool singleFile() const;
    // A set of one file only (else false): HitFile::resumeAfter on it, just after the set was
    // opened; next() then returns the rows that followed that line.
    bool resumeAfter(std::uint64_t line, Timestamp head);

    // A gzip file cut short: read up to the cut (HitFile::truncatedAtLine).
    struct Truncation {
        std::string file;
        std::uint64_t line = 0;
        std::uint64_t rows = 0;  // the file's rows read before the cut
    };
    // Of the files read to their end so far.
    std::vector<Truncation> truncations() const;

    const std::vector<InputSource>& sources() const { return m_sources; }

private:
    struct Stream;  // one source: its files, the one being read, its pending row

    explicit InputSet(bool keyBySource);
    void fillAllFirst();

    // Stream `i`'s next row into `row` (its files one after the other): Row, BadRow (m_error
    // and m_errorFile say what and where), or End when the stream is done.
    TraceStatus readFrom(std::size_t i, TraceRow& row);

    std::vector<InputSource> m_sources;
    std::vector<std::unique_ptr<Stream>> m_streams;
    bool m_keyBySource;
    std::vector<std::size_t> m_toFill;  // streams whose pending row was taken
    TraceError m_error;
    std::string m_errorFile;
    bool m_fatal = false;
};

}  // namespace hitcounter
