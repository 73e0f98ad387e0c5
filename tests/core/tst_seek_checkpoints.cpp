// Seek checkpoints: a replay's seeks restore the counting thread's copies of its state and
// fast-forward only the rows after them; what every frame then shows (every policy, the
// totals, the history, the items with all-time counts and uniques) equals an Engine fed the
// rows from the start, on burst, gappy (late rows, gaps longer than the window and the
// history), looped and multi-file traces (two servers, one of them a rotation set), forward,
// backward and into gaps.
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <thread>

#include "core/engine/engine.h"
#include "core/engine/engine_worker.h"
#include "core/sources/replay_source.h"
#include "core/time/manual_clock.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

HitBatch burstRows() {
    HitBatch rows;
    for (Timestamp t = 1; t <= 2000; ++t) {
        const int hits = (t >= 700 && t < 760) ? 120 : 40;
        for (int i = 0; i < hits; ++i) {
            rows.push_back(HitEvent{t, "/p" + std::to_string((i * 7 + t) % 13),
                                    "v" + std::to_string((i * 31 + t) % 97), Count(1 + i % 2)});
        }
    }
    return rows;
}

HitBatch gappyRows() {
    HitBatch rows;
    for (Timestamp start : {Timestamp{5}, Timestamp{1000}, Timestamp{6000}, Timestamp{6500}}) {
        for (Timestamp t = start; t < start + 200; ++t) {
            for (int i = 0; i < 10 * (int(t % 5) + 1); ++i) {
                rows.push_back(
                    HitEvent{t, "k" + std::to_string(i % 4), "u" + std::to_string(t % 11), 1});
            }
            if (t % 9 == 0) {
                rows.push_back(HitEvent{t - 4, "late", "u0", 3});  // older than the head
            }
        }
    }
    return rows;
}

std::string writeTrace(const QTemporaryDir& dir, const char* name, const HitBatch& rows) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream out(path);
    out << "timestamp,key,visitor,count\n";
    for (const HitEvent& e : rows) {
        out << e.time << ',' << e.key << ',' << e.visitor << ',' << e.count << '\n';
    }
    return path;
}

Timestamp lastTime(const HitBatch& rows) {
    Timestamp last = std::numeric_limits<Timestamp>::min();
    for (const HitEvent& e : rows) {
        last = std::max(last, e.time);
    }
    return last;
}

// The rows of burstRows() from a client address, with a time jump that the next row confirms
// near the end (a log resuming after a quiet week: the row after the jump is read ahead).
HitBatch loggedRows() {
    HitBatch rows = burstRows();
    for (HitEvent& e : rows) {
        e.visitor = "10.0.0." + e.visitor.substr(1);
        e.count = 1;
    }
    const Timestamp resumed = lastTime(rows) + 700'000;
    for (Timestamp t = resumed; t < resumed + 400; ++t) {
        rows.push_back(HitEvent{t, "/after", "10.0.1." + std::to_string(t % 7), 1});
    }
    return rows;
}

// `rows` as a common log (UTC), with what a real log also holds between them: blank lines,
// lines that are no log line, and rows dated ten days ahead that nothing confirms (bad rows,
// not counted: time_jump_check.h).
std::string writeLog(const QTemporaryDir& dir, const char* name, const HitBatch& rows) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream out(path);
    const auto line = [&](Timestamp t, const std::string& key, const std::string& client) {
        const std::time_t time = static_cast<std::time_t>(t);
        std::tm utc{};
        gmtime_r(&time, &utc);
        char when[64];
        std::strftime(when, sizeof when, "%d/%b/%Y:%H:%M:%S +0000", &utc);
        out << client << " - - [" << when << "] \"GET " << key << " HTTP/1.1\" 200 512\n";
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        line(rows[i].time, rows[i].key, rows[i].visitor);
        if (i % 97 == 0) {
            out << "not a log line\n";
        }
        if (i % 50 == 0) {
            out << "\n";
        }
        if (i % 4001 == 0) {
            line(rows[i].time + 864'000, "/ahead", "10.9.9.9");
        }
    }
    return path;
}

