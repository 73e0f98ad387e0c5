// The screen's state (--state-json, ui/window/state_json.h) against independent counts: a real
// Combined log file replayed by the real program with --status-split stacked --seek T, its
// per_second checked against a count of the file's own lines (read here with a regular
// expression, not the program's parser); the ring's slots against the policies' window count;
// a live source's state after --after S; the time zone named; the alerts listed.
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <array>
#include <limits>
#include <map>

#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "tests/ui/gui_test_steps.h"
#include "tests/ui/known_inputs.h"
#include "ui/monitor/threshold_alerts.h"
#include "ui/window/main_window.h"
#include "ui/window/state_json.h"
#include "ui/window/view_fan_out.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

// 2009-03-01 18:40:00 +1200 = 06:40:00 UTC.
constexpr qint64 kLogStart = 1235889600;
constexpr int kLogSeconds = 700;

// A Combined log as Apache writes it in a +1200 zone: every status class, 1xx and "-" (other),
// lines logged late (at the end of a slow request), a blank line and a line that is no log
// line at all. Line order is the file's; times are written in local +1200 time.
QByteArray combinedLog() {
    QByteArray log;
    const auto line = [&](qint64 utc, const char* path, const char* status, int client) {
        const QDateTime local = QDateTime::fromSecsSinceEpoch(utc, QTimeZone(12 * 3600));
        log += QStringLiteral(
                   "203.0.113.%1 - - [%2 +1200] \"GET %3 HTTP/1.1\" %4 %5 "
                   "\"http://www.example.org/\" \"Mozilla/5.0 (X11; U; Linux i686; "
                   "en-US; rv:1.9.0.7) Gecko/2009021910 Firefox/3.0.7\"\n")
                   .arg(client)
                   .arg(QLocale::c().toString(local, QStringLiteral("dd/MMM/yyyy:hh:mm:ss")))
                   .arg(QString::fromLatin1(path), QString::fromLatin1(status))
                   .arg(200 + client)
                   .toUtf8();
    };
    for (int s = 0; s < kLogSeconds; ++s) {
        const qint64 t = kLogStart + s;
        for (int i = 0; i < 1 + s % 5; ++i) {
            line(t, "/index.html", "200", i);
        }
        if (s % 3 == 0) {
            line(t, "/old", s % 2 ? "301" : "304", 7);
        }
        if (s % 4 == 0) {
            line(t, "/missing", "404", 9);
        }
        if (s % 17 == 0) {
            line(t, "/cgi-bin/app", "503", 11);
        }
        if (s % 23 == 0) {
            line(t, "/upgrade", "101", 12);
        }
        if (s % 29 == 0) {
            line(t, "/broken", "-", 13);
        }
        if (s % 13 == 0 && s >= 4) {
            line(t - 4, "/slow", "200", 14);  // logged when it ended, 4 s late
        }
        if (s == 100) {
            log += "\n";
            log += "this is not a log line\n";
        }
    }
    return log;
}

struct PerSecond {
    std::array<qint64, 6> counts{};  // hits, 2xx, 3xx, 4xx, 5xx, other
};

