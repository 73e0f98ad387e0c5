#include "core/io/trace_recorder.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace hitcounter {

namespace {
std::string systemError() {
    return std::strerror(errno);
}

int openPartial(const std::filesystem::path& partial) {
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        throw std::runtime_error(partial.string() + ": cannot create the recording (" +
                                 systemError() + ")");
    }
    return fd;
}
}  // namespace

std::filesystem::path TraceRecorder::partialPath(const std::filesystem::path& file) {
    std::filesystem::path partial = file;
    partial += ".partial";
    return partial;
}

TraceRecorder::TraceRecorder(std::filesystem::path file, TraceColumns columns)
    : m_file(std::move(file)),
      m_partial(partialPath(m_file)),
      m_fd(openPartial(m_partial)),
      m_writer(m_buffer, columns) {
    flush();  // the header: even an empty partial recording is a valid trace
}

TraceRecorder::~TraceRecorder() {
    if (m_fd >= 0) {
        flush();
        ::close(m_fd);
    }
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

void TraceRecorder::flushIfDue(std::chrono::nanoseconds now) {
    if (m_lastFlush == std::chrono::nanoseconds::min()) {
        m_lastFlush = now;
    } else if (now - m_lastFlush >= kFlushInterval) {
        flush();
        m_lastFlush = now;
    }
}

void TraceRecorder::flush() {
    if (m_fd < 0 || !m_error.empty()) {
        return;
    }
    const std::string data = m_buffer.str();
    m_buffer.str({});
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(m_fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            setError("cannot write (" + systemError() + ")");
            return;
        }
        done += static_cast<std::size_t>(n);
    }
    m_bytesFlushed += done;
}

void TraceRecorder::finish() {
    if (m_finished) {
        return;
    }
    flush();
    if (m_error.empty() && ::fsync(m_fd) != 0) {
        setError("cannot sync to disk (" + systemError() + ")");
    }
    ::close(m_fd);
    m_fd = -1;
    if (!m_error.empty()) {
        throw std::runtime_error(m_error);
    }
    std::error_code renameError;
    std::filesystem::rename(m_partial, m_file, renameError);
    if (renameError) {
        setError("cannot rename " + m_partial.string() + " into place (" + renameError.message() +
                 ")");
        throw std::runtime_error(m_error);
    }
    // The rename itself must reach the disk, or a power cut could bring back the old name.
    const std::filesystem::path dir =
        m_file.has_parent_path() ? m_file.parent_path() : std::filesystem::path(".");
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    m_finished = true;
}

void TraceRecorder::setError(const std::string& what) {
    if (m_error.empty()) {
        m_error = m_partial.string() + ": " + what;
    }
}

}  // namespace hitcounter
