#include "core/sources/replay_source.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

#include "core/sources/batch_sender.h"

namespace hitcounter {

namespace {
constexpr std::array<std::string_view, 6> kStateNames = {"idle",  "loading", "playing",
                                                         "ended", "stopped", "failed"};
// Progress is published (and a cancel noticed) every this many reader calls.
constexpr std::uint64_t kLoadStep = 16384;

// One token that is stopped when either of two is: the caller's stop or a seek's interrupt.
class EitherStop {
public:
    EitherStop(std::stop_token a, std::stop_token b)
        : m_onA(a, Request{m_source}), m_onB(b, Request{m_source}) {}
    std::stop_token token() const { return m_source.get_token(); }

private:
    struct Request {
        std::stop_source& source;
        void operator()() const { source.request_stop(); }
    };
    std::stop_source m_source;
    std::stop_callback<Request> m_onA;
    std::stop_callback<Request> m_onB;
};

}  // namespace

std::string_view replayStateName(ReplayState state) {
    return kStateNames[static_cast<std::size_t>(state)];
}

// What the load pass leaves for playback.
struct ReplaySource::Loaded {
    Timestamp first = 0;
    Timestamp last = 0;
    std::uint64_t rows = 0;
};

// The playback loop's state; lives on the worker thread only.
class ReplaySource::Player {
public:
    Player(ReplaySource& source, const Loaded& loaded, std::stop_token stop)
        : m_source(source),
          m_loaded(loaded),
          m_stop(stop),
          m_sender(*source.m_out, source.m_counters),
          m_linesNumbered(source.m_files.size() == 1) {}

    void run() {
        while (!m_stop.stop_requested()) {
            if (m_source.m_seekGeneration.load() != m_generation) {
                applySeek();
                continue;
            }
            if (!m_lookahead && !readRow()) {
                if (!atEnd()) {
                    return;
                }
                continue;
            }
            const Timestamp t = m_lookahead->time;
            if (t > m_dueUntil) {
                m_dueUntil = m_source.m_clock.now();
                if (t > m_dueUntil) {
                    flush(false);
                    // In a gap the clock moves on without hits: every second it reaches goes
                    // out as a Clock marker, so the window slides as the clock does (as fast
                    // as possible, the clock leaps from hit to hit: no second to mark).
                    const bool leaps = m_source.m_clock.asFastAsPossible();
                    if (!leaps) {
                        markClock(m_dueUntil, false);
                    }
                    EitherStop wake(m_stop, m_interrupt);
                    m_source.m_clock.sleepUntil(atSecond(leaps ? t : std::min(t, m_dueUntil + 1)),
                                                wake.token());
                    m_dueUntil = m_source.m_clock.now();
                    continue;
                }
            }
            batchLookahead();
            if (m_batch.size() >= kBatchRows) {
                flush(false);
            }
        }
    }

private:
    // False at the end of the file.
    bool readRow() {
        TraceRow row;
        for (;;) {
            switch (m_cursor->next(row)) {
                case TraceStatus::Row:
                    row.event.time += m_loopShift;
                    m_lookahead = std::move(row.event);
                    m_lookaheadLine = m_linesNumbered ? row.line : 0;
                    return true;
                case TraceStatus::BadRow:
                    continue;  // counted by the load
                case TraceStatus::End:
                    return false;
            }
        }
    }

    // Moves the row read into the batch.
    void batchLookahead() {
        m_batch.push_back(std::move(*m_lookahead));
        m_lookahead.reset();
        m_batchLastLine = m_lookaheadLine;
        ++m_rowsBatched;
    }

    // Skips the rows of the first pass a checkpoint counted, without sending them: reads on to
    // their last line when the checkpoint knows it, else reads them row by row. False if
    // stopped, overtaken by a seek, or the file ends first (it changed).
    bool skipRows(const StreamPoint& point) {
        if (point.line > 0) {
            if (!m_cursor->resumeAfter(point.line, point.rowMax)) {
                return false;
            }
            m_rowsBatched = point.rows;
            return true;
        }
        while (m_rowsBatched < point.rows) {
            if (!readRow()) {
                return false;
            }
            m_lookahead.reset();
            if (++m_rowsBatched % kBatchRows == 0 &&
                (m_stop.stop_requested() || m_source.m_seekGeneration.load() != m_generation)) {
                return false;
            }
        }
        return true;
    }