// The seconds a replay has delivered by trace time T, counted from the file's lines: the lines
// in file order up to the first one past T (a replay sends each line when its second comes),
// per second and status class.
std::map<qint64, PerSecond> countLines(const QByteArray& log, qint64 at) {
    // client ident user [dd/Mon/yyyy:hh:mm:ss +hhmm] "request" status ...
    static const QRegularExpression kLine(
        QStringLiteral("^\\S+ \\S+ \\S+ \\[(\\d\\d/\\w\\w\\w/\\d{4}:\\d\\d:\\d\\d:\\d\\d) "
                       "([+-])(\\d\\d)(\\d\\d)\\] "
                       "\"[^\"]*\" (\\S+) "));
    std::map<qint64, PerSecond> seconds;
    for (const QByteArray& raw : log.split('\n')) {
        const QRegularExpressionMatch m = kLine.match(QString::fromUtf8(raw));
        if (!m.hasMatch()) {
            continue;  // the blank and the bad line
        }
        QDateTime local =
            QLocale::c().toDateTime(m.captured(1), QStringLiteral("dd/MMM/yyyy:hh:mm:ss"));
        const int offset = (m.captured(2) == QLatin1String("-") ? -1 : 1) *
                           (m.captured(3).toInt() * 3600 + m.captured(4).toInt() * 60);
        local.setTimeZone(QTimeZone(offset));
        const qint64 t = local.toSecsSinceEpoch();
        if (t > at) {
            break;
        }
        const QString status = m.captured(5);
        const int cls = status.size() == 3 && status[0] >= QLatin1Char('2') &&
                                status[0] <= QLatin1Char('5') && status[1].isDigit() &&
                                status[2].isDigit()
                            ? status[0].digitValue() - 1  // 2xx -> 1 ... 5xx -> 4
                            : 5;                          // 1xx, "-": other
        ++seconds[t].counts[0];
        ++seconds[t].counts[std::size_t(cls)];
    }
    return seconds;
}

struct Run {
    int exitCode = -1;
    QByteArray errors;
    QJsonObject state;          // the first (or only) state written
    QList<QJsonObject> states;  // every JSON line written (one per --seek T1,T2,...)
};

Run runGui(const QStringList& args, const QString& out) {
    QProcess gui;
    gui.start(QStringLiteral(HITCOUNTER_GUI),
              args + QStringList{QStringLiteral("--state-json"), out});
    Run run;
    if (!gui.waitForFinished(90000)) {
        gui.kill();
        gui.waitForFinished();
        return run;
    }
    run.exitCode = gui.exitCode();
    run.errors = gui.readAllStandardError();
    QFile file(out);
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (!line.isEmpty()) {
                run.states << QJsonDocument::fromJson(line).object();
            }
        }
    }
    if (!run.states.isEmpty()) {
        run.state = run.states.first();
    }
    return run;
}

qint64 field(const QJsonObject& o, const char* name) {
    return qint64(o.value(QLatin1String(name)).toDouble());
}

// Checks that `state`'s per_second holds the window W = 300 s up to `at` (from the file's first
// second if that is later: the plot starts there), each second's hits
// and per-class hits as countLines() reads `log`, and that they add up to the ring's and the
// deque's window count. Sets `classTotals` to the window's totals (hits, 2xx, ... other); the
// caller stops if QTest::currentTestFailed().
void verifyPerSecondAsTheFileSays(const QJsonObject& state, const QByteArray& log, qint64 at,
                                  std::array<qint64, 6>& classTotals) {
    classTotals = {};
    const std::map<qint64, PerSecond> expected = countLines(log, at);
    const QJsonArray perSecond = state.value(QStringLiteral("per_second")).toArray();
    QVERIFY(!expected.empty());
    const qint64 from = std::max(at - 299, expected.begin()->first);
    QCOMPARE(perSecond.size(), qsizetype(at - from + 1));  // every second of the window
    for (qsizetype i = 0; i < perSecond.size(); ++i) {
        const QJsonObject second = perSecond[i].toObject();
        const qint64 t = field(second, "t");
        QCOMPARE(t, from + i);
        const auto it = expected.find(t);
        const PerSecond want = it == expected.end() ? PerSecond{} : it->second;
        const char* names[] = {"hits", "2xx", "3xx", "4xx", "5xx", "other"};
        for (std::size_t c = 0; c < 6; ++c) {
            QVERIFY2(field(second, names[c]) == want.counts[c],
                     qPrintable(QStringLiteral("second %1 %2: %3, the file says %4")
                                    .arg(t)
                                    .arg(QLatin1String(names[c]))
                                    .arg(field(second, names[c]))
                                    .arg(want.counts[c])));
            classTotals[c] += want.counts[c];
        }
    }
    const QJsonObject policies = state.value(QStringLiteral("policies")).toObject();
    QCOMPARE(qint64(policies.value(QStringLiteral("ring")).toDouble()), classTotals[0]);
    QCOMPARE(qint64(policies.value(QStringLiteral("deque")).toDouble()), classTotals[0]);
}

}  // namespace

