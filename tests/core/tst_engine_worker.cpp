// EngineWorker: the counting thread. Frames are values handed over whole while batches keep
// arriving from other threads (run under TSan: the handoff must be race-free), reset markers
// and stale epochs, options applied at a marker, the recording tap.
#include <QTemporaryDir>
#include <QTest>
#include <deque>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "core/engine/engine_worker.h"
#include "core/engine/history_delta.h"
#include "core/time/manual_clock.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

HitBatch batchOf(Timestamp t, Count n, std::uint64_t epoch = 0, BatchKind kind = BatchKind::Hits) {
    HitBatch batch;
    for (Count i = 0; i < n; ++i) {
        batch.push_back(HitEvent{t, "k" + std::to_string(i % 3), "v" + std::to_string(i), 1});
    }
    batch.epoch = epoch;
    batch.kind = kind;
    return batch;
}

// The history a view holds, kept from the frames' changes as MainWindow does.
using HistoryMirror = std::map<Timestamp, SecondRecord>;

void apply(const EngineFrame& frame, HistoryMirror& history) {
    if (frame.rebuild) {
        history.clear();
    }
    for (const SecondRecord& record : frame.history) {
        history[record.second] = record;
    }
}

// Takes frames until one answers a request made now and was built with the queue empty.
std::shared_ptr<const EngineFrame> settledFrame(EngineWorker& worker,
                                                HistoryMirror* history = nullptr) {
    const std::uint64_t ticket = worker.requestFrame();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        if (auto frame = worker.takeFrame()) {
            if (history != nullptr) {
                apply(*frame, *history);
            }
            if (frame->ticket >= ticket && frame->idle) {
                return frame;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return nullptr;
}

}  // namespace

class TestEngineWorker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The history delta (core/engine/history_delta.h), both sides, against a producer that
    // appends seconds, rewrites older ones (late hits) and restarts (a seek), and whose frames
    // are often replaced before they are taken: after every frame taken, the mirror equals the
    // producer's newest `keep` records.
    void theHistoryMirrorFollowsEveryDelta() {
        struct Record {
            Timestamp second = 0;
            int value = 0;
            bool operator==(const Record&) const = default;
        };
        struct Frame {
            bool rebuild = false;
            std::vector<Record> history;
        };
        constexpr Timestamp kClean = std::numeric_limits<Timestamp>::max();
        std::mt19937_64 random(7);
        constexpr std::size_t kKeep = 20;
        std::deque<Record> truth;  // the producer's history, contiguous seconds
        bool restarted = false;    // since the last frame built
        Timestamp dirtyFrom = kClean;
        std::optional<Frame> untaken;
        std::deque<Record> mirror;
        int taken = 0;
        for (int step = 0; step < 4000; ++step) {
            const auto roll = random() % 100;
            if (truth.empty() || roll < 3) {  // a restart at any second
                truth.assign(1, Record{Timestamp(random() % 100000), 1});
                restarted = true;
            } else if (roll < 30) {  // an older second changes
                const std::size_t i = truth.size() - 1 - random() % truth.size();
                ++truth[i].value;
                dirtyFrom = std::min(dirtyFrom, truth[i].second);
            }
            for (auto n = random() % 4; n > 0; --n) {  // new seconds
                truth.push_back(Record{truth.back().second + 1, int(random() % 9)});
                dirtyFrom = std::min(dirtyFrom, truth.back().second);
            }
            while (truth.size() > kKeep) {
                truth.pop_front();
            }
            // Build a frame; the one not taken yet is replaced by it.
            bool rebuild = restarted;
            Timestamp from = dirtyFrom;
            if (untaken) {
                includeUntaken(rebuild, from, untaken->rebuild, untaken->history);
            }
            untaken = Frame{rebuild, historyDeltaFrom(truth, from, rebuild)};
            restarted = false;
            dirtyFrom = kClean;
            if (random() % 100 < 40) {
                continue;  // not taken: the next frame must carry its changes too
            }
            applyHistoryDelta(mirror, untaken->history, untaken->rebuild, kKeep);
            untaken.reset();
            ++taken;
            QVERIFY2(std::equal(mirror.begin(), mirror.end(), truth.begin(), truth.end()),
                     qPrintable(QString("step %1").arg(step)));
        }
        QVERIFY(taken > 1000);
    }

    void framesCarryEveryHitPushedFromOtherThreads() {
        BatchQueue queue(64);
        EngineWorker worker(queue);
        worker.start();
        constexpr int kProducers = 2;
        constexpr Count kBatches = 300;
        std::vector<std::jthread> producers;
        for (int p = 0; p < kProducers; ++p) {
            producers.emplace_back([&queue] {
                for (Count b = 0; b < kBatches; ++b) {
                    queue.pushWait(batchOf(1000 + Timestamp(b / 10), 5), {});
                }
            });
        }
        // Meanwhile the GUI side takes frames: each is a consistent value of its own.
        Count lastSeen = 0;
        while (lastSeen < kProducers * kBatches * 5) {
            if (auto frame = worker.takeFrame()) {
                QVERIFY(frame->hitsIngested >= lastSeen);
                lastSeen = frame->hitsIngested;
                QCOMPARE(frame->snapshot.totalHits, frame->hitsIngested);
            }
            std::this_thread::yield();
        }
        producers.clear();
        const auto frame = settledFrame(worker);
        QVERIFY(frame != nullptr);
        QCOMPARE(frame->snapshot.totalHits, Count{kProducers * kBatches * 5});
        QCOMPARE(frame->snapshot.windowCount, Count{kProducers * kBatches * 5});
        QCOMPARE(frame->top.size(), std::size_t{3});
        QCOMPARE(frame->top.front().key, std::string("k0"));  // i = 0 and 3 of every batch
        QCOMPARE(frame->top.front().allTime, Count{kProducers * kBatches * 2});
    }

    void resetMarkerRestartsEveryViewAndStaleEpochsAreDropped() {
        BatchQueue queue;
        EngineWorker worker(queue);
        worker.start();
        HistoryMirror history;
        queue.tryPush(batchOf(100, 7));
        QCOMPARE(settledFrame(worker, &history)->snapshot.totalHits, Count{7});
        queue.tryPush(batchOf(200, 1));
        QCOMPARE(settledFrame(worker, &history)->snapshot.head, Timestamp{200});
        QCOMPARE(history.size(), std::size_t{101});
        queue.tryPush(HitBatch::resetMarker(4));
        queue.tryPush(batchOf(101, 9));    // epoch 0: from before the seek, dropped
        queue.tryPush(batchOf(50, 2, 4));  // the new epoch
        const auto frame = settledFrame(worker, &history);
        QCOMPARE(frame->streamEpoch, std::uint64_t{4});
        QCOMPARE(frame->snapshot.totalHits, Count{2});
        QCOMPARE(frame->snapshot.head, Timestamp{50});
        QCOMPARE(frame->staleBatches, std::uint64_t{1});
        QCOMPARE(history.size(), std::size_t{1});  // the views restarted with the engine
        QCOMPARE(history.begin()->second.hits, Count{2});
        QCOMPARE(frame->top.front().allTime, Count{1});
    }

    // A live source's hits at or before its clock minus W are too late (issue 23 item 7: a
    // followed log years off the clock counted them in the window, then let them slide out
    // with "too late 0"): in the total and the too-late count, never in the window or items.
    void liveHitsOlderThanTheClocksWindowAreTooLate() {
        constexpr Timestamp kNow = 2'000'000'000;  // 2033
        ManualClock clock{std::chrono::seconds(kNow)};
        BatchQueue queue;
        EngineWorker worker(queue);
        worker.setLiveClock(&clock);
        worker.start();
        queue.pushWait(batchOf(1'240'000'000, 7), {});  // 2009: years behind
        queue.pushWait(batchOf(kNow - 300, 2), {});     // just outside (now - W, now]
        auto frame = settledFrame(worker);
        QVERIFY(frame);
        QCOMPARE(frame->snapshot.totalHits, Count{9});
        QCOMPARE(frame->snapshot.droppedLate, Count{9});
        QCOMPARE(frame->snapshot.windowCount, Count{0});
        QVERIFY(frame->top.empty());
        queue.pushWait(batchOf(kNow - 299, 3), {});  // inside, at its oldest second
        queue.pushWait(batchOf(kNow, 4), {});
        frame = settledFrame(worker);
        QVERIFY(frame);
        QCOMPARE(frame->snapshot.totalHits, Count{16});
        QCOMPARE(frame->snapshot.windowCount, Count{7});
        QCOMPARE(frame->snapshot.droppedLate, Count{9});
        QCOMPARE(frame->snapshot.lateHits, Count{0});
        worker.stop();
    }

    void newOptionsApplyAtTheNextMarker() {
        BatchQueue queue;
        EngineWorker worker(queue);
        worker.start();
        queue.tryPush(batchOf(100, 3));
        EngineOptions options = worker.options();
        options.window = std::chrono::seconds(60);
        worker.setOptions(options);
        QCOMPARE(settledFrame(worker)->snapshot.windowSeconds, std::int64_t{300});
        queue.tryPush(HitBatch::resetMarker(0));
        queue.tryPush(batchOf(100, 3));
        const auto frame = settledFrame(worker);
        QCOMPARE(frame->snapshot.windowSeconds, std::int64_t{60});
        QCOMPARE(frame->snapshot.totalHits, Count{3});
    }

    void framesCarryFurtherKeysAndFilterTheTopKeys() {
        BatchQueue queue;
        EngineWorker worker(queue);
        worker.start();
        HitBatch batch;
        for (int k = 0; k < 12; ++k) {
            for (int i = 0; i <= k; ++i) {
                batch.push_back(HitEvent{100, "/k" + std::to_string(k), "v", 1});
            }
        }
        batch.push_back(HitEvent{100, "/Rare", "v", 1});
        batch.push_back(HitEvent{101, "/rare", "v", 1});
        queue.tryPush(std::move(batch));
        worker.setKeyView("/k11", std::chrono::seconds(300), {"/k3", "/Rare", "/k11"});
        worker.setKeyFilter("RARE");
        std::shared_ptr<const EngineFrame> frame;
        for (int i = 0; i < 100 && (!frame || frame->moreKeySeries.empty()); ++i) {
            frame = settledFrame(worker);
        }
        QVERIFY(frame);
        // Only the keys containing "rare" (any case), most hits first, ties by key.
        QCOMPARE(frame->top.size(), std::size_t{2});
        QCOMPARE(frame->top[0].key, std::string("/Rare"));
        QCOMPARE(frame->top[1].key, std::string("/rare"));
        // The selected key's series and the further ones (itself not repeated), same seconds.
        QCOMPARE(frame->selectedKey, std::string("/k11"));
        QCOMPARE(frame->keySeries.back(), Count{12});
        QCOMPARE(frame->moreKeySeries.size(), std::size_t{2});
        QCOMPARE(frame->moreKeySeries[0].key, std::string("/k3"));
        QCOMPARE(frame->moreKeySeries[0].values.size(), frame->keySeries.size());
        QCOMPARE(frame->moreKeySeries[0].values.back(), Count{4});
        QCOMPARE(frame->moreKeySeries[1].values.back(), Count{1});
        // No filter: the plain top 10.
        worker.setKeyFilter("");
        for (int i = 0; i < 100 && frame->top.size() != 10; ++i) {
            frame = settledFrame(worker);
        }
        QCOMPARE(frame->top.size(), std::size_t{10});
        QCOMPARE(frame->top[0].key, std::string("/k11"));
    }

    // #30 item 19: the GUI's items had no cap on distinct keys (7.1 M keys: 1.5 GB). With the
    // GUI's default options, a new key on every hit stays under the key memory cap; the frame
    // says how many keys were folded, and the all-keys count stays exact.
    void distinctKeysBeyondTheKeyMemoryCapAreFoldedAndSaid() {
        BatchQueue queue;
        EngineOptions options;
        options.keyMemoryCap = std::size_t{1} << 20;  // ~6,000 keys, to keep the test small
        EngineWorker worker(queue, options);
        worker.start();
        const int keys = 30000;
        for (int b = 0; b < keys / 1000; ++b) {
            HitBatch batch;
            for (int i = 0; i < 1000; ++i)
                batch.push_back(HitEvent{100 + b, "/k" + std::to_string(b * 1000 + i), "", 1});
            QVERIFY(queue.tryPush(std::move(batch)));
        }
        std::shared_ptr<const EngineFrame> frame;
        for (int i = 0; i < 100 && (!frame || frame->snapshot.totalHits < Count(keys)); ++i)
            frame = settledFrame(worker);
        QVERIFY(frame);
        QCOMPARE(frame->snapshot.totalHits, Count(keys));
        QCOMPARE(frame->allKeysWindow, Count(keys));  // every hit, folded keys' too
        QVERIFY2(frame->foldedKeys > Count(keys / 2),
                 qPrintable(QString::number(frame->foldedKeys)));
        QVERIFY(frame->foldedKeys < Count(keys));
        QCOMPARE(frame->foldedHits, frame->foldedKeys);  // one hit each
        QCOMPARE(frame->top.size(), std::size_t{10});
        QCOMPARE(frame->top.front().allTime, Count{1});
        QCOMPARE(frame->keyMemoryCap, options.keyMemoryCap);            // what the summary names
        QCOMPARE(EngineOptions{}.keyMemoryCap, std::size_t{64} << 20);  // listen's default
    }

    // The key plot: at each second t the level count as it was then, hits in (t - level, t].
    // Steady traffic (2 hits of /k a second for 400 s) is flat at 2 x 60 for the 1 min level
    // (countLast() at a past second counted from head - level: a ramp up to 120).
    void theKeySeriesIsTheLevelCountAtEachSecond() {
        BatchQueue queue;
        EngineWorker worker(queue);
        worker.setKeyView("/k", std::chrono::seconds(60), {"/m"});
        worker.start();
        for (Timestamp t = 1000; t < 1400; ++t) {
            HitBatch batch;
            batch.push_back(HitEvent{t, "/k", "v", 2});
            batch.push_back(HitEvent{t, "/m", "v", 1});
            QVERIFY(queue.tryPush(std::move(batch)));
        }
        std::shared_ptr<const EngineFrame> frame;
        for (int i = 0; i < 100 && (!frame || frame->snapshot.head != 1399); ++i) {
            frame = settledFrame(worker);
        }
        QVERIFY(frame);
        QCOMPARE(frame->selectedKey, std::string("/k"));
        QVERIFY(frame->keySeries.size() > 60);
        for (std::size_t i = 0; i < frame->keySeries.size(); ++i) {
            QCOMPARE(frame->keySeries[i], Count{120});
            QCOMPARE(frame->moreKeySeries.at(0).values.at(i), Count{60});
        }
    }

    // Threshold alerts (issue 15): a watched key's window count at every second, whatever its
    // rank and whether or not the GUI took each frame; after a new W, from the oldest second.
    void framesCarryWatchedKeysEverySecond() {
        BatchQueue queue;
        EngineWorker worker(queue);
        worker.setWatchedKeys({"/w", "", "/never"});
        worker.start();
        std::map<Timestamp, Count> seen;  // /w's window count by second, newest frame wins
        std::shared_ptr<const EngineFrame> last;
        const auto take = [&](bool untilSettled) {
            const std::uint64_t ticket = worker.requestFrame();
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (std::chrono::steady_clock::now() < deadline) {
                if (auto frame = worker.takeFrame()) {
                    if (frame->rebuild) {
                        seen.clear();
                    }
                    for (const KeySeriesValues& series : frame->watched) {
                        for (std::size_t i = 0; series.key == "/w" && i < series.values.size();
                             ++i) {
                            seen[frame->watchedFrom + Timestamp(i)] = series.values[i];
                        }
                    }
                    last = frame;
                    if (!untilSettled || (frame->ticket >= ticket && frame->idle)) {
                        return;
                    }
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        };
        for (Timestamp t = 100; t < 120; ++t) {
            HitBatch batch;
            for (int k = 0; k < 15; ++k) {
                batch.push_back(HitEvent{t, "/busy" + std::to_string(k), "v", 5});
            }
            batch.push_back(HitEvent{t, "/w", "v", 1});
            queue.tryPush(std::move(batch));
            if (t % 4 == 0) {
                take(false);  // some frames taken while the stream goes on
            } else {
                worker.requestFrame();  // others published and replaced, never taken
            }
        }
        take(true);
        QVERIFY(last);
        QCOMPARE(last->snapshot.head, Timestamp{119});
        QCOMPARE(last->watched.size(), std::size_t{2});
        QCOMPARE(last->watched[1].key, std::string("/never"));
        for (Count v : last->watched[1].values) {
            QCOMPARE(v, Count{0});
        }
        for (const KeyRow& row : last->top) {
            QVERIFY(row.key != "/w");
        }
        QCOMPARE(seen.size(), std::size_t{20});
        for (const auto& [second, value] : seen) {
            QCOMPARE(value, Count(second - 99));  // W = 300: every hit since 100
        }
        // A new W on the live stream: the keys are kept, the rebuild frame covers every second.
        EngineOptions options = worker.options();
        options.window = std::chrono::seconds(10);
        worker.rewindow(options);
        take(true);
        QCOMPARE(last->snapshot.windowSeconds, std::int64_t{10});
        QCOMPARE(seen.size(), std::size_t{20});
        for (const auto& [second, value] : seen) {
            QCOMPARE(value, Count(std::min<Timestamp>(second - 99, 10)));
        }
    }

    void historyChangesAccumulateWhileFramesAreNotTaken() {
        BatchQueue queue;
        EngineWorker worker(queue);
        worker.start();
        for (Timestamp t = 10; t < 20; ++t) {
            queue.tryPush(batchOf(t, 1));
            worker.requestFrame();  // frames published but never taken meanwhile
        }
        HistoryMirror history;
        settledFrame(worker, &history);
        QCOMPARE(history.size(), std::size_t{10});
        QCOMPARE(history.rbegin()->second.counts[0], Count{10});  // the open head, filled
        QCOMPARE(history.begin()->second.counts[0], Count{1});
    }

    void recordingTapWritesCountedHitsButNotRebuilds() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath(QStringLiteral("tap.csv")).toStdString();
        BatchQueue queue;
        EngineWorker worker(queue);
        worker.start();
        queue.tryPush(batchOf(100, 4));
        settledFrame(worker);
        QVERIFY(!worker.setRecorder(std::make_unique<TraceRecorder>(file)));
        queue.tryPush(batchOf(101, 3));
        queue.tryPush(HitBatch::resetMarker(1));
        queue.tryPush(batchOf(100, 4, 1, BatchKind::Rebuild));
        queue.tryPush(batchOf(101, 3, 1, BatchKind::Rebuild));
        queue.tryPush(batchOf(102, 2, 1));
        const auto frame = settledFrame(worker);
        QCOMPARE(frame->snapshot.totalHits, Count{9});  // the counters never noticed the tap
        std::unique_ptr<TraceRecorder> recorder = worker.setRecorder(nullptr);
        QVERIFY(recorder != nullptr);
        QCOMPARE(recorder->hitsWritten(), std::uint64_t{5});
        recorder->finish();
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        QVERIFY(text.str().find("\n101,") != std::string::npos);
        QVERIFY(text.str().find("\n102,") != std::string::npos);
        QVERIFY(text.str().find("\n100,") == std::string::npos);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestEngineWorker)
#include "tst_engine_worker.moc"
