// Web server access logs in the main window, on real files and a real (offscreen) window:
//  - a combined log replayed (plain and .gz, default key and --key status) shows the window
//    count and top keys `hitcounter-cli replay FILE --at T` prints for the same file;
//  - seeks in a gzipped log replay land on exactly what a replay from the start holds;
//  - a file that is no known format shows HitFile's message and the window keeps working;
//  - a gzipped log cut short replays what is readable and says where it was cut;
//  - the status split: per second, the 2xx/3xx/4xx/5xx/other counts are the log's statuses,
//    they sum to the hits, and the live plot draws them as lines and stacked;
//  - the "Follow access log" source picks up appended lines, a rename rotation and a
//    truncation, with exact totals and its stats in the status bar and the sources dock; a
//    followed log far behind the clock counts too late and says how far.
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProcess>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <array>
#include <limits>
#include <map>

#include <zlib.h>

#include "../app/cli_process.h"
#include "core/engine/engine.h"
#include "core/io/hit_file.h"
#include "core/sources/follow_set.h"
#include "core/sources/replay_source.h"
#include "core/time/manual_clock.h"
#include "tests/io/truncated_gzip.h"
#include "tests/test_main.h"
#include "tests/ui/running_as.h"
#include "ui/monitor/live_plot.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::runningAs;

namespace {

constexpr Timestamp kBase = 971211336;  // 10/Oct/2000:13:55:36 -0700

// One combined-format line at kBase + offset, written in the -0700 zone.
QByteArray combinedLine(int offset, const QByteArray& target, int status,
                        const QByteArray& client) {
    const int s = 13 * 3600 + 55 * 60 + 36 + offset;
    const int day = 10 + s / 86400;
    const int inDay = s % 86400;
    return client + " - - [" + QByteArray::number(day) +
           "/Oct/2000:" + QByteArray::number(inDay / 3600).rightJustified(2, '0') + ':' +
           QByteArray::number(inDay / 60 % 60).rightJustified(2, '0') + ':' +
           QByteArray::number(inDay % 60).rightJustified(2, '0') + " -0700] \"GET " + target +
           " HTTP/1.1\" " + QByteArray::number(status) +
           " 512 \"https://example.com/\" \"Mozilla/5.0 (X11; Linux)\"\n";
}

struct LogRow {
    Timestamp time;
    QByteArray path;  // without the query
    int status;
};

// 700 s of traffic with every status class and late lines, in file order.
std::vector<LogRow> sampleRows() {
    std::vector<LogRow> rows;
    for (int t = 0; t < 700; ++t) {
        rows.push_back({kBase + t, "/a", 200});
        if (t % 2 == 0)
            rows.push_back({kBase + t, "/b", t % 4 == 0 ? 301 : 304});
        if (t % 3 == 0)
            rows.push_back({kBase + t, "/c", 404});
        if (t % 7 == 0)
            rows.push_back({kBase + t, "/d", t % 14 == 0 ? 503 : 500});
        if (t % 11 == 0 && t >= 3)
            rows.push_back({kBase + t - 3, "/late", 200});  // logged when it ended
        if (t % 13 == 0)
            rows.push_back({kBase + t, "/e", 101});  // no 2xx..5xx class: "other"
    }
    return rows;
}

QByteArray logText(const std::vector<LogRow>& rows) {
    QByteArray log;
    int i = 0;
    for (const LogRow& r : rows) {
        // the query differs per line: the default key drops it
        log += combinedLine(int(r.time - kBase), r.path + "?n=" + QByteArray::number(i % 17),
                            r.status, "10.0.0." + QByteArray::number(i % 5));
        ++i;
        if (i == 40)
            log += "this line is not an access log line\n";  // counted as bad, skipped
    }
    return log;
}

QByteArray gzipped(const QByteArray& data) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(int(deflateBound(&z, uLong(data.size()))) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    z.avail_in = uInt(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(out.size() - int(z.avail_out));
    deflateEnd(&z);
    return out;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    return file.fileName();
}

// Starts `w` following the access log `log`; false if it could not.
bool startFollowing(MainWindow& w, const QString& log) {
    FollowSpec spec;
    spec.file = log;
    return w.startSpec(spec);
}

bool appendFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Append) &&
           file.write(bytes) == bytes.size() && file.flush();
}

// The rows an uninterrupted replay has delivered at t: those before the first row whose
// running maximum time passes t, in file order.
template <typename Row, typename TimeOf>
std::vector<Row> prefixTo(const std::vector<Row>& rows, Timestamp t, TimeOf timeOf) {
    std::vector<Row> prefix;
    Timestamp head = std::numeric_limits<Timestamp>::min();
    for (const Row& r : rows) {
        head = std::max(head, timeOf(r));
        if (head > t)
            break;
        prefix.push_back(r);
    }
    return prefix;
}

