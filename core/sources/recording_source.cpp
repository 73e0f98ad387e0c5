#include "core/sources/recording_source.h"

namespace hitcounter {

RecordingSource::RecordingSource(std::unique_ptr<Source> inner, std::filesystem::path file,
                                 Clock& clock, TraceColumns columns)
    : m_inner(std::move(inner)), m_file(std::move(file)), m_clock(clock), m_columns(columns) {
    m_status.file = m_file;
}

RecordingSource::~RecordingSource() {
    stop();
}

void RecordingSource::start(BatchQueue& out) {
    stop();
    try {
        m_recorder = std::make_unique<TraceRecorder>(m_file, m_columns);
    } catch (const std::runtime_error& e) {
        throw SourceError(e.what());
    }
    m_recorder->flushIfDue(m_clock.time());  // the first call starts the one-second interval
    publish();
    m_inner->start(m_tee);
    m_running = true;
    m_worker = std::jthread([this, &out](std::stop_token stop) { run(stop, out); });
}

void RecordingSource::stop() {
    if (!m_worker.joinable()) {
        return;
    }
    m_inner->stop();  // after this, every batch it made is in m_tee
    m_worker.request_stop();
    m_worker.join();
    m_worker = std::jthread();
    m_recorder.reset();
}

bool RecordingSource::running() const {
    return m_running.load();
}

std::string RecordingSource::describe() const {
    return m_inner->describe() + ", recording to " + m_file.string();
}

RecordingStatus RecordingSource::recording() const {
    std::lock_guard lock(m_statusMutex);
    return m_status;
}

void RecordingSource::publish() {
    std::lock_guard lock(m_statusMutex);
    m_status.events = m_recorder->eventsWritten();
    m_status.hits = m_recorder->hitsWritten();
    m_status.bytesFlushed = m_recorder->bytesFlushed();
    m_status.finished = m_recorder->finished();
    m_status.error = m_recorder->error();
}

void RecordingSource::run(std::stop_token stop, BatchQueue& out) {
    while (!stop.stop_requested()) {
        const bool innerEnded = !m_inner->running();
        if (auto batch = m_tee.popFor(std::chrono::milliseconds(100))) {
            if (batch->kind == BatchKind::Hits) {  // not a seek's markers and rebuild
                m_recorder->write(*batch);
            }
            out.pushWait(std::move(*batch), stop);
        } else if (innerEnded) {
            break;  // it ended before this empty wait began: nothing more will come
        }
        m_recorder->flushIfDue(m_clock.time());
        publish();
    }
    // Stopping: what the inner source left queued is recorded and offered without waiting
    // (a consumer that is full or gone no longer gets it; the recording still has it).
    for (HitBatch& batch : m_tee.drain()) {
        if (batch.kind == BatchKind::Hits) {
            m_recorder->write(batch);
        }
        out.tryPush(std::move(batch));
    }
    try {
        m_recorder->finish();
    } catch (const std::runtime_error&) {
        // Reported through recording().error; FILE.partial stays.
    }
    publish();
    m_running = false;
}

}  // namespace hitcounter
