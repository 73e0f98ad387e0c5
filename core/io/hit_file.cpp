#include "core/io/hit_file.h"

#include <array>
#include <utility>

#include <ext/stdio_filebuf.h>

#include "core/io/access_log_reader.h"
#include "core/io/gzip_streambuf.h"
#include "core/io/line_splitter.h"
#include "core/io/parallel_log_reader.h"
#include "core/io/regular_file.h"
#include "core/io/spliced_streambuf.h"
#include "core/io/trace_reader.h"

namespace hitcounter {

namespace {

constexpr std::size_t kHeadBytes = 64 * 1024;
constexpr std::size_t kSampleLines = 10;

constexpr std::array<std::pair<HitFileFormat, std::string_view>, 6> kFormatNames = {{
    {HitFileFormat::Auto, "auto"},
    {HitFileFormat::Trace, "trace"},
    {HitFileFormat::Common, "common"},
    {HitFileFormat::Combined, "combined"},
    {HitFileFormat::JsonLines, "json"},
    {HitFileFormat::LogFormat, "log-format"},
}};

std::string_view trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

bool namesTimestampColumn(std::string_view line) {
    for (std::size_t start = 0;;) {
        const auto comma = line.find(',', start);
        auto field = trimmed(line.substr(start, comma - start));
        if (field.size() == 9) {
            std::string lower(field);
            for (char& c : lower)
                c = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
            if (lower == "timestamp")
                return true;
        }
        if (comma == std::string_view::npos)
            return false;
        start = comma + 1;
    }
}

std::string shown(std::string_view s) {
    constexpr std::size_t kLimit = 60;
    std::string out = "'";
    for (const char c : s.substr(0, kLimit)) {
        const auto u = static_cast<unsigned char>(c);
        out += (u < 0x20 || u == 0x7f) ? '?' : c;
    }
    out += s.size() > kLimit ? "...'" : "'";
    return out;
}

AccessLogParser parserFor(HitFileFormat format, const HitFileOptions& options) {
    switch (format) {
        case HitFileFormat::Common:
            return {LogFormat::common(), options.key};
        case HitFileFormat::Combined:
            return {LogFormat::combined(), options.key};
        case HitFileFormat::JsonLines:
            return AccessLogParser::jsonLines(options.key);
        default:
            return {LogFormat::compile(options.logFormat), options.key};
    }
}

}  // namespace

AccessLogParser accessLogParserFor(HitFileFormat format, const HitFileOptions& options) {
    AccessLogParser parser = parserFor(format, options);
    parser.setFilter(options.filter);
    parser.setSeries(options.series);
    return parser;
}

std::optional<HitFileFormat> hitFileFormatFromName(std::string_view name) {
    for (const auto& [format, formatName] : kFormatNames)
        if (name == formatName && format != HitFileFormat::LogFormat)
            return format;
    return std::nullopt;
}

std::string_view hitFileFormatName(HitFileFormat format) {
    for (const auto& [f, formatName] : kFormatNames)
        if (f == format)
            return formatName;
    return "auto";
}

std::optional<HitFileFormat> detectHitFileFormat(std::string_view head, std::string& problem) {
    LineSplitter splitter(head, kHeadBytes);
    std::vector<std::string_view> sample;
    std::vector<std::size_t> sampleLines;  // the line number of each
    std::string_view line;
    std::size_t lineNumber = 0;
    for (auto status = splitter.next(line);
         status != LineSplitter::Status::End && sample.size() < kSampleLines;
         status = splitter.next(line)) {
        ++lineNumber;
        if (status == LineSplitter::Status::TooLong)
            continue;
        // A line without its break is cut off (by the head's end, or a writer): it decides
        // only when it is all there is.
        if (status == LineSplitter::Status::Incomplete &&
            (!sample.empty() || head.size() >= kHeadBytes))
            break;
        const auto text = trimmed(line);
        if (text.empty())
            continue;
        if (sample.empty() && text.front() == '#')
            continue;  // trace CSV comments before the header
        sample.push_back(text);
        sampleLines.push_back(lineNumber);
    }
    if (sample.empty()) {
        // Empty (or only blank and comment lines): an empty trace.
        return HitFileFormat::Trace;
    }
    if (namesTimestampColumn(sample.front()))
        return HitFileFormat::Trace;
    // The log format most of the sample reads as wins; the best one that did not win names
    // its first bad line in the message.
    std::size_t bestParsed = 0;
    std::string bestMismatch;
    for (const auto candidate :
         {HitFileFormat::Combined, HitFileFormat::Common, HitFileFormat::JsonLines}) {
        auto parser = parserFor(candidate, {});
        std::size_t parsed = 0;
        HitEvent event;
        std::string firstMismatch;
        for (std::size_t i = 0; i < sample.size(); ++i) {
            std::string why;
            if (parser.parse(sample[i], event, why) == TraceErrorKind::None)
                ++parsed;
            else if (firstMismatch.empty())
                firstMismatch = "line " + std::to_string(sampleLines[i]) + ": " + why;
        }
        if (parsed * 2 > sample.size())
            return candidate;
        if (parsed > bestParsed) {
            bestParsed = parsed;
            bestMismatch = "the " + std::string(hitFileFormatName(candidate)) + " format (" +
                           firstMismatch + ")";
        }
    }
    // Comma-separated but no timestamp column: the CSV reader names what its header lacks.
    if (bestParsed == 0 && sample.front().find(',') != std::string_view::npos)
        return HitFileFormat::Trace;
    if (bestParsed > 0) {
        problem = "cannot recognise the format: only " + std::to_string(bestParsed) + " of the " +
                  "first " + std::to_string(sample.size()) + " lines read as " + bestMismatch +
                  "; a log must be one format (give --format or --log-format to read it as one, "
                  "its other lines are then skipped as bad rows)";
        return std::nullopt;
    }
    problem = "cannot recognise the format: the first line is " + shown(sample.front()) +
              ", which is not a trace CSV header (timestamp,key,...), a Common or Combined Log "
              "Format line, or a JSON object with a time member; give --format or --log-format";
    return std::nullopt;
}

HitFile::HitFile(const std::filesystem::path& path, const HitFileOptions& options)
    : m_timeJumps(options.maxTimeJump) {
    int fd = -1;
    try {
        fd = openRegularFile(path, "open trace");  // a FIFO or /dev/zero would never end
    } catch (const RegularFileError& e) {
        throw HitFileError(e.what());
    }
    m_file = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(fd, std::ios::in | std::ios::binary);
    open(*m_file, path.string(), options);
}

HitFile::HitFile(std::istream& in, const std::string& name, const HitFileOptions& options)
    : m_timeJumps(options.maxTimeJump) {
    open(*in.rdbuf(), name, options);
}

void HitFile::open(std::streambuf& raw, const std::string& name, const HitFileOptions& options) {
    // Read a head without seeking (standard input cannot), then splice it back in front.
    const auto readHead = [](std::streambuf& from) {
        std::string head(kHeadBytes, '\0');
        std::size_t got = 0;
        while (got < head.size()) {
            const auto n = from.sgetn(head.data() + got, std::streamsize(head.size() - got));
            if (n <= 0)
                break;
            got += std::size_t(n);
        }
        head.resize(got);
        return head;
    };
    std::string head = readHead(raw);
    std::streambuf* source = &raw;
    if (GzipStreambuf::looksGzipped(head)) {
        m_rawSpliced = std::make_unique<SplicedStreambuf>(std::move(head), raw);
        m_gzip = std::make_unique<GzipStreambuf>(*m_rawSpliced, options.gzip);
        source = m_gzip.get();
        head = readHead(*source);
        if (head.empty() && !m_gzip->error().empty())
            throw HitFileError(name + ": " + m_gzip->error());
    }

    m_format = options.logFormat.empty() ? options.format : HitFileFormat::LogFormat;
    if (m_format == HitFileFormat::Auto) {
        std::string problem;
        const auto detected = detectHitFileFormat(head, problem);
        if (!detected)
            throw HitFileError(name + ": " + problem);
        m_format = *detected;
    }
    m_spliced = std::make_unique<SplicedStreambuf>(std::move(head), *source);
    m_stream = std::make_unique<std::istream>(m_spliced.get());
    if (m_format == HitFileFormat::Trace) {
        if (options.filter)
            throw HitFileError(
                name + ": filter '" + options.filter->text() +
                "': " + describeFilterProblem(*options.filter->missingField({}, "trace CSV rows")));
        if (options.series)
            if (const auto missing = options.series->missingField({}, "trace CSV rows"))
                throw HitFileError(name + ": " + *missing);
        m_reader = std::make_unique<TraceReader>(*m_stream);
        m_progress = m_reader->progress();
        return;
    }
    try {
        AccessLogParser parser = accessLogParserFor(m_format, options);
        if (options.parseThreads > 1)
            m_reader = std::make_unique<ParallelLogReader>(*m_stream, std::move(parser),
                                                           options.parseThreads);
        else
            m_reader = std::make_unique<AccessLogReader>(*m_stream, std::move(parser));
    } catch (const std::invalid_argument& e) {
        throw HitFileError(name + ": " + e.what());
    }
    m_progress = m_reader->progress();
}

HitFile::~HitFile() = default;

TraceStatus HitFile::next(TraceRow& row) {
    return m_timeJumps.next(row, [this](TraceRow& r) { return readRow(r); });
}

bool HitFile::skipToLine(std::uint64_t line) {
    const bool reached = m_reader->skipToLine(line);
    m_progress = m_reader->progress();
    return reached;
}

bool HitFile::resumeAfter(std::uint64_t line, Timestamp head) {
    if (!skipToLine(line))
        return false;
    m_timeJumps.continueFrom(head);
    return true;
}

const TraceProgress& HitFile::progress() const {
    m_checkedProgress = m_progress;
    m_checkedProgress.rows -= m_timeJumps.badRows();
    m_checkedProgress.badRows += m_timeJumps.badRows();
    return m_checkedProgress;
}

TraceStatus HitFile::readRow(TraceRow& row) {
    auto status = m_reader->next(row);
    m_progress = m_reader->progress();
    if (m_gzip && m_gzip->truncated()) {
        // The line the cut went through has no line break: the truncation, not a bad row.
        if (status == TraceStatus::BadRow &&
            m_reader->error().kind == TraceErrorKind::IncompleteRow) {
            m_truncatedAt = m_reader->error().line;
            m_cutLineSkipped = true;
            status = m_reader->next(row);
            m_progress = m_reader->progress();
        }
        if (m_cutLineSkipped)
            m_progress.badRows -= 1;
        if (status == TraceStatus::End && !m_truncatedAt)
            m_truncatedAt = m_progress.lines + 1;
        return status;
    }
    if (status != TraceStatus::End || !m_gzip || m_gzip->error().empty() || m_streamErrorReported)
        return status;
    m_streamErrorReported = true;
    m_streamError = {progress().lines, TraceErrorKind::CorruptInput, m_gzip->error(), true};
    return TraceStatus::BadRow;
}

std::string truncationText(std::uint64_t line, std::uint64_t rows) {
    // Digits grouped as people write them, without a locale (core is Qt-free).
    const auto grouped = [](std::uint64_t n) {
        std::string digits = std::to_string(n);
        for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3)
            digits.insert(static_cast<std::size_t>(at), ",");
        return digits;
    };
    return "truncated at line " + std::to_string(line) + ": " + grouped(rows) +
           (rows == 1 ? " line replayed" : " lines replayed");
}

const TraceError& HitFile::error() const {
    const TraceError* jump = m_timeJumps.error();
    return jump ? *jump : readError();
}

const TraceError& HitFile::readError() const {
    return m_streamErrorReported ? m_streamError : m_reader->error();
}

std::string HitFile::description() const {
    std::string text;
    switch (m_format) {
        case HitFileFormat::Trace:
            text = "trace CSV";
            break;
        case HitFileFormat::Common:
            text = "common log format";
            break;
        case HitFileFormat::Combined:
            text = "combined log format";
            break;
        case HitFileFormat::JsonLines:
            text = "JSON lines";
            break;
        default:
            text = "custom log format";
            break;
    }
    return m_gzip ? text + " (gzip)" : text;
}

std::uint64_t HitFile::fileBytesRead() const {
    return m_gzip ? m_gzip->compressedBytesRead() : progress().bytesRead;
}

}  // namespace hitcounter