// Every event of `file` as HitFile reads it (the reference for the window).
HitBatch readAll(const QString& file, AccessLogKey key) {
    HitFileOptions options;
    options.key = key;
    HitFile reader(file.toStdString(), options);
    HitBatch events;
    TraceRow row;
    for (TraceStatus status; (status = reader.next(row)) != TraceStatus::End;) {
        if (status == TraceStatus::Row)
            events.push_back(row.event);
    }
    return events;
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

// Runs frames until `done` holds or about 10 s pass.
template <typename Done>
bool runFramesUntil(MainWindow& w, Done done) {
    for (int i = 0; i < 1000; ++i) {
        w.waitForFrame(std::chrono::milliseconds(5));
        w.frame();
        if (done())
            return true;
        QTest::qWait(5);
    }
    return false;
}

double valueAt(QCPGraph* graph, Timestamp key) {
    auto it = graph->data()->findBegin(double(key), false);
    return it != graph->data()->constEnd() && it->key == double(key) ? it->value : -1.0;
}

int layerOf(int status) {
    return status >= 200 && status < 600 ? status / 100 - 1 : 0;
}

MainWindow* startReplay(std::shared_ptr<ManualClock> clock, const QString& file,
                        const QString& key = QStringLiteral("path")) {
    auto* w = new MainWindow(std::move(clock));
    ReplaySpec spec;
    spec.file = file;
    spec.key = key;
    if (!w->startSpec(spec)) {
        delete w;
        return nullptr;
    }
    return w;
}

}  // namespace