class TestStateJson : public QObject {
    Q_OBJECT
private:
    // Writes `bytes` to `name` in the test's folder: its path, or empty if it cannot.
    QString writeInDir(const QString& name, const QByteArray& bytes) const {
        const QString path = m_dir.filePath(name);
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size()) {
            return {};
        }
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_state_json"));
        QVERIFY(m_dir.isValid());
    }

    // The done-when test of issue 23: --status-split stacked draws the classes as a stack,
    // yet per_second holds each class's own hits, second by second as the file says.
    void aStackedReplayOfACombinedLogReportsEachSecondAsTheFileSays() {
        const QByteArray log = combinedLog();
        const QString file = writeInDir(QStringLiteral("access.log"), log);
        QVERIFY(!file.isEmpty());
        const qint64 at = kLogStart + 640;
        const Run run =
            runGui({QStringLiteral("--replay"), file, QStringLiteral("--status-split"),
                    QStringLiteral("stacked"), QStringLiteral("--seek"), QString::number(at),
                    QStringLiteral("--time-zone"), QStringLiteral("log")},
                   m_dir.filePath(QStringLiteral("stacked.json")));
        QVERIFY2(run.exitCode == 0, run.errors.constData());
        const QJsonObject& state = run.state;
        QCOMPARE(field(state, "time"), at);
        const std::map<qint64, PerSecond> expected = countLines(log, at);
        std::array<qint64, 6> classTotals{};
        verifyPerSecondAsTheFileSays(state, log, at, classTotals);
        if (QTest::currentTestFailed()) {
            return;
        }
        for (qint64 total : classTotals) {
            QVERIFY(total > 0);  // every class occurs in the window
        }
        const qint64 windowHits = classTotals[0];
        // The zone shown is the log's own, and the source says what it is doing.
        QCOMPARE(state.value(QStringLiteral("time_zone")).toString(), QStringLiteral("UTC+12:00"));
        QCOMPARE(state.value(QStringLiteral("time_zone_choice")).toString(), QStringLiteral("log"));
        const QJsonObject source = state.value(QStringLiteral("source")).toObject();
        QCOMPARE(source.value(QStringLiteral("kind")).toString(), QStringLiteral("replay"));
        QCOMPARE(source.value(QStringLiteral("state")).toString(), QStringLiteral("paused"));
        // The line that is no log line is a warning.
        const QJsonArray warnings = source.value(QStringLiteral("warnings")).toArray();
        QStringList texts;
        for (const QJsonValue& warning : warnings) {
            texts << warning.toString();
        }
        QVERIFY2(texts.join(QLatin1Char('|')).contains(QLatin1String("bad lines")),
                 qPrintable(texts.join(QLatin1Char('|'))));

        // The ring: W slots, slot = second mod W, the window's slots hold the window's hits.
        const QJsonArray ring = state.value(QStringLiteral("ring")).toArray();
        QCOMPARE(ring.size(), 300);
        qint64 inWindow = 0;
        for (qsizetype i = 0; i < ring.size(); ++i) {
            const QJsonObject slot = ring[i].toObject();
            QCOMPARE(field(slot, "slot"), qint64(i));
            if (!slot.value(QStringLiteral("in_window")).toBool()) {
                continue;
            }
            const qint64 second = field(slot, "second");
            QVERIFY(second > at - 300 && second <= at);
            QCOMPARE(second % 300, qint64(i));
            const auto it = expected.find(second);
            QCOMPARE(field(slot, "count"), it == expected.end() ? 0 : it->second.counts[0]);
            inWindow += field(slot, "count");
        }
        QCOMPARE(inWindow, windowHits);
        QVERIFY(state.value(QStringLiteral("alerts")).toArray().isEmpty());  // no threshold
    }

    // The same on a real Combined log no one here wrote: logstalgia's example, 3,260 lines of
    // a 2009 Apache server in a +1200 zone (Debian's logstalgia package, installed by
    // scripts/install-deps.sh), seeked to a second between its first and last line.
    void aStackedReplayOfARealApacheLogReportsEachSecondAsTheFileSays() {
        QFile real(QStringLiteral("/usr/share/logstalgia/example.log"));
        QVERIFY2(real.open(QIODevice::ReadOnly),
                 "no /usr/share/logstalgia/example.log: run scripts/install-deps.sh");
        const QByteArray log = real.readAll();
        // 22/Apr/2009:18:52:51 +1200, the first line, to 18:56:51, the last.
        constexpr qint64 kFirst = 1240383171;
        constexpr qint64 kLast = 1240383411;
        const QList<qint64> seeks{kFirst + 150, kLast};
        const Run run =
            runGui({QStringLiteral("--replay"), real.fileName(), QStringLiteral("--status-split"),
                    QStringLiteral("stacked"), QStringLiteral("--seek"),
                    QStringLiteral("%1,%2").arg(seeks[0]).arg(seeks[1])},
                   m_dir.filePath(QStringLiteral("real.json")));
        QVERIFY2(run.exitCode == 0, run.errors.constData());
        QCOMPARE(run.states.size(), seeks.size());  // one state per seek
        for (qsizetype i = 0; i < seeks.size(); ++i) {
            const qint64 at = seeks[i];
            QCOMPARE(field(run.states[i], "time"), at);
            std::array<qint64, 6> classTotals{};
            verifyPerSecondAsTheFileSays(run.states[i], log, at, classTotals);
            if (QTest::currentTestFailed()) {
                return;
            }
            // Its 200s, 302s and 304s and its 404s are in the window.
            QVERIFY(classTotals[1] > 0 && classTotals[2] > 0 && classTotals[3] > 0);
            if (at == kLast) {
                QCOMPARE(classTotals[0], qint64(3260));  // every line, the window spans them all
            }
        }
    }

    // Issue 28: --filter "status!=200" on the same real log: every second of the window holds
    // exactly the log's lines whose status is not 200, as this test picks them from the text.
    void aFilteredReplayCountsOnlyTheLinesTheFilterAccepts() {
        QFile real(QStringLiteral("/usr/share/logstalgia/example.log"));
        QVERIFY2(real.open(QIODevice::ReadOnly),
                 "no /usr/share/logstalgia/example.log: run scripts/install-deps.sh");
        static const QRegularExpression kStatus(QStringLiteral("\\] \"[^\"]*\" (\\S+) "));
        QByteArray accepted;
        for (const QByteArray& line : real.readAll().split('\n')) {
            const QRegularExpressionMatch m = kStatus.match(QString::fromUtf8(line));
            if (m.hasMatch() && m.captured(1) != QLatin1String("200")) {
                accepted += line + '\n';
            }
        }
        QVERIFY(!accepted.isEmpty());
        // Seeked to the last accepted line's second (the trace's end: a later seek stops there).
        const qint64 last =
            countLines(accepted, std::numeric_limits<qint64>::max()).rbegin()->first;
        const Run run =
            runGui({QStringLiteral("--replay"), real.fileName(), QStringLiteral("--filter"),
                    QStringLiteral("status!=200"), QStringLiteral("--status-split"),
                    QStringLiteral("stacked"), QStringLiteral("--seek"), QString::number(last)},
                   m_dir.filePath(QStringLiteral("filtered.json")));
        QVERIFY2(run.exitCode == 0, run.errors.constData());
        QCOMPARE(run.states.size(), qsizetype(1));
        QCOMPARE(field(run.states[0], "time"), last);
        const QJsonObject source = run.states[0].value(QStringLiteral("source")).toObject();
        QCOMPARE(source.value(QStringLiteral("filter")).toString(), QStringLiteral("status!=200"));
        QCOMPARE(field(source, "filtered_lines"), qint64(3260 - accepted.count('\n')));
        std::array<qint64, 6> classTotals{};
        verifyPerSecondAsTheFileSays(run.states[0], accepted, last, classTotals);
        if (QTest::currentTestFailed()) {
            return;
        }
        // The window spans the whole log: all of its non-200 lines, and only those.
        QCOMPARE(classTotals[0], qint64(accepted.count('\n')));
        QVERIFY(classTotals[0] > 0 && classTotals[0] < 3260);
        QVERIFY(classTotals[2] > 0 && classTotals[3] > 0);  // its 302s, 304s and 404s
    }

    // Issue 27: --seek T1,T2,... makes the seeks one after the other in one running window,
    // forward, back (restoring what it counted before) and forward again, and writes one state
    // per seek, each with seek_ms, each as the file says at its second.
    void severalSeeksInOneWindowEachReportTheFileAtTheirSecond() {
        const QByteArray log = combinedLog();
        const QString file = writeInDir(QStringLiteral("seeks.log"), log);
        QVERIFY(!file.isEmpty());
        const QList<qint64> seeks{kLogStart + 640, kLogStart + 130, kLogStart + 699,
                                  kLogStart + 401, kLogStart + 640};
        QStringList targets;
        for (const qint64 at : seeks) {
            targets << QString::number(at);
        }
        const Run run =
            runGui({QStringLiteral("--replay"), file, QStringLiteral("--seek"), targets.join(',')},
                   m_dir.filePath(QStringLiteral("seeks.json")));
        QVERIFY2(run.exitCode == 0, run.errors.constData());
        QCOMPARE(run.states.size(), seeks.size());
        for (qsizetype i = 0; i < seeks.size(); ++i) {
            const QJsonObject& state = run.states[i];
            QCOMPARE(field(state, "time"), seeks[i]);
            const QJsonValue took = state.value(QStringLiteral("seek_ms"));
            QVERIFY2(took.isDouble() && took.toDouble() >= 0,
                     qPrintable(QStringLiteral("seek %1: seek_ms %2")
                                    .arg(i)
                                    .arg(QString::fromUtf8(QJsonDocument(state).toJson()))));
            std::array<qint64, 6> classTotals{};
            verifyPerSecondAsTheFileSays(state, log, seeks[i], classTotals);
            if (QTest::currentTestFailed()) {
                return;
            }
        }
        // The same second twice: the same screen, whatever was seeked in between.
        QJsonObject first = run.states.first();
        QJsonObject last = run.states.last();
        first.remove(QStringLiteral("seek_ms"));
        last.remove(QStringLiteral("seek_ms"));
        QCOMPARE(last, first);
    }

    // A live source: --after S, then the state at the head; the per-second history and the
    // ring counter, two separate paths, agree on the window.
    void aLiveSourceIsWrittenAfterSSeconds() {
        const Run run =
            runGui({QStringLiteral("--simulate"), QStringLiteral("steady"),
                    QStringLiteral("--rate"), QStringLiteral("300"), QStringLiteral("--after"),
                    QStringLiteral("1.5"), QStringLiteral("--time-zone"), QStringLiteral("utc")},
                   m_dir.filePath(QStringLiteral("live.json")));
        QVERIFY2(run.exitCode == 0, run.errors.constData());
        const QJsonObject source = run.state.value(QStringLiteral("source")).toObject();
        QCOMPARE(source.value(QStringLiteral("kind")).toString(), QStringLiteral("simulator"));
        QCOMPARE(source.value(QStringLiteral("state")).toString(), QStringLiteral("live"));
        QCOMPARE(run.state.value(QStringLiteral("time_zone")).toString(), QStringLiteral("UTC"));
        const QJsonArray perSecond = run.state.value(QStringLiteral("per_second")).toArray();
        QVERIFY(!perSecond.isEmpty());
        qint64 sum = 0;
        for (const QJsonValue& second : perSecond) {
            const QJsonObject s = second.toObject();
            sum += field(s, "hits");
            // per class, whatever the mode: the classes add up to the hits
            QCOMPARE(field(s, "2xx") + field(s, "3xx") + field(s, "4xx") + field(s, "5xx") +
                         field(s, "other"),
                     field(s, "hits"));
        }
        QCOMPARE(field(perSecond.last().toObject(), "t"), field(run.state, "time"));
        const qint64 ring =
            qint64(run.state.value(QStringLiteral("policies")).toObject().value("ring").toDouble());
        QVERIFY(ring > 0);
        QCOMPARE(sum, ring);
    }

    // A listener with --after: its kind, "live", and a port that cannot be had fails cleanly.
    void aListenerIsWrittenAndATakenPortFails() {
        const Run run = runGui({QStringLiteral("--listen-udp"), QStringLiteral("127.0.0.1:0"),
                                QStringLiteral("--after"), QStringLiteral("0.5")},
                               m_dir.filePath(QStringLiteral("udp.json")));
        QVERIFY2(run.exitCode == 0, run.errors.constData());
        const QJsonObject source = run.state.value(QStringLiteral("source")).toObject();
        QCOMPARE(source.value(QStringLiteral("kind")).toString(), QStringLiteral("statsd-udp"));
        QCOMPARE(source.value(QStringLiteral("state")).toString(), QStringLiteral("live"));
        QVERIFY(run.state.value(QStringLiteral("per_second")).toArray().isEmpty());
        const Run bad = runGui({QStringLiteral("--listen-udp"), QStringLiteral("256.1.1.1:1"),
                                QStringLiteral("--after"), QStringLiteral("0.5")},
                               m_dir.filePath(QStringLiteral("bad.json")));
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.errors.contains("256.1.1.1"), bad.errors.constData());
    }

    // The alerts listed: crossings of the threshold by the window count, against the known
    // stream's window counts computed here (1, 3, 6, 10, 15, ... hits).
    void theAlertsAreTheCrossingsOfTheThreshold() {
        MainWindow w(std::make_shared<ManualClock>());
        w.thresholdAlerts()->setThreshold(15);
        testing::pushKnownStream(w.queue());
        QVERIFY(testing::framesUntil(w, [&] { return w.views().snapshot().windowCount == 55; }));
        const QJsonObject state =
            QJsonDocument::fromJson(stateJson(w, w.views().snapshot().head)).object();
        const QJsonArray alerts = state.value(QStringLiteral("alerts")).toArray();
        // window count at second 1000 + i is (i + 1)(i + 2) / 2: first >= 15 at i = 4
        QCOMPARE(alerts.size(), 1);
        const QJsonObject up = alerts[0].toObject();
        QCOMPARE(up.value(QStringLiteral("key")).toString(), QStringLiteral("total"));
        QCOMPARE(field(up, "threshold"), qint64(15));
        QCOMPARE(field(up, "time"), qint64(1004));
        QCOMPARE(up.value(QStringLiteral("direction")).toString(), QStringLiteral("up"));
        // Field order as documented: time first, the new fields after the old ones.
        const QByteArray text = stateJson(w, 1009);
        QVERIFY(text.startsWith("{\"time\": 1009, \"total\": 55, \"policies\": {"));
        QVERIFY(text.indexOf("\"keys\"") < text.indexOf("\"time_zone\""));
        QVERIFY(text.indexOf("\"source\"") < text.indexOf("\"per_second\""));
    }

private:
    QTemporaryDir m_dir;
};

HITCOUNTER_TEST_MAIN(TestStateJson)
#include "tst_state_json.moc"