// Two servers' traces of burstRows(): server a has two rows in three, rotated at its middle
// into a.csv.1 (older) and a.csv; server b the third row. Their names, in the order given to
// the replay; `merged` gets the rows in the order the replay sends them (input_set.h: by
// time, ties to the source named first, a: both are in time order, so that is a stable sort
// of a's rows and then b's).
std::vector<std::filesystem::path> writeServers(const QTemporaryDir& dir, HitBatch& merged) {
    HitBatch a, b;
    const HitBatch rows = burstRows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        (i % 3 == 0 ? b : a).push_back(rows[i]);
    }
    const auto half = static_cast<std::ptrdiff_t>(a.size() / 2);
    const std::string live = writeTrace(dir, "a.csv", HitBatch(a.begin() + half, a.end()));
    writeTrace(dir, "a.csv.1", HitBatch(a.begin(), a.begin() + half));
    const std::string other = writeTrace(dir, "b.csv", b);
    merged = a;
    merged.insert(merged.end(), b.begin(), b.end());
    std::stable_sort(merged.begin(), merged.end(),
                     [](const HitEvent& x, const HitEvent& y) { return x.time < y.time; });
    return {live, other, dir.filePath("a.csv.1").toStdString()};
}

// An uninterrupted replay to t: every row before the first whose running maximum passes t.
std::unique_ptr<Engine> replayedTo(const HitBatch& rows, Timestamp t) {
    auto engine = std::make_unique<Engine>();
    Timestamp head = std::numeric_limits<Timestamp>::min();
    HitBatch prefix;
    for (const HitEvent& e : rows) {
        head = std::max(head, e.time);
        if (head > t) {
            break;
        }
        prefix.push_back(e);
    }
    engine->ingest(prefix);
    if (!engine->empty()) {
        engine->advanceTo(std::min(t, lastTime(rows)));
    }
    return engine;
}

// The idle frame of the replay's current epoch, once its seek has been applied.
std::shared_ptr<const EngineFrame> settledFrame(ReplaySource& replay, EngineWorker& worker) {
    const std::uint64_t epoch = replay.epoch();
    for (int i = 0; i < 60000; ++i) {  // a 60 s deadline
        if (replay.progress().seeksApplied >= epoch) {
            const std::uint64_t ticket = worker.requestFrame();
            std::shared_ptr<const EngineFrame> frame;
            for (int j = 0; j < 60000 && !(frame = worker.takeFrame()); ++j) {
                std::this_thread::sleep_for(1ms);
            }
            if (frame && frame->ticket >= ticket && frame->idle && frame->streamEpoch == epoch) {
                return frame;
            }
        }
        std::this_thread::sleep_for(1ms);
    }
    return nullptr;
}

void compare(const EngineFrame& frame, Engine& expected) {
    const EngineSnapshot want = expected.snapshot();
    const EngineSnapshot& got = frame.snapshot;
    QCOMPARE(got.empty, want.empty);
    QCOMPARE(got.head, want.head);
    QCOMPARE(got.totalHits, want.totalHits);
    QCOMPARE(got.lateHits, want.lateHits);
    QCOMPARE(got.windowCount, want.windowCount);
    QCOMPARE(got.policies.size(), want.policies.size());
    for (std::size_t i = 0; i < want.policies.size(); ++i) {
        QCOMPARE(got.policies[i].count, want.policies[i].count);
    }
    // The frame carries the records that changed since the frame before it (all of them
    // after a rebuild): each equals the replay's record of its second.
    const auto history = expected.historyFrom(std::numeric_limits<Timestamp>::min());
    for (const SecondRecord& record : frame.history) {
        const auto same = std::find_if(history.begin(), history.end(),
                                       [&](const auto& r) { return r.second == record.second; });
        QVERIFY(same != history.end());
        QCOMPARE(record.hits, same->hits);
        QVERIFY(record.counts == same->counts);
    }
    const auto top = expected.keyed().keys().top(EngineWorker::kTopKeys, want.head);
    QCOMPARE(frame.top.size(), top.size());
    for (std::size_t i = 0; i < top.size(); ++i) {
        QCOMPARE(frame.top[i].key, top[i].key);
        QCOMPARE(frame.top[i].window, top[i].count);
        QCOMPARE(frame.top[i].allTime, expected.keyed().keys().allTime(top[i].key));
        QCOMPARE(frame.top[i].uniques, expected.keyed().keys().uniques(top[i].key, want.head));
    }
}

}  // namespace

