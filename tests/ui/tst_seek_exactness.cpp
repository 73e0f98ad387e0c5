// Seeks in the window: after a seek forward, backward, to 0 and to the end, on burst, gappy
// and looped traces, every view (every policy, the totals, the live plot's history, the items
// table with all-time counts and uniques, the status bar) equals a replay from the start to
// the target, computed here by an Engine fed the same rows directly. Seeks into gaps between
// hits (shorter and longer than W, and every second of the gaps of a small trace), a replay
// playing through a gap and one paused in it show the window at the replay's time, checked
// against a recount of the rows (not the engine) and, from the GUI's command line, against
// `hitcounter-cli replay --at T`.
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <limits>
#include <map>

#include "../app/cli_process.h"
#include "core/engine/engine.h"
#include "core/sources/replay_source.h"
#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"
#include "ui/window/state_json.h"
#include "ui/window/view_fan_out.h"
#include "ui/window/window_state.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

// Rows in file order.
HitBatch burstRows() {
    HitBatch rows;
    for (Timestamp t = 1; t <= 900; ++t) {
        const int hits = (t >= 300 && t < 360) ? 60 : 8;
        for (int i = 0; i < hits; ++i) {
            rows.push_back(HitEvent{t, "/page/" + std::to_string((i * 7 + t) % 13),
                                    "v" + std::to_string((i * 31 + t) % 97), Count(1 + i % 2)});
        }
    }
    return rows;
}

