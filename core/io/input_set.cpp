#include "core/io/input_set.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <tuple>

namespace hitcounter {

namespace {

bool allDigits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Where a file sits in its rotation set: rank 0 dateext (older by date), rank 1 numbered
// (older by a higher number), rank 2 the live file; within a rank by `order` (digits, compared
// by length then text, so no number is too long).
struct Member {
    std::string base;
    int rank = 2;
    std::string order;
};

Member memberOf(const std::string& path) {
    std::string_view name = path;
    const bool gzip = name.ends_with(".gz");
    if (gzip)
        name.remove_suffix(3);
    const std::size_t dot = name.find_last_of("./");
    if (dot != std::string_view::npos && dot > 0 && name[dot] == '.' &&
        allDigits(name.substr(dot + 1)))
        return {std::string(name.substr(0, dot)), 1, std::string(name.substr(dot + 1))};
    const std::size_t dash = name.find_last_of("-/");
    if (dash != std::string_view::npos && dash > 0 && name[dash] == '-') {
        const std::string_view date = name.substr(dash + 1);
        if ((date.size() == 8 || date.size() == 10) && allDigits(date))
            return {std::string(name.substr(0, dash)), 0, std::string(date)};
    }
    // A live file, or a compressed file without a rotation number: a source of its own.
    return {path, 2, {}};
}

// Oldest first.
bool olderThan(const Member& a, const Member& b) {
    if (a.rank != b.rank)
        return a.rank < b.rank;
    const auto byValue = [](const std::string& x, const std::string& y) {
        return std::tuple(x.size(), x) < std::tuple(y.size(), y);
    };
    return a.rank == 1 ? byValue(b.order, a.order) : byValue(a.order, b.order);
}

}  // namespace

std::vector<InputSource> groupInputSources(const std::vector<std::string>& paths) {
    std::vector<InputSource> sources;
    std::vector<std::vector<std::pair<Member, std::string>>> members;
    for (const std::string& path : paths) {
        if (std::count(paths.begin(), paths.end(), path) > 1)
            throw std::invalid_argument(path + " is named twice");
        Member member = memberOf(path);
        const auto source = std::find_if(sources.begin(), sources.end(), [&](const InputSource& s) {
            return s.label == member.base;
        });
        const auto index = static_cast<std::size_t>(source - sources.begin());
        if (source == sources.end()) {
            sources.push_back({member.base, {}});
            members.emplace_back();
        }
        members[index].emplace_back(std::move(member), path);
    }
    for (std::size_t i = 0; i < sources.size(); ++i) {
        std::stable_sort(members[i].begin(), members[i].end(),
                         [](const auto& a, const auto& b) { return olderThan(a.first, b.first); });
        for (auto& [member, path] : members[i])
            sources[i].files.push_back(std::move(path));
    }
    return sources;
}

struct InputSet::Stream {
    std::string label;
    std::vector<std::string> paths;
    std::vector<std::unique_ptr<HitFile>> files;
    std::size_t current = 0;  // the file being read; files.size() when done
    std::optional<TraceRow> pending;
};

InputSet::InputSet(bool keyBySource) : m_keyBySource(keyBySource) {}

InputSet::InputSet(std::vector<InputSource> sources, const HitFileOptions& options,
                   bool keyBySource)
    : InputSet(keyBySource) {
    if (sources.empty())
        throw std::invalid_argument("no file to read");
    m_sources = std::move(sources);
    for (const InputSource& source : m_sources) {
        auto stream = std::make_unique<Stream>();
        stream->label = source.label;
        stream->paths = source.files;
        for (const std::string& path : source.files)
            stream->files.push_back(std::make_unique<HitFile>(path, options));
        m_streams.push_back(std::move(stream));
    }
    fillAllFirst();
}

InputSet::InputSet(std::unique_ptr<HitFile> file, const std::string& label, bool keyBySource)
    : InputSet(keyBySource) {
    m_sources.push_back({label, {label}});
    auto stream = std::make_unique<Stream>();
    stream->label = label;
    stream->paths = {label};
    stream->files.push_back(std::move(file));
    m_streams.push_back(std::move(stream));
    fillAllFirst();
}

void InputSet::fillAllFirst() {
    // Filled first to last (taken from the back).
    for (std::size_t i = m_streams.size(); i > 0; --i)
        m_toFill.push_back(i - 1);
}

InputSet::~InputSet() = default;

TraceStatus InputSet::readFrom(std::size_t i, TraceRow& row) {
    Stream& stream = *m_streams[i];
    while (stream.current < stream.files.size()) {
        HitFile& file = *stream.files[stream.current];
        switch (file.next(row)) {
            case TraceStatus::Row:
                if (m_keyBySource)
                    row.event.key = stream.label;
                return TraceStatus::Row;
            case TraceStatus::BadRow:
                m_error = file.error();
                m_errorFile = stream.paths[stream.current];
                m_fatal = m_error.fatal;
                return TraceStatus::BadRow;
            case TraceStatus::End:
                ++stream.current;
                break;
        }
    }
    return TraceStatus::End;
}

TraceStatus InputSet::next(TraceRow& row) {
    if (m_fatal)
        return TraceStatus::End;
    if (m_streams.size() == 1)
        return readFrom(0, row);  // one source: its own order, nothing to merge
    while (!m_toFill.empty()) {
        auto& pending = m_streams[m_toFill.back()]->pending;
        if (!pending)
            pending.emplace();
        const TraceStatus status = readFrom(m_toFill.back(), *pending);
        if (status == TraceStatus::BadRow)
            return status;  // the stream stays to be filled: the next call reads on
        if (status == TraceStatus::End)
            pending.reset();
        m_toFill.pop_back();
    }
    std::optional<std::size_t> oldest;
    for (std::size_t i = 0; i < m_streams.size(); ++i) {
        const auto& pending = m_streams[i]->pending;
        if (pending && (!oldest || pending->event.time < m_streams[*oldest]->pending->event.time))
            oldest = i;
    }
    if (!oldest)
        return TraceStatus::End;
    row = std::move(*m_streams[*oldest]->pending);
    m_streams[*oldest]->pending.reset();
    m_toFill.push_back(*oldest);
    return TraceStatus::Row;
}

TraceProgress InputSet::progress() const {
    TraceProgress sum;
    for (const auto& stream : m_streams) {
        for (const auto& file : stream->files) {
            const TraceProgress& p = file->progress();
            sum.bytesRead += p.bytesRead;
            sum.lines += p.lines;
            sum.rows += p.rows;
            sum.badRows += p.badRows;
            sum.filtered += p.filtered;
        }
    }
    return sum;
}

std::uint64_t InputSet::fileBytesRead() const {
    std::uint64_t bytes = 0;
    for (const auto& stream : m_streams) {
        for (const auto& file : stream->files)
            bytes += file->fileBytesRead();
    }
    return bytes;
}

std::string InputSet::description() const {
    std::vector<std::string> formats;
    for (const auto& stream : m_streams) {
        for (const auto& file : stream->files) {
            std::string format = file->description();
            if (std::find(formats.begin(), formats.end(), format) == formats.end())
                formats.push_back(std::move(format));
        }
    }
    std::string text;
    for (const std::string& format : formats)
        text += (text.empty() ? "" : " + ") + format;
    return text;
}

bool InputSet::singleFile() const {
    return m_streams.size() == 1 && m_streams.front()->files.size() == 1;
}

bool InputSet::resumeAfter(std::uint64_t line, Timestamp head) {
    if (!singleFile() || !m_streams.front()->files.front()->resumeAfter(line, head))
        return false;
    return true;  // one source is read without a pending row
}

std::vector<InputSet::Truncation> InputSet::truncations() const {
    std::vector<Truncation> cuts;
    for (const auto& stream : m_streams) {
        for (std::size_t f = 0; f < stream->files.size(); ++f) {
            if (const auto line = stream->files[f]->truncatedAtLine())
                cuts.push_back({stream->paths[f], *line, stream->files[f]->progress().rows});
        }
    }
    return cuts;
}

}  // namespace hitcounter