class TestAccessLogsInWindow : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void replayedLogShowsWhatTheCliPrints_data() {
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<QString>("key");
        QTest::addColumn<qint64>("at");
        QTest::newRow("plain, path") << false << QStringLiteral("path") << qint64(kBase + 450);
        QTest::newRow("gzip, path") << true << QStringLiteral("path") << qint64(kBase + 620);
        QTest::newRow("gzip, status") << true << QStringLiteral("status") << qint64(kBase + 333);
        QTest::newRow("plain, path+query")
            << false << QStringLiteral("path+query") << qint64(kBase + 699);
    }

    void replayedLogShowsWhatTheCliPrints() {
        QFETCH(bool, gzip);
        QFETCH(QString, key);
        QFETCH(qint64, at);
        const QByteArray text = logText(sampleRows());
        const QString file =
            writeFile(m_dir, gzip ? QStringLiteral("cli.log.gz") : QStringLiteral("cli.log"),
                      gzip ? gzipped(text) : text);
        QVERIFY(!file.isEmpty());
        const QStringList common = {QStringLiteral("replay"), file,
                                    QStringLiteral("--at"),   QString::number(at),
                                    QStringLiteral("--key"),  key};
        const CliResult counts = runCli(common);
        QVERIFY2(counts.finished && counts.exitCode == 0, counts.err.constData());
        const CliResult top =
            runCli(common + QStringList{QStringLiteral("--top"), QStringLiteral("10")});
        QVERIFY2(top.finished && top.exitCode == 0, top.err.constData());
        // time,policy,count: one row for the ring
        const QList<QByteArray> countLines = counts.out.trimmed().split('\n');
        QCOMPARE(countLines.size(), 2);
        const Count cliWindow = countLines[1].split(',').last().toULongLong();
        QVERIFY(cliWindow > 0);

        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        std::unique_ptr<MainWindow> w(startReplay(clock, file, key));
        QVERIFY(w);
        w->session()->seek(at);
        QVERIFY(settleAfterSeek(*w));
        QCOMPARE(w->views().snapshot().head, Timestamp(at));
        QCOMPARE(w->views().snapshot().windowCount, cliWindow);
        // time,rank,key,count rows in rank order
        const QList<QByteArray> topLines = top.out.trimmed().split('\n');
        const std::vector<KeyRow>& shown = w->views().lastFrame()->top;
        QCOMPARE(qsizetype(shown.size()), topLines.size() - 1);
        for (std::size_t i = 0; i < shown.size(); ++i) {
            const QList<QByteArray> fields = topLines[qsizetype(i) + 1].split(',');
            QCOMPARE(QByteArray::fromStdString(shown[i].key), fields[2]);
            QCOMPARE(shown[i].window, Count(fields[3].toULongLong()));
        }
        // the bad line is counted and named, the replay goes on
        QVERIFY(QTest::qWaitFor(
            [&] {
                w->frame();
                return w->session()->source()->stats().badLines == 1;
            },
            5000));
        QVERIFY(QString::fromStdString(w->session()->source()->describe())
                    .contains(QStringLiteral("combined")));
    }

    // The GUI's command line: --replay of a .gz log with --key, --seek and --state-json writes
    // what the window shows at T: the CLI's numbers. A bad --key exits with code 2.
    void guiCommandLineReplaysALogWithAKey() {
        const QString file =
            writeFile(m_dir, QStringLiteral("gui.log.gz"), gzipped(logText(sampleRows())));
        const qint64 at = kBase + 480;
        const QString out = m_dir.filePath(QStringLiteral("state.json"));
        QProcess gui;
        gui.start(
            QStringLiteral(HITCOUNTER_GUI),
            {QStringLiteral("--replay"), file, QStringLiteral("--key"), QStringLiteral("status"),
             QStringLiteral("--seek"), QString::number(at), QStringLiteral("--state-json"), out});
        QVERIFY(gui.waitForFinished(60000));
        QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());
        QFile stateFile(out);
        QVERIFY(stateFile.open(QIODevice::ReadOnly));
        const QJsonObject state = QJsonDocument::fromJson(stateFile.readAll()).object();
        const CliResult cli =
            runCli({QStringLiteral("replay"), file, QStringLiteral("--at"), QString::number(at),
                    QStringLiteral("--key"), QStringLiteral("status"), QStringLiteral("--top"),
                    QStringLiteral("10")});
        QVERIFY2(cli.finished && cli.exitCode == 0, cli.err.constData());
        const QList<QByteArray> rows = cli.out.trimmed().split('\n');
        const QJsonArray keys = state.value(QStringLiteral("keys")).toArray();
        QCOMPARE(keys.size(), rows.size() - 1);
        QVERIFY(keys.size() >= 5);  // 200, 301, 304, 404, 500, 503, 101
        Count sum = 0;
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const QList<QByteArray> fields = rows[i + 1].split(',');
            const QJsonObject key = keys[i].toObject();
            QCOMPARE(key.value(QStringLiteral("key")).toString().toUtf8(), fields[2]);
            QCOMPARE(qint64(key.value(QStringLiteral("window")).toDouble()),
                     fields[3].toLongLong());
            sum += Count(fields[3].toLongLong());
        }
        // every status is a key: the keys' window counts add up to the ring's
        QCOMPARE(Count(state.value(QStringLiteral("policies"))
                           .toObject()
                           .value(QStringLiteral("ring"))
                           .toDouble()),
                 sum);

        QProcess bad;
        bad.start(
            QStringLiteral(HITCOUNTER_GUI),
            {QStringLiteral("--replay"), file, QStringLiteral("--key"), QStringLiteral("colour")});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("--key"));
    }

    // A user's nginx log_format (with $host) and the vhost key: the same numbers as the CLI
    // given the same --log-format and --key.
    void aLogFormatLogWithTheVhostKeyShowsWhatTheCliPrints() {
        const QByteArray format = "$remote_addr [$time_local] \"$request\" $status $host";
        QByteArray log;
        for (int t = 0; t < 400; ++t) {
            for (int i = 0; i < 1 + t % 4; ++i) {
                QByteArray line = combinedLine(t, "/x", 200 + 100 * (i % 4), "10.0.2.1");
                // "IP - - [time] "GET ..." status size ..." -> "IP [time] "GET ..." status host"
                line.replace(" - - [", " [");
                line = line.left(line.indexOf(" 512 ")) + " shop" + QByteArray::number(i) +
                       ".example\n";
                log += line;
            }
        }
        const QString file = writeFile(m_dir, QStringLiteral("custom.log"), log);
        const qint64 at = kBase + 377;
        const CliResult cli =
            runCli({QStringLiteral("replay"), file, QStringLiteral("--log-format"),
                    QString::fromUtf8(format), QStringLiteral("--key"), QStringLiteral("vhost"),
                    QStringLiteral("--at"), QString::number(at), QStringLiteral("--top"),
                    QStringLiteral("10")});
        QVERIFY2(cli.finished && cli.exitCode == 0, cli.err.constData());
        const QList<QByteArray> rows = cli.out.trimmed().split('\n');
        QCOMPARE(rows.size(), 5);  // header and shop0..shop3

        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();  // the banner shows only in a visible window
        ReplaySpec spec;
        spec.file = file;
        spec.key = QStringLiteral("vhost");
        spec.logFormat = QString::fromUtf8(format);
        QVERIFY2(w.startSpec(spec), qPrintable(w.errorText()));
        w.session()->seek(at);
        QVERIFY(settleAfterSeek(w));
        QCOMPARE(w.views().lastFrame()->top.size(), std::size_t{4});
        for (std::size_t i = 0; i < 4; ++i) {
            const QList<QByteArray> fields = rows[qsizetype(i) + 1].split(',');
            QCOMPARE(QByteArray::fromStdString(w.views().lastFrame()->top[i].key), fields[2]);
            QCOMPARE(w.views().lastFrame()->top[i].window, Count(fields[3].toULongLong()));
        }
        // without the format the file is not recognised: HitFile's message, in the window
        spec.logFormat.clear();
        QVERIFY(!w.startSpec(spec));
        QVERIFY2(w.errorText().contains(QStringLiteral("custom.log")), qPrintable(w.errorText()));
    }

    // The Open dialog takes a .gz access log; the dock's Log key box reloads the running
    // replay with the new key at the same time.
    void openDialogAndLogKeyBox() {
        const QString file =
            writeFile(m_dir, QStringLiteral("dialog.log.gz"), gzipped(logText(sampleRows())));
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();
        // Answer the dialog once it is up (bounded: after about 10 s, reject whatever is modal).
        bool chosen = false;
        int tries = 0;
        QTimer answer;
        answer.setInterval(50);
        QObject::connect(&answer, &QTimer::timeout, [&] {
            QWidget* modal = QApplication::activeModalWidget();
            if (++tries > 200) {  // give up: the test fails on `chosen` or on the replay
                if (modal != nullptr)
                    QMetaObject::invokeMethod(modal, "reject");
                answer.stop();
            } else if (auto* dialog = qobject_cast<QFileDialog*>(modal)) {
                dialog->setDirectory(QFileInfo(file).absolutePath());
                if (auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                    edit->setText(QFileInfo(file).fileName());
                QMetaObject::invokeMethod(dialog, "accept");
                chosen = true;
            } else if (chosen) {
                answer.stop();
            }
        });
        answer.start();
        w.openTrace();
        QVERIFY(chosen);
        QVERIFY(w.session()->seekable() != nullptr);
        QCOMPARE(sourceFile(w.session()->spec()), file);
        const Timestamp at = kBase + 300;
        w.session()->seek(at);
        QVERIFY(settleAfterSeek(w));
        QCOMPARE(w.views().lastFrame()->top.front().key, std::string("/a"));
        auto* box = w.findChild<QComboBox*>(QStringLiteral("replayKeyBox"));
        QVERIFY(box != nullptr);
        const int status = box->findText(QStringLiteral("status"));
        QVERIFY(status >= 0);
        box->setCurrentIndex(status);
        Q_EMIT box->activated(status);
        QCOMPARE(std::get<ReplaySpec>(w.session()->spec()).key, QStringLiteral("status"));
        QVERIFY(w.session()->seekable() != nullptr);
        QVERIFY(settleAfterSeek(w));
        QCOMPARE(w.views().snapshot().head, at);
        QCOMPARE(w.views().lastFrame()->top.front().key, std::string("200"));
        Count sum = 0;
        for (const KeyRow& row : w.views().lastFrame()->top)
            sum += row.window;
        QCOMPARE(sum, w.views().snapshot().windowCount);  // every hit has its status as key

        // The Filter box (issue 28): an expression that does not parse is named under the box
        // and changes nothing; status=200 reloads the replay at the same time with only the
        // 200s, as many as the unfiltered window's key "200" held.
        const auto ok =
            std::find_if(w.views().lastFrame()->top.begin(), w.views().lastFrame()->top.end(),
                         [](const KeyRow& row) { return row.key == "200"; });
        QVERIFY(ok != w.views().lastFrame()->top.end());
        const Count oks = ok->window;
        QVERIFY(oks < w.views().snapshot().windowCount);  // other statuses are in the window
        auto* filter = w.findChild<QLineEdit*>(QStringLiteral("replayFilterEdit"));
        auto* problem = w.findChild<QLabel*>(QStringLiteral("replayFilterEditProblem"));
        QVERIFY(filter != nullptr && problem != nullptr);
        filter->setText(QStringLiteral("status=20"));
        Q_EMIT filter->editingFinished();
        QVERIFY(problem->isVisibleTo(&w));
        QVERIFY2(problem->text().contains(QStringLiteral("column 8")), qPrintable(problem->text()));
        QVERIFY(std::get<ReplaySpec>(w.session()->spec()).filter.isEmpty());
        filter->setText(QStringLiteral("status=200"));
        Q_EMIT filter->editingFinished();
        QVERIFY(!problem->isVisibleTo(&w));
        QCOMPARE(std::get<ReplaySpec>(w.session()->spec()).filter, QStringLiteral("status=200"));
        QVERIFY(settleAfterSeek(w));
        QCOMPARE(w.views().snapshot().head, at);
        QCOMPARE(w.views().lastFrame()->top.size(), std::size_t{1});
        QCOMPARE(w.views().lastFrame()->top.front().key, std::string("200"));
        QCOMPARE(w.views().lastFrame()->top.front().window, oks);
        QCOMPARE(w.views().snapshot().windowCount, oks);
    }

    void seeksInAGzippedLogAreExact() {
        const QString file =
            writeFile(m_dir, QStringLiteral("seek.log.gz"), gzipped(logText(sampleRows())));
        const HitBatch events = readAll(file, AccessLogKey::Path);
        QVERIFY(events.size() > 1000);
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        std::unique_ptr<MainWindow> w(startReplay(clock, file));
        QVERIFY(w);
        for (Timestamp target : {kBase + 500, kBase + 200, kBase, kBase + 699, kBase + 350}) {
            w->session()->seek(target);
            QVERIFY(settleAfterSeek(*w));
            Engine ref;
            const auto prefix = prefixTo(std::vector<HitEvent>(events.begin(), events.end()),
                                         target, [](const HitEvent& e) { return e.time; });
            ref.ingest(HitBatch(prefix.begin(), prefix.end()));
            const EngineSnapshot expected = ref.snapshot();
            QCOMPARE(w->views().snapshot().totalHits, expected.totalHits);
            QCOMPARE(w->views().snapshot().windowCount, expected.windowCount);
            QCOMPARE(w->views().snapshot().lateHits, expected.lateHits);
            const auto history = ref.historyFrom(std::numeric_limits<Timestamp>::min());
            QCOMPARE(w->views().history().size(), history.size());
            for (std::size_t i = 0; i < history.size(); ++i) {
                QCOMPARE(w->views().history()[i].second, history[i].second);
                QCOMPARE(w->views().history()[i].hits, history[i].hits);
                QCOMPARE(w->views().history()[i].statusHits, history[i].statusHits);
            }
            const auto top = ref.keyed().keys().top(EngineWorker::kTopKeys, expected.head);
            QCOMPARE(w->views().lastFrame()->top.size(), top.size());
            for (std::size_t i = 0; i < top.size(); ++i) {
                QCOMPARE(w->views().lastFrame()->top[i].key, top[i].key);
                QCOMPARE(w->views().lastFrame()->top[i].window, top[i].count);
            }
        }
    }

    // Issue 28: the status bar says how many lines the filter refused, and a filter that
    // refuses every line says so instead of calling the log empty.
    void theStatusTextsSayWhatTheFilterRefused() {
        const QString file = writeFile(
            m_dir, QStringLiteral("three.log"),
            logText({{kBase, "/a", 200}, {kBase + 1, "/b", 404}, {kBase + 2, "/c", 200}}));
        MainWindow w(std::make_shared<ManualClock>(std::chrono::seconds(1'000'000)));
        w.show();  // the error banner is a visible widget
        ReplaySpec spec;
        spec.file = file;
        spec.filter = QStringLiteral("status=404");
        QVERIFY2(w.startSpec(spec), qPrintable(w.errorText()));
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.waitForFrame(std::chrono::milliseconds(50), true);
                return w.statusBar()->currentMessage().startsWith(QStringLiteral("Loaded"));
            },
            20000));
        const QString loaded = w.statusBar()->currentMessage();
        QVERIFY2(
            loaded.contains(QStringLiteral("three.log: 1 rows (2 lines refused by the filter)")),
            qPrintable(loaded));
        spec.filter = QStringLiteral("status=5xx");
        QVERIFY2(w.startSpec(spec), qPrintable(w.errorText()));
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.waitForFrame(std::chrono::milliseconds(50), true);
                return !w.errorText().isEmpty();
            },
            20000));
        QVERIFY2(w.errorText().contains(QStringLiteral(
                     "three.log: no hits to replay: the filter refuses all 3 lines")),
                 qPrintable(w.errorText()));
    }

    void anUnknownFileShowsHitFilesMessageAndTheWindowGoesOn() {
        const QString file = writeFile(m_dir, QStringLiteral("notes.txt"),
                                       "dear diary\nnothing here is a log line\n");
        QString expected;
        try {
            HitFile probe(file.toStdString(), {});
        } catch (const HitFileError& e) {
            expected = QString::fromStdString(e.what());
        }
        QVERIFY(!expected.isEmpty());
        MainWindow w;
        w.show();  // the banner shows only in a visible window
        ReplaySpec spec;
        spec.file = file;
        QVERIFY(!w.startSpec(spec));
        QCOMPARE(w.errorText(), expected);
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("errorBanner"))->isVisible());
        // a key the format lacks: common has no vhost
        const QString common =
            writeFile(m_dir, QStringLiteral("common.log"),
                      "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /x HTTP/1.0\" 200 5\n");
        spec.file = common;
        spec.key = QStringLiteral("vhost");
        QVERIFY(!w.startSpec(spec));
        QVERIFY2(w.errorText().contains(QStringLiteral("common.log")), qPrintable(w.errorText()));
        // still working: a good log replays
        spec.key = QStringLiteral("path");
        QVERIFY(w.startSpec(spec));
        QVERIFY(w.errorText().isEmpty());
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.waitForFrame(std::chrono::milliseconds(50), true);
                return w.views().snapshot().totalHits == 1;
            },
            10000));
    }

    // A gzipped log cut mid-copy (issue 23 item 6): the window replays what is readable (the
    // whole lines zlib alone inflates from it) and the banner and stderr say where it was cut.
    // (Before: "no hits to replay" and an empty window.)
    void aTruncatedGzipReplaysWhatIsReadableAndSaysWhereItWasCut() {
        const QByteArray whole = gzipped(logText(sampleRows()));
        const QByteArray cut = whole.left(whole.size() / 2);
        const std::string inflated = hitcounter::testing::inflateWhatIsThere(
            std::string_view(cut.constData(), std::size_t(cut.size())));
        const std::size_t lines = hitcounter::testing::wholeLines(inflated);
        const QString readable =
            writeFile(m_dir, QStringLiteral("readable.log"),
                      QByteArray::fromStdString(inflated.substr(0, inflated.rfind('\n') + 1)));
        const HitBatch events = readAll(readable, AccessLogKey::Path);  // its 1 bad line skipped
        QCOMPARE(events.size(), lines - 1);
        const QString file = writeFile(m_dir, QStringLiteral("cut.log.gz"), cut);
        const QString where = QStringLiteral("%1: truncated at line %2: %3 lines replayed")
                                  .arg(file)
                                  .arg(lines + 1)
                                  .arg(QLocale(QLocale::English).toString(qulonglong(lines - 1)));
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        std::unique_ptr<MainWindow> w(startReplay(clock, file));
        QVERIFY(w);
        w->show();
        QVERIFY2(runFramesUntil(*w, [&] { return w->errorText().contains(where); }),
                 qPrintable(w->errorText() + QStringLiteral(" / ") + where));
        Timestamp last = 0;
        Count total = 0;
        for (const HitEvent& e : events) {
            last = std::max(last, e.time);
            total += e.count;
        }
        w->session()->seek(last);
        QVERIFY(settleAfterSeek(*w));
        Count window = 0;
        for (const HitEvent& e : events) {
            window += e.time > last - 300 ? e.count : 0;
        }
        QCOMPARE(w->views().snapshot().totalHits, total);
        QCOMPARE(w->views().snapshot().windowCount, window);

        const QString out = m_dir.filePath(QStringLiteral("cut.json"));
        QProcess gui;
        gui.start(QStringLiteral(HITCOUNTER_GUI),
                  {QStringLiteral("--replay"), file, QStringLiteral("--seek"),
                   QString::number(last), QStringLiteral("--state-json"), out});
        QVERIFY(gui.waitForFinished(60000));
        const QByteArray err = gui.readAllStandardError();
        QVERIFY2(gui.exitCode() == 0, err.constData());
        QVERIFY2(err.contains(where.toUtf8()), err.constData());
        QFile state(out);
        QVERIFY(state.open(QIODevice::ReadOnly));
        QCOMPARE(Count(QJsonDocument::fromJson(state.readAll())
                           .object()
                           .value(QStringLiteral("total"))
                           .toInteger()),
                 total);
    }

    void statusSplitSumsToTheHitsAndMatchesTheLog() {
        const std::vector<LogRow> rows = sampleRows();
        const QString file = writeFile(m_dir, QStringLiteral("status.log"), logText(rows));
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        std::unique_ptr<MainWindow> w(startReplay(clock, file));
        QVERIFY(w);
        const Timestamp at = kBase + 640;
        w->session()->seek(at);
        QVERIFY(settleAfterSeek(*w));
        // expected per second and layer (0 other, 1..4 = 2xx..5xx), from the rows written
        std::map<Timestamp, std::array<Count, 5>> expected;
        for (const LogRow& r : prefixTo(rows, at, [](const LogRow& r) { return r.time; }))
            ++expected[r.time][std::size_t(layerOf(r.status))];
        LivePlot* plot = w->livePlot();
        plot->setStatusSplit(StatusSplit::Lines);
        w->renderNow();
        QCOMPARE(w->views().history().size(), expected.size());
        std::array<Count, 5> seen{};
        for (const SecondRecord& record : w->views().history()) {
            const auto& want = expected.at(record.second);
            QCOMPARE(record.statusHits[0] + record.statusHits[1], want[0]);
            Count sum = record.statusHits[0] + record.statusHits[1];
            for (std::size_t layer = 1; layer < 5; ++layer) {
                QCOMPARE(record.statusHits[layer + 1], want[layer]);
                sum += record.statusHits[layer + 1];
            }
            QCOMPARE(sum, record.hits);
            for (int layer = 0; layer < 5; ++layer) {
                QCOMPARE(valueAt(plot->statusGraph(layer), record.second),
                         double(want[std::size_t(layer)]));
                seen[std::size_t(layer)] += want[std::size_t(layer)];
            }
        }
        for (Count n : seen)
            QVERIFY(n > 0);  // every class occurs
        QVERIFY(plot->statusGraph(4)->visible() && plot->statusGraph(0)->visible());
        // stacked, bottom up 2xx, 3xx, 4xx, 5xx, other: the top is the total
        plot->setStatusSplit(StatusSplit::Stacked);
        QVERIFY(!plot->hitsGraph()->visible());
        for (const SecondRecord& record : w->views().history()) {
            const auto& want = expected.at(record.second);
            QCOMPARE(valueAt(plot->statusGraph(1), record.second), double(want[1]));
            QCOMPARE(valueAt(plot->statusGraph(4), record.second),
                     double(want[1] + want[2] + want[3] + want[4]));
            QCOMPARE(valueAt(plot->statusGraph(0), record.second), double(record.hits));
        }
        // new frames keep the stacking, and back to lines gives each class again
        w->session()->seek(at);
        QVERIFY(settleAfterSeek(*w));
        QCOMPARE(valueAt(plot->statusGraph(0), at), double(w->views().history().back().hits));
        plot->setStatusSplit(StatusSplit::Lines);
        QCOMPARE(valueAt(plot->statusGraph(3), at), double(expected.at(at)[3]));
        plot->setStatusSplit(StatusSplit::Off);
        for (int layer = 0; layer < 5; ++layer)
            QVERIFY(!plot->statusGraph(layer)->visible());
        QVERIFY(plot->hitsGraph()->visible());
    }

    void followPicksUpAppendsRotationAndTruncation() {
        const QString log = m_dir.filePath(QStringLiteral("live/access.log"));
        QVERIFY(QDir().mkpath(QFileInfo(log).absolutePath()));
        // Lines already there are not counted: follow starts at the end, like tail -F.
        QByteArray before;
        for (int i = 0; i < 5; ++i)
            before += combinedLine(90, "/old", 200, "10.0.0.9");
        QVERIFY(!writeFile(m_dir, QStringLiteral("live/access.log"), before).isEmpty());
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(kBase + 100));
        MainWindow w(clock);
        w.show();
        QVERIFY(startFollowing(w, log));
        QVERIFY(runningAs<FollowSet>(*w.session()) != nullptr);
        const auto lines = [](int n, int status, int offset) {
            QByteArray text;
            for (int i = 0; i < n; ++i)
                text += combinedLine(offset + i % 5, "/p" + QByteArray::number(i % 3), status,
                                     "10.0.1." + QByteArray::number(i));
            return text;
        };
        const auto totalIs = [&](Count n) {
            return runFramesUntil(w, [&] { return w.views().snapshot().totalHits == n; });
        };
        QVERIFY(appendFile(log, lines(20, 200, 80)));
        QVERIFY2(totalIs(20), qPrintable(QString::number(w.views().snapshot().totalHits)));
        // rotation by rename: the old file moves away, a new one takes its name
        QVERIFY(appendFile(log, lines(4, 404, 85)));  // written just before the rename
        QVERIFY(QFile::rename(log, log + QStringLiteral(".1")));
        QVERIFY(!writeFile(m_dir, QStringLiteral("live/access.log"), lines(7, 500, 90)).isEmpty());
        QVERIFY2(totalIs(31), qPrintable(QString::number(w.views().snapshot().totalHits)));
        QVERIFY(runFramesUntil(w, [&] {
            return runningAs<FollowSet>(*w.session())->followStats().rotations == 1;
        }));
        // truncation in place (copytruncate), then new lines
        QVERIFY(QFile::resize(log, 0));
        QVERIFY(runFramesUntil(w, [&] {
            return runningAs<FollowSet>(*w.session())->followStats().truncations == 1;
        }));
        QVERIFY(appendFile(log, lines(3, 302, 95)));
        QVERIFY2(totalIs(34), qPrintable(QString::number(w.views().snapshot().totalHits)));
        QVERIFY(w.waitForFrame(std::chrono::seconds(2), true));
        QTest::qWait(300);  // a quiet moment: nothing else may arrive
        w.waitForFrame(std::chrono::seconds(1), true);
        QCOMPARE(w.views().snapshot().totalHits, Count{34});
        QCOMPARE(runningAs<FollowSet>(*w.session())->stats().hits, std::uint64_t{34});
        QCOMPARE(runningAs<FollowSet>(*w.session())->stats().lines, std::uint64_t{34});
        // the statuses travelled with the hits
        std::array<Count, kStatusClasses> classes{};
        for (const SecondRecord& r : w.views().history())
            for (std::size_t c = 0; c < kStatusClasses; ++c)
                classes[c] += r.statusHits[c];
        QCOMPARE(classes[2], Count{20});
        QCOMPARE(classes[3], Count{3});
        QCOMPARE(classes[4], Count{4});
        QCOMPARE(classes[5], Count{7});
        // its stats with the other source stats: the status bar and the sources dock
        w.frame();
        // The label elides a long path in the middle to fit the status bar; its tooltip holds
        // the whole line.
        auto* statusLabel = w.findChild<QLabel*>(QStringLiteral("statusSource"));
        QVERIFY(statusLabel->text().startsWith(QStringLiteral("follow ")));
        const QString status = statusLabel->toolTip();
        for (const QString& part :
             {QStringLiteral("follow "), QStringLiteral("lines 34"), QStringLiteral("hits 34"),
              QStringLiteral("bad 0"), QStringLiteral("rotations 1"),
              QStringLiteral("truncations 1")}) {
            QVERIFY2(status.contains(part), qPrintable(status));
        }
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("followStats"))
                    ->text()
                    .contains(QStringLiteral("rotations 1")));
        // a bad line is counted, not a hit
        QVERIFY(appendFile(log, "not a log line\n"));
        QVERIFY(runFramesUntil(
            w, [&] { return runningAs<FollowSet>(*w.session())->stats().badLines == 1; }));
        QCOMPARE(w.views().snapshot().totalHits, Count{34});
    }

    // A followed log whose lines are years behind the clock (issue 23 item 7): its hits count
    // as too late, not in the window, and a banner says how far the newest line is from the
    // clock; it goes when the lines are near the clock. (Before: "hits 30", a window of 0
    // and "too late 0", nothing said.)
    void aFollowedLogFarFromTheClockCountsTooLateAndSaysHowFar() {
        const QString log = m_dir.filePath(QStringLiteral("old/access.log"));
        QVERIFY(QDir().mkpath(QFileInfo(log).absolutePath()));
        QVERIFY(!writeFile(m_dir, QStringLiteral("old/access.log"),
                           combinedLine(0, "/before", 200, "10.0.0.9"))
                     .isEmpty());
        // 16 years, 1 month and a half after the log's time
        auto clock =
            std::make_shared<ManualClock>(std::chrono::seconds(kBase + 505'000'000 + 45 * 86400));
        MainWindow w(clock);
        w.show();
        QVERIFY(startFollowing(w, log));
        QByteArray lines;
        for (int i = 0; i < 30; ++i)
            lines += combinedLine(10 + i % 7, "/old" + QByteArray::number(i % 3), 200,
                                  "10.0.2." + QByteArray::number(i));
        QVERIFY(appendFile(log, lines));
        QVERIFY(runFramesUntil(w, [&] { return w.views().snapshot().totalHits == 30; }));
        QVERIFY(w.waitForFrame(std::chrono::seconds(2), true));
        QCOMPARE(runningAs<FollowSet>(*w.session())->stats().hits, std::uint64_t{30});
        QCOMPARE(w.views().snapshot().droppedLate, Count{30});
        QCOMPARE(w.views().snapshot().windowCount, Count{0});
        QVERIFY(w.views().lastFrame()->top.empty());
        w.frame();
        const QString late = w.findChild<QLabel*>(QStringLiteral("statusLate"))->text();
        QVERIFY2(late.contains(QStringLiteral("too late 30")), qPrintable(late));
        QLabel* banner = w.findChild<QLabel*>(QStringLiteral("clockSkewBanner"));
        QVERIFY(banner && banner->isVisible());
        for (const char* says : {"16 years 1 month", "behind the clock", "access.log",
                                 "count as too late", "its time 2000-10-1"}) {
            QVERIFY2(banner->text().contains(QLatin1String(says)), qPrintable(banner->text()));
        }
        // the clock set near the log: nothing to say
        clock->set(std::chrono::seconds(kBase + 100));
        w.frame();
        QVERIFY(!banner->isVisible());
    }

    void followOfAFileThatIsNoLogShowsWhy() {
        MainWindow w;
        w.show();
        FollowSpec spec;
        spec.file = m_dir.filePath(QStringLiteral("no/such/access.log"));
        QVERIFY(!w.startSpec(spec));
        QVERIFY2(w.errorText().contains(QStringLiteral("access.log")), qPrintable(w.errorText()));
        spec.file = writeFile(m_dir, QStringLiteral("trace.csv"), "timestamp,key\n1,a\n");
        QVERIFY(!w.startSpec(spec));
        QVERIFY2(w.errorText().contains(QStringLiteral("trace CSV")), qPrintable(w.errorText()));
    }
};

HITCOUNTER_TEST_MAIN(TestAccessLogsInWindow)
#include "tst_access_logs_in_window.moc"