// Clusters with gaps longer than the window and than the history, and late rows.
HitBatch gappyRows() {
    HitBatch rows;
    for (Timestamp start : {Timestamp{5}, Timestamp{1000}, Timestamp{6000}}) {
        for (Timestamp t = start; t < start + 80; ++t) {
            for (int i = 0; i < int(t % 5) + 1; ++i) {
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

HitBatch loopRows() {
    HitBatch rows;
    for (Timestamp t = 1; t <= 200; ++t) {
        rows.push_back(HitEvent{t, "a", "v" + std::to_string(t % 5), 1});
        rows.push_back(HitEvent{t, t % 3 ? "b" : "c", "v1", 2});
    }
    return rows;
}

QString writeTrace(const QTemporaryDir& dir, const QString& name, const HitBatch& rows) {
    const QString path = dir.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write("timestamp,key,visitor,count\n");
    for (const HitEvent& e : rows) {
        file.write(QStringLiteral("%1,%2,%3,%4\n")
                       .arg(e.time)
                       .arg(QString::fromStdString(e.key), QString::fromStdString(e.visitor))
                       .arg(e.count)
                       .toUtf8());
    }
    return path;
}

// Hits at 100..160, 300..320 (a gap of 139 s, shorter than W = 300) and 1000..1010 (a gap of
// 679 s, longer than W), one to three rows a second over five keys.
HitBatch gapRows() {
    HitBatch rows;
    const auto cluster = [&](Timestamp from, Timestamp to) {
        for (Timestamp t = from; t <= to; ++t) {
            for (int i = 0; i <= int(t % 3); ++i) {
                rows.push_back(HitEvent{t, "g" + std::to_string((t + i) % 5),
                                        "u" + std::to_string(i), Count(1 + i % 2)});
            }
        }
    };
    cluster(100, 160);
    cluster(300, 320);
    cluster(1000, 1010);
    return rows;
}

Timestamp lastTime(const HitBatch& rows) {
    Timestamp last = std::numeric_limits<Timestamp>::min();
    for (const HitEvent& e : rows) {
        last = std::max(last, e.time);
    }
    return last;
}

// The engine of an uninterrupted replay to t: every row before the first one whose running
// maximum time passes t, in file order, and the clock at t (at the trace's end past it).
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

// What an uninterrupted replay standing at t shows, recounted from the rows alone.
struct Recount {
    bool empty = true;
    Timestamp time = 0;  // t, or the trace's last second when t is past it
    Count total = 0;     // the hits delivered by t
    Count window = 0;    // of those, the hits in (time - W, time]
    std::vector<std::pair<std::string, Count>> top;  // by window count, ties by key, at most 10
};

Recount recount(const HitBatch& rows, Timestamp t, Timestamp w) {
    Recount r;
    r.time = std::min(t, lastTime(rows));
    std::map<std::string, Count> keys;
    Timestamp head = std::numeric_limits<Timestamp>::min();
    for (const HitEvent& e : rows) {
        head = std::max(head, e.time);
        if (head > t) {
            break;
        }
        r.empty = false;
        r.total += e.count;
        if (e.time > r.time - w && e.time <= r.time) {
            r.window += e.count;
            keys[e.key] += e.count;
        }
    }
    r.top.assign(keys.begin(), keys.end());
    std::sort(r.top.begin(), r.top.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    r.top.resize(std::min<std::size_t>(r.top.size(), EngineWorker::kTopKeys));
    return r;
}

// The window shows `r`: every exact policy, the totals, the items and the state JSON.
void compareWithRecount(MainWindow& w, const Recount& r) {
    const EngineSnapshot& s = w.views().snapshot();
    QCOMPARE(s.empty, r.empty);
    if (r.empty) {
        QCOMPARE(s.windowCount, Count{0});
        QVERIFY(w.views().lastFrame()->top.empty());
        return;
    }
    QCOMPARE(s.head, r.time);
    QCOMPARE(s.totalHits, r.total);
    QCOMPARE(s.windowCount, r.window);
    for (const PolicyState& p : s.policies) {
        if (p.exact) {
            QVERIFY2(p.count == r.window, p.name.c_str());
        }
    }
    const std::vector<KeyRow>& top = w.views().lastFrame()->top;
    QCOMPARE(top.size(), r.top.size());
    for (std::size_t i = 0; i < top.size(); ++i) {
        QCOMPARE(top[i].key, r.top[i].first);
        QCOMPARE(top[i].window, r.top[i].second);
        QCOMPARE(w.itemsPanel()->table()->item(int(i), 0)->text(),
                 QString::fromStdString(r.top[i].first));
    }
    const QJsonObject state = QJsonDocument::fromJson(stateJson(w, r.time)).object();
    QCOMPARE(state.value(QStringLiteral("time")).toInteger(), qint64(r.time));
    QCOMPARE(state.value(QStringLiteral("total")).toInteger(), qint64(r.total));
    const QJsonObject policies = state.value(QStringLiteral("policies")).toObject();
    for (const char* exact : {"ring", "deque", "sorted", "naive", "scanring"}) {
        QVERIFY2(policies.value(QLatin1String(exact)).toInteger() == qint64(r.window), exact);
    }
    const QJsonArray keys = state.value(QStringLiteral("keys")).toArray();
    QCOMPARE(std::size_t(keys.size()), r.top.size());
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const QJsonObject key = keys[i].toObject();
        QCOMPARE(key.value(QStringLiteral("key")).toString().toStdString(),
                 r.top[std::size_t(i)].first);
        QCOMPARE(key.value(QStringLiteral("window")).toInteger(),
                 qint64(r.top[std::size_t(i)].second));
    }
}

double valueAt(QCPGraph* graph, double key) {
    auto it = graph->data()->findBegin(key, false);
    return it != graph->data()->constEnd() && it->key == key ? it->value : -1.0;
}

// Writes `rows` as the trace `name` in `dir` and starts `w` replaying it; false if it could not.
bool startReplay(MainWindow& w, const QTemporaryDir& dir, const QString& name,
                 const HitBatch& rows) {
    ReplaySpec spec;
    spec.file = writeTrace(dir, name, rows);
    return w.startSpec(spec);
}

// Runs frames until the replay's last seek is counted and a settled frame is drawn.
bool settleAfterSeek(MainWindow& w) {
    const std::uint64_t epoch = w.session()->seekable()->epoch();
    for (int i = 0; i < 2000; ++i) {
        w.frame();
        if (w.session()->seekable()->progress().seeksApplied >= epoch &&
            w.waitForFrame(std::chrono::milliseconds(200), true) &&
            w.views().lastFrame()->streamEpoch == epoch) {
            return true;
        }
        QTest::qWait(5);
    }
    return false;
}

// Seeks `w`'s replay to each of `targets` in turn and, once the seek is counted, runs
// `check(target)` (QCOMPARE and friends); a failure says after which seek.
template <typename Targets, typename Check>
void seekEach(MainWindow& w, const Targets& targets, Check check) {
    for (const auto target : targets) {
        w.session()->seek(target);
        QVERIFY(settleAfterSeek(w));
        check(Timestamp(target));
        if (QTest::currentTestFailed()) {
            QFAIL(qPrintable(QStringLiteral("after the seek to %1").arg(target)));
        }
    }
}

// Every view of `w` equals `ref` (whose head the replay stands at).
void compareViews(MainWindow& w, Engine& ref) {
    const EngineSnapshot expected = ref.snapshot();
    const EngineSnapshot& shown = w.views().snapshot();
    QCOMPARE(shown.empty, expected.empty);
    QCOMPARE(shown.totalHits, expected.totalHits);
    QCOMPARE(shown.windowCount, expected.windowCount);
    QCOMPARE(shown.lateHits, expected.lateHits);
    QCOMPARE(shown.policies.size(), expected.policies.size());
    for (std::size_t p = 0; p < expected.policies.size(); ++p) {
        QCOMPARE(shown.policies[p].name, expected.policies[p].name);
        QCOMPARE(shown.policies[p].count, expected.policies[p].count);
    }
    // the live plot's history, as far as the history reaches
    const std::vector<SecondRecord> history =
        ref.historyFrom(std::numeric_limits<Timestamp>::min());
    QCOMPARE(w.views().history().size(), history.size());
    for (std::size_t i = 0; i < history.size(); ++i) {
        QCOMPARE(w.views().history()[i].second, history[i].second);
        QCOMPARE(w.views().history()[i].hits, history[i].hits);
        QCOMPARE(w.views().history()[i].counts, history[i].counts);
        const double s = double(history[i].second);
        QCOMPARE(valueAt(w.livePlot()->hitsGraph(), s), double(history[i].hits));
        QCOMPARE(valueAt(w.livePlot()->windowGraph(), s), double(history[i].counts[0]));
    }
    // items: top keys with window, level, all-time and uniques
    QTableWidget* table = w.itemsPanel()->table();
    const Timestamp head = expected.head;
    KeyedCounter& keys = ref.keyed().keys();
    const std::vector<KeyCount> top =
        expected.empty ? std::vector<KeyCount>{} : keys.top(EngineWorker::kTopKeys, head);
    QCOMPARE(table->rowCount(), int(top.size()));
    QCOMPARE(w.views().lastFrame()->top.size(), top.size());
    const QLocale locale;
    const auto column = [table](const QString& header) {
        for (int c = 0; c < table->columnCount(); ++c) {
            if (table->horizontalHeaderItem(c)->text() == header) {
                return c;
            }
        }
        return -1;
    };
    const int windowColumn = column(QStringLiteral("window"));
    const int allTimeColumn = column(QStringLiteral("all time"));
    const int uniquesColumn = column(QStringLiteral("uniques"));
    QVERIFY(windowColumn > 0 && allTimeColumn > 0 && uniquesColumn > 0);
    for (std::size_t r = 0; r < top.size(); ++r) {
        const KeyRow& row = w.views().lastFrame()->top[r];
        QCOMPARE(row.key, top[r].key);
        QCOMPARE(row.window, top[r].count);
        QCOMPARE(row.allTime, keys.allTime(top[r].key));
        QCOMPARE(row.uniques, keys.uniques(top[r].key, head));
        QCOMPARE(table->item(int(r), 0)->text(), QString::fromStdString(top[r].key));
        QCOMPARE(table->item(int(r), windowColumn)->text(),
                 locale.toString(qulonglong(row.window)));
        QCOMPARE(table->item(int(r), allTimeColumn)->text(),
                 locale.toString(qulonglong(row.allTime)));
        QCOMPARE(table->item(int(r), uniquesColumn)->text(),
                 locale.toString(qulonglong(row.uniques)));
    }
    const QString totals = w.findChild<QLabel*>(QStringLiteral("statusTotals"))->text();
    QVERIFY2(totals.contains(locale.toString(qulonglong(expected.totalHits))), qPrintable(totals));
}

}  // namespace

class TestSeekExactness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyViewEqualsAReplayFromTheStart_data() {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QList<qint64>>("targets");
        // forward, backward, to 0, to the end (and past it)
        QTest::newRow("burst") << QStringLiteral("burst") << QList<qint64>{700, 330, 0, 900, 5000};
        QTest::newRow("gappy") << QStringLiteral("gappy")
                               << QList<qint64>{1050, 6070, 40, 0, 6079, 3000};
    }

    void everyViewEqualsAReplayFromTheStart() {
        QFETCH(QString, trace);
        QFETCH(QList<qint64>, targets);
        QTemporaryDir dir;
        const HitBatch rows = trace == QLatin1String("burst") ? burstRows() : gappyRows();
        // A manual clock that never moves: the replay stays where a seek puts it.
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        QVERIFY(startReplay(w, dir, trace + QStringLiteral(".csv"), rows));
        seekEach(w, targets, [&](Timestamp target) { compareViews(w, *replayedTo(rows, target)); });
    }

    // A seek into a gap shows (T - W, T], not the window at the last hit: hits leave it second by
    // second (a gap shorter than W), or it empties (longer than W), as the replay's clock says.
    void seeksIntoGapsShowTheWindowAtTheSeekTime() {
        QTemporaryDir dir;
        const HitBatch rows = gapRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        QVERIFY(startReplay(w, dir, QStringLiteral("gaps.csv"), rows));
        // just after a cluster, in the short gap, at the window's edges after the second
        // cluster (its last hit at 320 leaves at 620), in the long gap, back into the short one
        const std::vector<Timestamp> targets{161, 230, 299, 321,  459, 460, 461,  619,
                                             620, 621, 999, 1005, 175, 20,  5000, 310};
        seekEach(w, targets, [&](Timestamp target) {
            compareWithRecount(w, recount(rows, target, 300));
            if (!QTest::currentTestFailed()) {
                compareViews(w, *replayedTo(rows, target));
            }
        });
    }

    // W = 20 on a small trace: a gap shorter than W (6..14) and one longer (18..59); a seek to
    // every second of the trace and past it, forward and then back.
    void everySecondOfTheGapsOfASmallTraceIsExact() {
        QTemporaryDir dir;
        HitBatch rows;
        for (Timestamp t : {1, 2, 3, 4, 5, 15, 16, 17, 60, 61, 62}) {
            for (int i = 0; i < int(t % 4) + 1; ++i) {
                rows.push_back(HitEvent{t, "s" + std::to_string((t + i) % 3), "v", 1});
            }
        }
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.setWindowSeconds(20);
        QVERIFY(startReplay(w, dir, QStringLiteral("small.csv"), rows));
        QCOMPARE(w.engineOptions().window, std::chrono::seconds(20));
        std::vector<Timestamp> targets;
        for (Timestamp t = 0; t <= 66; ++t) {
            targets.push_back(t);
        }
        for (Timestamp t = 65; t >= 0; t -= 7) {
            targets.push_back(t);
        }
        seekEach(w, targets,
                 [&](Timestamp target) { compareWithRecount(w, recount(rows, target, 20)); });
    }

    // Playing through a gap, the window follows the replay's clock second by second; paused
    // in the gap, it stays where the clock stopped.
    void theWindowSlidesWithTheClockWhilePlayingAndStaysWhilePaused() {
        QTemporaryDir dir;
        const HitBatch rows = gapRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        QVERIFY(startReplay(w, dir, QStringLiteral("play.csv"), rows));
        w.session()->seek(150);
        QVERIFY(settleAfterSeek(w));
        const auto standsAt = [&](Timestamp t) {
            return QTest::qWaitFor(
                [&] {
                    w.frame();
                    return w.waitForFrame(std::chrono::milliseconds(100), true) &&
                           w.views().snapshot().head == t;
                },
                10000);
        };
        for (Timestamp t = 151; t <= 175; ++t) {  // the last hits, then into the gap
            clock->advance(std::chrono::seconds(1));
            QVERIFY2(standsAt(t), qPrintable(QString::number(t)));
            compareWithRecount(w, recount(rows, t, 300));
            if (QTest::currentTestFailed()) {
                QFAIL(qPrintable(QStringLiteral("playing at %1").arg(t)));
            }
        }
        clock->advance(std::chrono::seconds(200));  // at once: past the next cluster
        QVERIFY(standsAt(375));
        compareWithRecount(w, recount(rows, 375, 300));
        w.setPaused(true);
        QVERIFY(QTest::qWaitFor([&] { return w.session()->pausable()->paused(); }, 5000));
        const Timestamp pausedAt = w.session()->seekable()->now();
        clock->advance(std::chrono::seconds(100));
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        QCOMPARE(w.session()->seekable()->now(), pausedAt);
        compareWithRecount(w, recount(rows, pausedAt, 300));
        w.setPaused(false);
        clock->advance(std::chrono::seconds(30));
        QVERIFY(standsAt(pausedAt + 30));
        compareWithRecount(w, recount(rows, pausedAt + 30, 300));
    }

    // The GUI's command line: --seek T into a gap, --state-json: the counts and top keys of
    // `hitcounter-cli replay --at T` (T in the short gap, in the long one, past the window's
    // last hit).
    void guiStateJsonAtASeekIntoAGapEqualsTheCli() {
        QTemporaryDir dir;
        const HitBatch rows = gapRows();
        const QString file = writeTrace(dir, QStringLiteral("cli.csv"), rows);
        for (qint64 at : {177, 459, 700}) {
            const QString out = dir.filePath(QStringLiteral("state.json"));
            QProcess gui;
            gui.start(QStringLiteral(HITCOUNTER_GUI),
                      {QStringLiteral("--replay"), file, QStringLiteral("--seek"),
                       QString::number(at), QStringLiteral("--state-json"), out});
            QVERIFY(gui.waitForFinished(60000));
            QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());
            QFile stateFile(out);
            QVERIFY(stateFile.open(QIODevice::ReadOnly));
            const QJsonObject state = QJsonDocument::fromJson(stateFile.readAll()).object();
            QCOMPARE(state.value(QStringLiteral("time")).toInteger(), at);
            const CliResult counts =
                runCli({QStringLiteral("replay"), file, QStringLiteral("--at"), QString::number(at),
                        QStringLiteral("--policy"), QStringLiteral("all")});
            QVERIFY2(counts.finished && counts.exitCode == 0, counts.err.constData());
            const QJsonObject policies = state.value(QStringLiteral("policies")).toObject();
            const QList<QByteArray> lines = counts.out.trimmed().split('\n');
            QCOMPARE(lines.size() - 1, policies.size());
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QList<QByteArray> fields = lines[i].split(',');  // time,policy,count
                QCOMPARE(fields[0].toLongLong(), at);
                QVERIFY2(policies.value(QString::fromUtf8(fields[1])).toInteger() ==
                             fields[2].toLongLong(),
                         lines[i].constData());
            }
            QCOMPARE(policies.value(QStringLiteral("ring")).toInteger(),
                     qint64(recount(rows, at, 300).window));
            const CliResult top =
                runCli({QStringLiteral("replay"), file, QStringLiteral("--at"), QString::number(at),
                        QStringLiteral("--top"), QStringLiteral("10")});
            QVERIFY2(top.finished && top.exitCode == 0, top.err.constData());
            const QList<QByteArray> topLines = top.out.trimmed().split('\n');
            const QJsonArray keys = state.value(QStringLiteral("keys")).toArray();
            QCOMPARE(keys.size(), topLines.size() - 1);
            for (qsizetype i = 0; i < keys.size(); ++i) {
                const QList<QByteArray> fields = topLines[i + 1].split(',');  // time,rank,key,count
                QCOMPARE(keys[i].toObject().value(QStringLiteral("key")).toString().toUtf8(),
                         fields[2]);
                QCOMPARE(keys[i].toObject().value(QStringLiteral("window")).toInteger(),
                         fields[3].toLongLong());
            }
        }
    }

    void recordingTogglesChangeNoCountAndSeekingStaysExact() {
        QTemporaryDir dir;
        const HitBatch rows = burstRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();
        QVERIFY(startReplay(w, dir, QStringLiteral("rec.csv"), rows));
        w.session()->seek(600);
        QVERIFY(settleAfterSeek(w));
        const Source* source = w.session()->source();
        const auto check = [&](Timestamp t) {
            QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
            compareViews(w, *replayedTo(rows, t));
        };
        // on: no restart, no count touched
        const QString file = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(w.session()->setRecording(file));
        QCOMPARE(w.session()->source(), source);
        check(600);
        // a seek while recording is exact too, and is not recorded again
        w.session()->seek(650);
        QVERIFY(settleAfterSeek(w));
        check(650);
        // off
        QVERIFY(w.session()->setRecording(QString()));
        QCOMPARE(w.session()->source(), source);
        check(650);
        QVERIFY(QFile::exists(file));
        QFile recorded(file);
        QVERIFY(recorded.open(QIODevice::ReadOnly));
        QCOMPARE(recorded.readAll().count('\n'), 1);  // the header: nothing streamed meanwhile
        // the box, with its dialog cancelled: unticked, no recording, no count touched
        auto* box = w.findChild<QCheckBox*>(QStringLiteral("recordBox"));
        QVERIFY(box != nullptr);
        QTimer::singleShot(300, [] {
            if (QWidget* dialog = QApplication::activeModalWidget()) {
                QMetaObject::invokeMethod(dialog, "reject");
            }
        });
        box->click();
        QVERIFY(!box->isChecked());
        QCOMPARE(windowSettingsUsed(w).value(QStringLiteral("recording")).toString(), QString());
        QCOMPARE(w.session()->source(), source);
        check(650);
    }

    // Issue 23 item 3: a file that cannot be replayed (not a trace, or missing) is named in the
    // error banner and leaves the running replay and every view as they were.
    void aFailedOpenLeavesEveryViewAsItWas() {
        QTemporaryDir dir;
        const HitBatch rows = burstRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();  // the error banner shows only in a visible window
        ReplaySpec spec;
        spec.file = writeTrace(dir, QStringLiteral("good.csv"), rows);
        QVERIFY(w.startSpec(spec));
        w.session()->seek(500);
        QVERIFY(settleAfterSeek(w));
        compareViews(w, *replayedTo(rows, 500));
        const int itemRows = w.itemsPanel()->table()->rowCount();
        QVERIFY(itemRows > 0);
        // a file that is no trace, then one that cannot even open
        QFile bad(dir.filePath(QStringLiteral("bad.csv")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("this is not,a trace header at all\n\x01\x02 garbage\n");
        bad.close();
        spec.file = bad.fileName();
        w.startSpec(spec);
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.frame();
                return w.errorText().contains(QStringLiteral("bad.csv"));
            },
            10000));
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        compareViews(w, *replayedTo(rows, 500));
        QCOMPARE(w.itemsPanel()->table()->rowCount(), itemRows);
        spec.file = dir.filePath(QStringLiteral("missing.csv"));
        QVERIFY(!w.startSpec(spec));
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        compareViews(w, *replayedTo(rows, 500));
        QCOMPARE(w.itemsPanel()->table()->rowCount(), itemRows);
    }

    void seekBackAfterLoopingEqualsTheFirstPass() {
        QTemporaryDir dir;
        const HitBatch rows = loopRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        ReplaySpec spec;
        spec.file = writeTrace(dir, QStringLiteral("loop.csv"), rows);
        spec.loop = true;
        QVERIFY(w.startSpec(spec));
        w.session()->seek(190);
        QVERIFY(settleAfterSeek(w));
        clock->advance(std::chrono::seconds(30));  // past the end: the second pass begins
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.frame();
                return w.session()->seekable()->progress().loops >= 1 &&
                       w.views().snapshot().head > 200;
            },
            10000));
        w.session()->seek(150);
        QVERIFY(settleAfterSeek(w));
        auto ref = replayedTo(rows, 150);
        compareViews(w, *ref);
    }
};

HITCOUNTER_TEST_MAIN(TestSeekExactness)
#include "tst_seek_exactness.moc"
