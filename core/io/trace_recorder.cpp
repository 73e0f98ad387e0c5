#include "core/io/trace_recorder.h"

#include <algorithm>
#include <stdexcept>

#include "core/base/error.h"

namespace hitcounter {

std::filesystem::path TraceRecorder::partialPath(const std::filesystem::path& file) {
    return OutputFile::partialPath(file);
}

TraceRecorder::TraceRecorder(std::filesystem::path file, TraceColumns columns)
    : m_out(std::move(file)), m_writer(m_buffer, columns) {
    flush();  // the header: even an empty partial recording is a valid trace
}

TraceRecorder::~TraceRecorder() {
    flush();
}

void TraceRecorder::write(const HitBatch& batch) {
    if (m_finished || !m_error.empty()) {
        return;
    }
    for (const HitEvent& e : batch) {
        try {
            m_writer.write(e);
            ++m_events;
            m_hits += e.count;
        } catch (const std::invalid_argument&) {
            ++m_skipped;
        }
    }
    if (m_buffer.tellp() >= static_cast<std::streamoff>(kFlushBytes)) {
        flush();
    }
}

void TraceRecorder::writeComment(std::string_view text) {
    if (!m_finished && m_error.empty()) {
        m_writer.writeComment(text);
    }
}

std::uint64_t TraceRecorder::bytesWritten() const {
    return m_bytesFlushed +
           static_cast<std::uint64_t>(std::max<std::streamoff>(0, m_buffer.tellp()));
}

void TraceRecorder::flushIfDue(std::chrono::nanoseconds now) {
    if (m_lastFlush == std::chrono::nanoseconds::min()) {
        m_lastFlush = now;
    } else if (now - m_lastFlush >= kFlushInterval) {
        flush();
        m_lastFlush = now;
    }
}

void TraceRecorder::flush() {
    if (m_finished || !m_error.empty()) {
        return;
    }
    const std::string data = m_buffer.str();
    m_buffer.str({});
    if (!m_out.write(data)) {
        setError(m_out.error());
        return;
    }
    m_bytesFlushed += data.size();
}

void TraceRecorder::finish() {
    if (m_finished) {
        return;
    }
    flush();
    if (!m_error.empty()) {
        throw Error(m_error);
    }
    try {
        m_out.commit();
    } catch (const std::runtime_error& e) {
        setError(e.what());
        throw;
    }
    m_finished = true;
}

void TraceRecorder::discard() {
    m_buffer.str({});
    m_out.discard();
    m_finished = true;
}

void TraceRecorder::setError(const std::string& what) {
    if (m_error.empty()) {
        m_error = what;
    }
}

}  // namespace hitcounter