class TestSeekCheckpoints : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seeksFromCheckpointsEqualAReplayFromTheStart_data() {
        QTest::addColumn<int>("trace");
        QTest::addColumn<bool>("loop");
        QTest::newRow("burst") << 0 << false;
        QTest::newRow("gappy") << 1 << false;
        QTest::newRow("burst, looping") << 0 << true;
        QTest::newRow("access log, bad lines, time jumps") << 2 << false;
        QTest::newRow("several files: a rotation set and another server") << 3 << false;
    }
    void seeksFromCheckpointsEqualAReplayFromTheStart() {
        QFETCH(int, trace);
        QFETCH(bool, loop);
        HitBatch rows = trace == 0 ? burstRows() : trace == 1 ? gappyRows() : loggedRows();
        QTemporaryDir dir;
        std::vector<std::filesystem::path> files;
        if (trace == 3) {
            files = writeServers(dir, rows);
        } else {
            files = {trace == 2 ? writeLog(dir, "access.log", rows)
                                : writeTrace(dir, "t.csv", rows)};
        }
        ManualClock base(0s);
        BatchQueue queue(256);
        EngineWorker worker(queue);
        worker.start();
        ReplaySource replay(base, files, {.loop = loop, .startPaused = true});
        replay.setCheckpoints(worker.checkpoints(), 1);
        replay.start(queue);

        const Timestamp last = lastTime(rows);
        // The first seek (to the end) has nothing to start from and leaves checkpoints.
        replay.seek(last);
        auto frame = settledFrame(replay, worker);
        QVERIFY(frame);
        QVERIFY(!replay.progress().seekResumedAt);
        compare(*frame, *replayedTo(rows, last));
        QVERIFY(worker.checkpoints()->stats().checkpoints >= 5);

        const Timestamp first = rows.front().time;
        int resumed = 0;
        for (Timestamp t : {last / 2, first + 250, last - 1, first + 7, last / 3 + 1, last + 50,
                            Timestamp{6300}, Timestamp{1150}}) {
            if (loop && t > last) {
                continue;  // past the end a looping replay is in its next pass
            }
            replay.seek(t);
            frame = settledFrame(replay, worker);
            QVERIFY2(frame, std::to_string(t).c_str());
            const auto from = replay.progress().seekResumedAt;
            if (from) {
                QVERIFY(*from <= t);
                ++resumed;
            }
            compare(*frame, *replayedTo(rows, t));
            QVERIFY2(!QTest::currentTestFailed(), std::to_string(t).c_str());
        }
        QVERIFY(resumed >= 5);  // the checkpoints were used, not only the start
        replay.stop();
        worker.stop();
    }

    // The budget follows the file: a tenth of it, from 64 MiB up to 256 MiB.
    void theBudgetIsATenthOfTheFileWithinBounds() {
        QCOMPARE(CheckpointStore::budgetForFile(0), CheckpointStore::kDefaultBudgetBytes);
        QCOMPARE(CheckpointStore::budgetForFile(240'000'000), CheckpointStore::kDefaultBudgetBytes);
        QCOMPARE(CheckpointStore::budgetForFile(2'147'483'780), std::size_t{214'748'378});
        QCOMPARE(CheckpointStore::budgetForFile(std::uintmax_t{1} << 40),
                 CheckpointStore::kMaxBudgetBytes);
    }

    // New engine options make the checkpoints invalid: the next seek starts from the start.
    void newOptionsForgetTheCheckpoints() {
        const HitBatch rows = burstRows();
        QTemporaryDir dir;
        const std::string path = writeTrace(dir, "t.csv", rows);
        ManualClock base(0s);
        BatchQueue queue(256);
        EngineWorker worker(queue);
        worker.start();
        ReplaySource replay(base, path, {.startPaused = true});
        replay.setCheckpoints(worker.checkpoints(), 1);
        replay.start(queue);
        replay.seek(lastTime(rows));
        QVERIFY(settledFrame(replay, worker));
        QVERIFY(worker.checkpoints()->stats().checkpoints > 0);

        EngineOptions options;
        options.window = 120s;
        worker.setOptions(options);
        QCOMPARE(worker.checkpoints()->stats().checkpoints, std::size_t{0});
        replay.seek(1500);
        const auto frame = settledFrame(replay, worker);
        QVERIFY(frame);
        QVERIFY(!replay.progress().seekResumedAt);
        QCOMPARE(frame->snapshot.windowSeconds, std::int64_t{120});
        replay.seek(1900);
        QVERIFY(settledFrame(replay, worker));
        QVERIFY(replay.progress().seekResumedAt);  // counted with the new window, from 1500
        auto expected = std::make_unique<Engine>(options);
        Timestamp head = std::numeric_limits<Timestamp>::min();
        HitBatch prefix;
        for (const HitEvent& e : rows) {
            head = std::max(head, e.time);
            if (head > 1900) {
                break;
            }
            prefix.push_back(e);
        }
        expected->ingest(prefix);
        const auto again = settledFrame(replay, worker);
        QVERIFY(again);
        QCOMPARE(again->snapshot.windowCount, expected->snapshot().windowCount);
        QCOMPARE(again->snapshot.totalHits, expected->snapshot().totalHits);
        replay.stop();
        worker.stop();
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestSeekCheckpoints)
#include "tst_seek_checkpoints.moc"