    // Handles the end of the file; false when the worker should finish.
    bool atEnd() {
        flush(false);
        if (m_source.m_loop.load()) {
            m_loopShift += m_loaded.last - m_loaded.first + 1;
            {
                std::lock_guard lock(m_source.m_statusMutex);
                ++m_source.m_progress.loops;
            }
            m_cursor = m_source.openInput();
            return true;
        }
        m_source.setState(ReplayState::Ended);
        if (!m_source.m_options.holdAtEnd) {
            return false;
        }
        std::unique_lock lock(m_source.m_controlMutex);
        m_source.m_controlChanged.wait(lock, m_stop, [&] {
            return m_source.m_seekGeneration.load() != m_generation || m_source.m_loop.load();
        });
        if (m_source.m_seekGeneration.load() == m_generation && m_source.m_loop.load()) {
            lock.unlock();
            m_source.setState(ReplayState::Playing);
        }
        return true;
    }

    // Sends the batch tagged with the current epoch; false if a seek made it stale (it is then
    // discarded) or on stop.
    bool flush(bool mustArrive) {
        if (m_batch.empty()) {
            return true;
        }
        HitBatch batch = std::exchange(m_batch, {});
        if (m_source.m_seekGeneration.load() != m_generation) {
            return false;
        }
        batch.epoch = m_generation;
        batch.kind = m_rebuilding ? BatchKind::Rebuild : BatchKind::Hits;
        if (m_loopShift == 0) {  // the first pass: its rows are numbered (seek_checkpoints.h)
            batch.stream = m_source.m_stream;
            batch.firstRow = m_rowsBatched - batch.size();
            batch.lastLine = m_batchLastLine;
        }
        const bool wait = mustArrive || m_source.m_clock.asFastAsPossible();
        EitherStop wake(m_stop, m_interrupt);
        return m_sender.send(std::move(batch), wait, wake.token());
    }

    // Sends a Clock marker at `now`, once per second reached. `mustArrive` (a seek's target)
    // waits for room; else a full queue refuses it, like the rows at live speeds, and the next
    // second's marker (or this one again) follows. False if refused, stopped or overtaken.
    bool markClock(Timestamp now, bool mustArrive) {
        if (now <= m_clockMarked || m_source.m_seekGeneration.load() != m_generation) {
            return true;
        }
        HitBatch marker = HitBatch::clockMarker(m_generation, now);
        EitherStop wake(m_stop, m_interrupt);
        const bool sent = mustArrive ? m_source.m_out->pushWait(std::move(marker), wake.token())
                                     : m_source.m_out->tryPush(std::move(marker));
        if (sent) {
            m_clockMarked = now;
        }
        return sent;
    }

    // Starts a new epoch: its reset marker goes into the queue behind whatever the old one
    // left there, so the consumer drops nothing it should count and nobody waits for anybody.
    void applySeek() {
        std::optional<Timestamp> target;
        {
            std::lock_guard lock(m_source.m_controlMutex);
            m_generation = m_source.m_seekGeneration.load();
            target = m_source.m_seekTarget;
            m_interrupt = m_source.m_interrupt.get_token();
        }
        m_batch.clear();
        m_lookahead.reset();
        m_sender.resetNewest();
        m_clockMarked = std::numeric_limits<Timestamp>::min();
        m_loopShift = 0;
        m_dueUntil = std::numeric_limits<Timestamp>::min();
        m_cursor = m_source.openInput();
        m_rowsBatched = 0;
        HitBatch reset = HitBatch::resetMarker(m_generation);
        reset.stream = m_source.m_stream;
        if (target && m_source.m_checkpoints) {
            reset.resume = m_source.m_checkpoints->newestAtOrBefore(m_source.m_stream, *target);
        }
        const std::shared_ptr<const SeekCheckpoint> resume = reset.resume;
        {
            EitherStop wake(m_stop, m_interrupt);
            if (!m_source.m_out->pushWait(std::move(reset), wake.token())) {
                return;  // stopped, or a newer seek: it starts its own epoch
            }
        }
        m_source.setState(ReplayState::Playing);
        if (!target) {
            m_source.m_clock.seek(atSecond(m_loaded.first));
            return;
        }
        if (rebuild(*target, resume.get())) {
            std::lock_guard lock(m_source.m_statusMutex);
            m_source.m_progress.seeksApplied = m_generation;
            m_source.m_progress.seekTarget.reset();
        }
    }

