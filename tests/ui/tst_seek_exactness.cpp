// Seeks in the window: after a seek forward, backward, to 0 and to the end, on burst, gappy
// and looped traces, every view (every policy, the totals, the live plot's history, the items
// table with all-time counts and uniques, the status bar) equals a replay from the start to
// the target, computed here by an Engine fed the same rows directly.
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <limits>

#include "core/engine/engine.h"
#include "core/sources/replay_source.h"
#include "core/time/manual_clock.h"
#include "ui/items_panel.h"
#include "ui/live_plot.h"
#include "ui/main_window.h"

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

// The engine of an uninterrupted replay to t: every row before the first one whose running
// maximum time passes t, in file order.
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
    return engine;
}

double valueAt(QCPGraph* graph, double key) {
    auto it = graph->data()->findBegin(key, false);
    return it != graph->data()->constEnd() && it->key == key ? it->value : -1.0;
}

// Runs frames until the replay's last seek is counted and a settled frame is drawn.
bool settleAfterSeek(MainWindow& w) {
    const std::uint64_t epoch = w.replay()->epoch();
    for (int i = 0; i < 2000; ++i) {
        w.frame();
        if (w.replay()->progress().seeksApplied >= epoch &&
            w.waitForFrame(std::chrono::milliseconds(200), true) &&
            w.lastFrame()->streamEpoch == epoch) {
            return true;
        }
        QTest::qWait(5);
    }
    return false;
}

// Every view of `w` equals `ref` (whose head the replay stands at).
void compareViews(MainWindow& w, Engine& ref) {
    const EngineSnapshot expected = ref.snapshot();
    const EngineSnapshot& shown = w.lastSnapshot();
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
    QCOMPARE(w.history().size(), history.size());
    for (std::size_t i = 0; i < history.size(); ++i) {
        QCOMPARE(w.history()[i].second, history[i].second);
        QCOMPARE(w.history()[i].hits, history[i].hits);
        QCOMPARE(w.history()[i].counts, history[i].counts);
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
    QCOMPARE(w.lastFrame()->top.size(), top.size());
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
        const KeyRow& row = w.lastFrame()->top[r];
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
        SourceSpec spec;
        spec.kind = SourceSpec::Kind::Replay;
        spec.file = writeTrace(dir, trace + QStringLiteral(".csv"), rows);
        QVERIFY(w.startSpec(spec));
        for (qint64 target : targets) {
            w.seekReplay(target);
            QVERIFY(settleAfterSeek(w));
            auto ref = replayedTo(rows, target);
            compareViews(w, *ref);
            if (QTest::currentTestFailed()) {
                QFAIL(qPrintable(QStringLiteral("after the seek to %1").arg(target)));
            }
        }
    }

    void recordingTogglesChangeNoCountAndSeekingStaysExact() {
        QTemporaryDir dir;
        const HitBatch rows = burstRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();
        SourceSpec spec;
        spec.kind = SourceSpec::Kind::Replay;
        spec.file = writeTrace(dir, QStringLiteral("rec.csv"), rows);
        QVERIFY(w.startSpec(spec));
        w.seekReplay(600);
        QVERIFY(settleAfterSeek(w));
        const Source* source = w.source();
        const auto check = [&](Timestamp t) {
            QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
            compareViews(w, *replayedTo(rows, t));
        };
        // on: no restart, no count touched
        const QString file = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(w.setRecording(file));
        QCOMPARE(w.source(), source);
        check(600);
        // a seek while recording is exact too, and is not recorded again
        w.seekReplay(650);
        QVERIFY(settleAfterSeek(w));
        check(650);
        // off
        QVERIFY(w.setRecording(QString()));
        QCOMPARE(w.source(), source);
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
        QCOMPARE(w.settingsUsed().value(QStringLiteral("recording")).toString(), QString());
        QCOMPARE(w.source(), source);
        check(650);
    }

    void aFailingSourceResetsEveryView() {
        QTemporaryDir dir;
        const HitBatch rows = burstRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();  // the error banner shows only in a visible window
        SourceSpec spec;
        spec.kind = SourceSpec::Kind::Replay;
        spec.file = writeTrace(dir, QStringLiteral("good.csv"), rows);
        QVERIFY(w.startSpec(spec));
        w.seekReplay(500);
        QVERIFY(settleAfterSeek(w));
        QVERIFY(w.itemsPanel()->table()->rowCount() > 0);
        Engine empty;
        // a trace that fails while loading, then one that cannot even open
        QFile bad(dir.filePath(QStringLiteral("bad.csv")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("this is not,a trace header at all\n\x01\x02 garbage\n");
        bad.close();
        spec.file = bad.fileName();
        w.startSpec(spec);
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.frame();
                return !w.errorText().isEmpty();
            },
            10000));
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        compareViews(w, empty);
        QCOMPARE(w.itemsPanel()->table()->rowCount(), 0);
        spec.file = dir.filePath(QStringLiteral("missing.csv"));
        QVERIFY(!w.startSpec(spec));
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        compareViews(w, empty);
    }

    void seekBackAfterLoopingEqualsTheFirstPass() {
        QTemporaryDir dir;
        const HitBatch rows = loopRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        SourceSpec spec;
        spec.kind = SourceSpec::Kind::Replay;
        spec.file = writeTrace(dir, QStringLiteral("loop.csv"), rows);
        spec.loop = true;
        QVERIFY(w.startSpec(spec));
        w.seekReplay(190);
        QVERIFY(settleAfterSeek(w));
        clock->advance(std::chrono::seconds(30));  // past the end: the second pass begins
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.frame();
                return w.replay()->progress().loops >= 1 && w.lastSnapshot().head > 200;
            },
            10000));
        w.seekReplay(150);
        QVERIFY(settleAfterSeek(w));
        auto ref = replayedTo(rows, 150);
        compareViews(w, *ref);
    }
};

QTEST_MAIN(TestSeekExactness)
#include "tst_seek_exactness.moc"