    // Fast-forward: sends, in file order, every row that streaming delivers by `t` (until the
    // first row whose running maximum time passes t), so every view, all-time totals
    // included, equals an uninterrupted replay to t. From `resume` (the consumer restores it):
    // its rows are skipped unsent. False if stopped or overtaken by a seek.
    bool rebuild(Timestamp t, const SeekCheckpoint* resume) {
        {
            std::lock_guard lock(m_source.m_statusMutex);
            m_source.m_progress.seekTarget = t;
            m_source.m_progress.seekReached = m_loaded.first;
            m_source.m_progress.seekResumedAt.reset();
            if (resume != nullptr) {
                m_source.m_progress.seekResumedAt = resume->point().head;
            }
        }
        m_rebuilding = true;
        Timestamp head = std::numeric_limits<Timestamp>::min();
        if (resume != nullptr) {
            if (!skipRows(resume->point())) {
                return false;
            }
            head = resume->point().rowMax;
        }
        std::uint64_t calls = 0;
        bool done = true;
        while (readRow()) {
            const Timestamp rowHead = std::max(head, m_lookahead->time);
            if (rowHead > t) {
                break;  // the lookahead row is the first one after t
            }
            head = rowHead;
            batchLookahead();
            if (m_batch.size() >= kBatchRows && !flush(true)) {
                done = false;
                break;
            }
            if (++calls % kBatchRows == 0) {
                if (m_stop.stop_requested() || m_source.m_seekGeneration.load() != m_generation) {
                    done = false;
                    break;
                }
                std::lock_guard lock(m_source.m_statusMutex);
                m_source.m_progress.seekReached = head;
            }
        }
        done = done && flush(true);
        m_rebuilding = false;
        // The window at t, also when t falls in a gap; past the end the replay stands at it.
        done = done && markClock(std::min(t, m_loaded.last), true);
        if (done) {
            m_source.m_clock.seek(atSecond(t));
        }
        return done;
    }

    ReplaySource& m_source;
    const Loaded& m_loaded;
    std::stop_token m_stop;
    std::stop_token m_interrupt;
    BatchSender m_sender;
    std::uint64_t m_generation = std::numeric_limits<std::uint64_t>::max();
    std::unique_ptr<InputSet> m_cursor;
    std::optional<HitEvent> m_lookahead;  // read but not yet due
    std::uint64_t m_lookaheadLine = 0;    // its file line (TraceRow::line); 0: several files
    // One file: its lines name a row's place for checkpoints (seek_checkpoints.h); several: not.
    const bool m_linesNumbered;
    std::uint64_t m_batchLastLine = 0;  // the file line of the batch's last row
    HitBatch m_batch;
    bool m_rebuilding = false;        // m_batch holds a seek's fast-forward rows
    std::uint64_t m_rowsBatched = 0;  // rows of this pass put into batches (or skipped)
    Timestamp m_loopShift = 0;
    Timestamp m_clockMarked = std::numeric_limits<Timestamp>::min();  // the last Clock marker
    Timestamp m_dueUntil = std::numeric_limits<Timestamp>::min();     // the clock's now, cached
};

namespace {

std::string joinedPaths(const std::vector<std::filesystem::path>& files) {
    std::string joined;
    for (const auto& file : files) {
        joined += (joined.empty() ? "" : ", ") + file.string();
    }
    return joined;
}

}  // namespace

ReplaySource::ReplaySource(Clock& base, std::filesystem::path file, const ReplayOptions& options)
    : ReplaySource(base, std::vector<std::filesystem::path>{std::move(file)}, options) {}

ReplaySource::ReplaySource(Clock& base, std::vector<std::filesystem::path> files,
                           const ReplayOptions& options)
    : m_files(std::move(files)),
      m_name(joinedPaths(m_files)),
      m_options(options),
      m_clock(base, std::chrono::nanoseconds::zero(), options.speed),
      m_loop(options.loop),
      m_userPaused(options.startPaused) {
    m_clock.pause();  // until loaded
}

void ReplaySource::setCheckpoints(std::shared_ptr<const SeekCheckpoints> checkpoints,
                                  std::uint64_t stream) {
    m_checkpoints = std::move(checkpoints);
    m_stream = stream;
}

ReplaySource::~ReplaySource() {
    stop();
}

void ReplaySource::check() const {
    std::unique_ptr<InputSet> input;
    try {
        input = openInput();
    } catch (const std::exception& e) {
        throw SourceError(e.what());
    }
    // A trace CSV's header is read with its first row: a header without a timestamp column is
    // known before the load, as a file that cannot be opened is.
    TraceRow row;
    if (input->next(row) == TraceStatus::BadRow && input->error().fatal) {
        throw SourceError(input->errorFile() + ":" + std::to_string(input->error().line) + ": " +
                          input->error().message);
    }
}

void ReplaySource::start(BatchQueue& out) {
    stop();
    try {
        // Opening reads the first lines: a file that is neither a trace nor an access log, or
        // a key its format lacks, fails here with HitFileError's message.
        std::string format = openInput()->description();
        std::lock_guard lock(m_statusMutex);
        m_format = std::move(format);
    } catch (const std::exception& e) {
        throw SourceError(e.what());
    }
    m_out = &out;
    {
        std::lock_guard lock(m_controlMutex);
        m_loaded = false;
    }
    m_clock.pause();
    {
        std::lock_guard lock(m_statusMutex);
        m_progress = ReplayProgress{};
        m_progress.state = ReplayState::Loading;
    }
    for (auto* counter :
         {&m_counters.packets, &m_counters.lines, &m_counters.hits, &m_counters.badLines,
          &m_counters.ignoredLines, &m_counters.dropped, &m_counters.lateHits}) {
        counter->store(0);
    }
    m_running = true;
    m_worker = std::jthread([this](std::stop_token stop) { run(stop); });
}

void ReplaySource::stop() {
    if (!m_worker.joinable()) {
        return;
    }
    m_worker.request_stop();
    m_worker.join();
    m_worker = std::jthread();
    std::lock_guard lock(m_statusMutex);
    if (m_progress.state == ReplayState::Loading || m_progress.state == ReplayState::Playing ||
        m_progress.state == ReplayState::Ended) {
        m_progress.state = ReplayState::Stopped;
    }
}

bool ReplaySource::running() const {
    return m_running.load();
}

SourceStats ReplaySource::stats() const {
    return m_counters.snapshot();
}

std::string ReplaySource::describe() const {
    ReplayProgress p;
    std::string format;
    {
        std::lock_guard lock(m_statusMutex);
        p = m_progress;
        format = m_format;
    }
    // A replay the user paused is "paused", not the "playing" its state still says (the
    // clock stands; the state is the worker's).
    const bool pausedByUser =
        paused() && (p.state == ReplayState::Playing || p.state == ReplayState::Loading);
    std::ostringstream out;
    out << "replay " << m_name << " (" << format << ", "
        << (pausedByUser ? std::string_view("paused") : replayStateName(p.state)) << ", " << p.rows
        << " rows, ";
    if (m_clock.asFastAsPossible()) {
        out << "as fast as possible";
    } else {
        out << m_clock.speed() << 'x';
    }
    out << (loop() ? ", loop)" : ")");
    return out.str();
}

void ReplaySource::play() {
    std::lock_guard lock(m_controlMutex);
    m_userPaused = false;
    if (m_loaded) {
        m_clock.resume();
    }
}

void ReplaySource::pause() {
    std::lock_guard lock(m_controlMutex);
    m_userPaused = true;
    m_clock.pause();
}

bool ReplaySource::paused() const {
    std::lock_guard lock(m_controlMutex);
    return m_userPaused;
}

void ReplaySource::setSpeed(double speed) {
    m_clock.setSpeed(speed);
}
double ReplaySource::speed() const {
    return m_clock.speed();
}

void ReplaySource::setLoop(bool loop) {
    {
        std::lock_guard lock(m_controlMutex);
        m_loop = loop;
    }
    m_controlChanged.notify_all();
}

bool ReplaySource::loop() const {
    return m_loop.load();
}

void ReplaySource::seek(Timestamp t) {
    std::stop_source interrupted = [&] {
        std::lock_guard lock(m_controlMutex);
        m_seekTarget = t;
        ++m_seekGeneration;
        return std::exchange(m_interrupt, std::stop_source());
    }();
    // Wakes the worker if it waits for room in the queue, for a row's time or at the end; it
    // then starts the seek's epoch (applySeek).
    interrupted.request_stop();
    m_controlChanged.notify_all();
    m_clock.seek(atSecond(t));
}

std::uint64_t ReplaySource::epoch() const {
    return m_seekGeneration.load();
}

ReplayProgress ReplaySource::progress() const {
    std::lock_guard lock(m_statusMutex);
    return m_progress;
}

void ReplaySource::setState(ReplayState state) {
    std::lock_guard lock(m_statusMutex);
    m_progress.state = state;
}

void ReplaySource::fail(std::string message) {
    std::lock_guard lock(m_statusMutex);
    m_progress.state = ReplayState::Failed;
    m_progress.error = std::move(message);
}

void ReplaySource::run(std::stop_token stop) {
    try {
        Loaded loaded;
        if (load(stop, loaded)) {
            {
                std::lock_guard lock(m_controlMutex);
                m_loaded = true;
                if (!m_userPaused) {
                    m_clock.resume();
                }
            }
            if (loaded.rows == 0) {
                setState(ReplayState::Ended);
            } else {
                Player(*this, loaded, stop).run();
            }
        }
    } catch (const std::exception& e) {
        fail(m_name + ": " + e.what());
    }
    {
        std::lock_guard lock(m_controlMutex);
        m_running = false;
    }
    m_controlChanged.notify_all();
}

std::unique_ptr<InputSet> ReplaySource::openInput() const {
    std::vector<std::string> paths;
    for (const auto& file : m_files) {
        paths.push_back(file.string());
    }
    return std::make_unique<InputSet>(groupInputSources(paths), m_options.file,
                                      m_options.keyBySource);
}

bool ReplaySource::load(std::stop_token stop, Loaded& loaded) {
    std::unique_ptr<InputSet> input;
    try {
        input = openInput();
    } catch (const std::exception& e) {
        fail(e.what());
        return false;
    }
    std::uint64_t bytesTotal = 0;
    for (const auto& file : m_files) {
        std::error_code sizeError;
        const auto size = std::filesystem::file_size(file, sizeError);
        bytesTotal += sizeError ? 0 : size;
    }
    {
        std::lock_guard lock(m_statusMutex);
        m_progress.bytesTotal = bytesTotal;
    }
    InputSet& reader = *input;
    TraceRow row;
    Timestamp head = std::numeric_limits<Timestamp>::min();
    Timestamp first = std::numeric_limits<Timestamp>::max();
    std::string firstBadRow;
    const auto publish = [&] {
        const TraceProgress& p = reader.progress();
        m_counters.packets = p.rows;
        m_counters.lines = p.lines;
        m_counters.badLines = p.badRows;
        std::lock_guard lock(m_statusMutex);
        m_progress.bytesRead = reader.fileBytesRead();
        m_progress.rows = p.rows;
        m_progress.badRows = p.badRows;
        m_progress.filtered = p.filtered;
        if (m_progress.firstBadRow.empty()) {
            m_progress.firstBadRow = firstBadRow;
        }
    };
    for (std::uint64_t calls = 0;; ++calls) {
        if (calls % kLoadStep == 0) {
            publish();
            if (stop.stop_requested()) {
                return false;
            }
        }
        const TraceStatus status = reader.next(row);
        if (status == TraceStatus::End) {
            break;
        }
        if (status == TraceStatus::BadRow) {
            const TraceError& error = reader.error();
            const std::string where =
                reader.errorFile() + ":" + std::to_string(error.line) + ": " + error.message;
            if (error.fatal) {
                publish();
                fail(where);
                return false;
            }
            if (firstBadRow.empty()) {
                firstBadRow = where;
            }
            const auto now = std::chrono::system_clock::now().time_since_epoch();
            m_badLines.add({std::chrono::duration_cast<std::chrono::seconds>(now).count(),
                            "replay " + m_name,
                            std::filesystem::path(reader.errorFile()).filename().string() + ":" +
                                std::to_string(error.line),
                            error.message,
                            {}});
            continue;
        }
        head = std::max(head, row.event.time);
        first = std::min(first, row.event.time);
        ++loaded.rows;
    }
    publish();
    if (const auto cuts = reader.truncations(); !cuts.empty()) {
        std::lock_guard lock(m_statusMutex);
        m_progress.truncatedAtLine = cuts.front().line;
        m_progress.truncatedFile = cuts.front().file;
        m_progress.truncatedFileRows = cuts.front().rows;
    }
    if (loaded.rows > 0) {
        loaded.first = first;
        loaded.last = head;
        std::lock_guard lock(m_statusMutex);
        m_progress.first = loaded.first;
        m_progress.last = loaded.last;
    }
    return true;
}

}  // namespace hitcounter
