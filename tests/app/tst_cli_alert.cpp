// hitcounter-cli --alert: replay on a real Combined log no one here wrote (logstalgia's
// example, 3,260 lines) against the test's own evaluation (each line split and its time read
// here, window counts summed second by second, each rule's state walked by hand); the JSON
// form; exit codes; and listen over real UDP on 127.0.0.1 with statsd names and tags.
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <cmath>
#include <csignal>
#include <functional>
#include <thread>

#include "tests/app/cli_process.h"
#include "tests/app/listen_process.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;

namespace {

const QString kRealLog = QStringLiteral("/usr/share/logstalgia/example.log");
constexpr qint64 kWindow = 300;

struct Line {
    qint64 time;
    int status;
    qint64 bytes;  // "-": 0
};

// `host - - [22/Apr/2009:18:52:51 +1200] "GET / HTTP/1.1" 200 ...`: its unix second and status.
std::vector<Line> readLog(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    static const QStringList months{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::vector<Line> lines;
    for (const QByteArray& text : file.readAll().split('\n')) {
        if (text.isEmpty())
            continue;
        const QString stamp = QString::fromLatin1(text.mid(text.indexOf('[') + 1, 26));
        const QDate date(stamp.mid(7, 4).toInt(), int(months.indexOf(stamp.mid(3, 3))) + 1,
                         stamp.left(2).toInt());
        const QTime clock(stamp.mid(12, 2).toInt(), stamp.mid(15, 2).toInt(),
                          stamp.mid(18, 2).toInt());
        const int offset = (stamp.mid(22, 2).toInt() * 60 + stamp.mid(24, 2).toInt()) * 60 *
                           (stamp[21] == '-' ? -1 : 1);
        const qint64 utc = QDateTime(date, clock, QTimeZone::utc()).toSecsSinceEpoch() - offset;
        const QList<QByteArray> statusAndSize = text.split('"').value(2).trimmed().split(' ');
        lines.push_back({utc, statusAndSize.value(0).toInt(), statusAndSize.value(1).toLongLong()});
    }
    return lines;
}

// A value as the command prints it: nan, a whole number in full, else 6 significant digits.
QString valueText(double v) {
    if (std::isnan(v))
        return "nan";
    return v == std::floor(v) && std::abs(v) < 1e15 ? QString::number(qint64(v))
                                                    : QString::number(v, 'g', 6);
}

// A rule as the test states it: its value from the window's hits, its 3xx hits and their
// bytes, and its thresholds.
struct RuleByHand {
    QString name;
    std::function<double(double all, double redirects, double bytes)> value;
    std::function<bool(double)> holds, clears;
    qint64 holdFor;
};

// The lines' rules evaluated as the command reads them: before a line of second t, every
// second not yet evaluated before t, over the lines read so far; at the end through the newest.
QStringList evaluateByHand(const std::vector<Line>& lines, const std::vector<RuleByHand>& rules) {
    QStringList out{"time,rule,state,value"};
    std::vector<Line> read;
    std::vector<int> state(rules.size(), 0);  // 0 inactive, 1 pending, 2 firing
    std::vector<qint64> since(rules.size(), 0);
    qint64 evaluated = lines.front().time - 1, newest = lines.front().time;
    const auto evaluate = [&](qint64 s) {
        double all = 0, redirects = 0, bytes = 0;
        for (const Line& l : read)
            if (l.time > s - kWindow && l.time <= s) {
                ++all;
                redirects += l.status >= 300 && l.status < 400 ? 1 : 0;
                bytes += double(l.bytes);
            }
        for (std::size_t r = 0; r < rules.size(); ++r) {
            double v = rules[r].value(all, redirects, bytes);  // 0 / 0: NaN, as the command
            v = std::isinf(v) ? std::nan("") : v;              // x / 0: undefined too
            const QString line = QStringLiteral("%1,%2,%3,%4").arg(s).arg(rules[r].name);
            const QString shown = valueText(v);
            if (state[r] == 2) {
                if (std::isnan(v) || rules[r].clears(v)) {
                    state[r] = 0;
                    out << line.arg("cleared", shown);
                }
            } else if (std::isnan(v) || !rules[r].holds(v)) {
                state[r] = 0;
            } else {
                if (state[r] == 0)
                    state[r] = 1, since[r] = s;
                if (s - since[r] >= rules[r].holdFor) {
                    state[r] = 2;
                    out << line.arg("firing", shown);
                }
            }
        }
    };
    for (const Line& l : lines) {
        for (; evaluated < l.time - 1; ++evaluated)
            evaluate(evaluated + 1);
        read.push_back(l);
        newest = std::max(newest, l.time);
    }
    for (; evaluated < newest; ++evaluated)
        evaluate(evaluated + 1);
    return out;
}

QStringList linesOf(const QByteArray& out) {
    QStringList lines = QString::fromUtf8(out).split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

}  // namespace

class TestCliAlert : public QObject {
    Q_OBJECT

private:
    std::vector<Line> m_log;
    // Redirects above 19.5 % for 10 s, clearing below 19 % (the log hovers around 19-20 %);
    // a busy window (2,000 hits) clearing under 1,500; 20 MB sent in the window (of 35 MB).
    const QStringList m_rules{"redirects: count(status=3xx) / count(*) > 19.5% for 10s clear < 19%",
                              "busy: count(*) >= 2000 clear < 1500", "heavy: bytes(*) >= 20000000"};
    const std::vector<RuleByHand> m_byHand{
        {"redirects", [](double all, double r, double) { return r / all; },
         [](double v) { return v > 19.5 / 100; }, [](double v) { return v < 19.0 / 100; }, 10},
        {"busy", [](double all, double, double) { return all; }, [](double v) { return v >= 2000; },
         [](double v) { return v < 1500; }, 0},
        {"heavy", [](double, double, double bytes) { return bytes; },
         [](double v) { return v >= 20'000'000; }, [](double v) { return v < 20'000'000; }, 0}};

private Q_SLOTS:
    void initTestCase() {
        m_log = readLog(kRealLog);
        if (m_log.empty())
            QFAIL("no /usr/share/logstalgia/example.log: run scripts/install-deps.sh");
        QCOMPARE(m_log.size(), std::size_t{3260});
    }

    void replayFiresAndClearsAsTheTestsOwnEvaluation() {
        const QStringList expected = evaluateByHand(m_log, m_byHand);
        // The log must make both rules fire, and one clear, for the check to mean something.
        QVERIFY2(expected.filter(",redirects,firing,").size() >= 1 &&
                     expected.filter(",redirects,cleared,").size() >= 1 &&
                     expected.filter(",busy,firing,").size() == 1 &&
                     expected.filter(",heavy,firing,").size() == 1,
                 qPrintable(expected.join('\n')));
        const CliResult r = runCli({"replay", kRealLog, "--alert", m_rules[0], "--alert",
                                    m_rules[1], "--alert", m_rules[2]});
        QCOMPARE(r.exitCode, 3);  // a rule fired
        QCOMPARE(linesOf(r.out), expected);
        QVERIFY(r.err.isEmpty());
    }

    void replayJsonHasTheSameTransitionsAndEachRule() {
        const QStringList expected = evaluateByHand(m_log, m_byHand);
        const CliResult r = runCli({"replay", kRealLog, "--json", "--alert", m_rules[0], "--alert",
                                    m_rules[1], "--alert", m_rules[2]});
        QCOMPARE(r.exitCode, 3);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QStringList lines{"time,rule,state,value"};
        for (const QJsonValue a : j["alerts"].toArray())
            lines << QStringLiteral("%1,%2,%3,%4")
                         .arg(a["time"].toInteger())
                         .arg(a["rule"].toString(), a["state"].toString(),
                              valueText(a["value"].toDouble()));
        QCOMPARE(lines, expected);
        const QJsonArray rules = j["alert_rules"].toArray();
        QCOMPARE(rules.size(), 3);
        QCOMPARE(rules[0]["name"].toString(), QString("redirects"));
        QCOMPARE(rules[0]["rule"].toString(), m_rules[0]);
        QCOMPARE(rules[0]["fired"].toInteger(),
                 qint64(expected.filter(",redirects,firing,").size()));
        QCOMPARE(rules[1]["fired"].toInteger(), 1);
        QCOMPARE(j["rows"].toInteger(), 3260);
    }

    // The same rules from a file (a comment, a blank line, CRLF line ends, indentation), and a
    // command run for each transition with the alert in its environment, in order (replay waits
    // for each); its stdout goes to stderr, its exit code 4 is named there.
    void rulesFileAndCommandSeeEveryTransition() {
        QTemporaryDir dir;
        const QString rules = dir.filePath("rules.txt");
        const QString seen = dir.filePath("seen.txt");
        QFile file(rules);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# the log's redirects and load\r\n\r\n  " + m_rules[0].toUtf8() + "\r\n" +
                   m_rules[1].toUtf8() + "\n" + m_rules[2].toUtf8() + "\n");
        file.close();
        const CliResult r =
            runCli({"replay", kRealLog, "--alert-file", rules, "--alert-command",
                    "printf '%s,%s,%s,%s\\n' \"$HITCOUNTER_ALERT_TIME\" \"$HITCOUNTER_ALERT_RULE\" "
                    "\"$HITCOUNTER_ALERT_STATE\" \"$HITCOUNTER_ALERT_VALUE\" >> '" +
                        seen + "'; echo from-the-command; exit 4"});
        QCOMPARE(r.exitCode, 3);
        const QStringList expected = evaluateByHand(m_log, m_byHand);
        QCOMPARE(linesOf(r.out), expected);
        QFile commandOut(seen);
        QVERIFY(commandOut.open(QIODevice::ReadOnly));
        QCOMPARE(QStringList{"time,rule,state,value"} + linesOf(commandOut.readAll()), expected);
        QCOMPARE(r.err.count("from-the-command\n"), expected.size() - 1);
        QVERIFY2(r.err.contains("hitcounter-cli: --alert-command: exited with code 4 for "
                                "redirects firing at "),
                 r.err.constData());
    }

    void badRulesFilesAreNamed() {
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(bytes);
            return f.fileName();
        };
        const QString bad = write("bad.txt", "a: count(*) > 1\nb: count(foo=1) > 2\n");
        CliResult r = runCli({"replay", kRealLog, "--alert-file", bad});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(QString::fromUtf8(r.err),
                 "hitcounter-cli: " + bad +
                     ":2: column 10: unknown field 'foo'; expected status, method, path, vhost, "
                     "client, name or tag\n");
        const QString empty = write("empty.txt", "# nothing yet\n\n");
        r = runCli({"replay", kRealLog, "--alert-file", empty});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(QString::fromUtf8(r.err).contains(empty + ": no rule in it"));
        const QString huge = write("huge.txt", QByteArray((1 << 20) + 1, '#'));
        r = runCli({"replay", kRealLog, "--alert-file", huge});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(huge + ": more than 1048576 bytes"),
                 r.err.constData());
        r = runCli({"replay", kRealLog, "--alert-file", "/dev/zero"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("'/dev/zero': it is a character device"));
        r = runCli({"replay", kRealLog, "--alert-command", "true"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--alert-command needs a rule"));
        QVERIFY(r.out.isEmpty());
    }

    void ruleOnResponseTimesTheLogLacksIsNamed() {
        const CliResult r = runCli({"replay", kRealLog, "--alert", "slow: p99(*) > 1"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("time,rule,state,value\n"));
        QVERIFY2(r.err.startsWith("hitcounter-cli: --alert slow: no hit named its response time"),
                 r.err.constData());
    }

    void nothingFiredExitsWith0() {
        const CliResult r = runCli({"replay", kRealLog, "--alert", "count(status=5xx) > 0"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("time,rule,state,value\n"));
    }

    void badRulesExitWith2NamingTheColumn_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no threshold")
            << QStringList{"replay", kRealLog, "--alert", "count(*) >"}
            << "hitcounter-cli: --alert 'count(*) >': column 11: expected a number, found the "
               "end\n";
        QTest::newRow("bad filter inside")
            << QStringList{"replay", kRealLog, "--alert", "count(code=5) > 1"}
            << "hitcounter-cli: --alert 'count(code=5) > 1': column 7: unknown field 'code'; "
               "expected status, method, path, vhost, client, name or tag\n";
        QTest::newRow("same name twice")
            << QStringList{"replay",          kRealLog,  "--alert",
                           "a: count(*) > 1", "--alert", "a: count(*) > 2"}
            << "hitcounter-cli: --alert: two rules are named a; expected a name of its own for "
               "each rule\n";
        QTest::newRow("with --top")
            << QStringList{"replay", kRealLog, "--top", "3", "--alert", "count(*) > 1"}
            << "hitcounter-cli: --alert evaluates every second and prints what fires; it is not "
               "used with --top\n";
        QTest::newRow("statsd has no status")
            << QStringList{"listen", "--udp", "127.0.0.1:0", "--alert", "count(status=5xx) > 1"}
            << "hitcounter-cli: filter 'status=5xx': column 1: field 'status' is not in statsd "
               "lines (they have name and tag)\n";
    }

    void badRulesExitWith2NamingTheColumn() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliResult r = runCli(arguments);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(QString::fromUtf8(r.err), message);
        QVERIFY(r.out.isEmpty());
    }

    // statsd over real UDP: one datagram of 60 error lines, 30 others and 100 timers; each rule
    // fires at the second they arrived, with the value the test sent.
    void listenFiresOnStatsdNamesAndTags() {
        ListeningCli cli;
        QTemporaryDir dir;
        const QString seen = dir.filePath("seen.txt");
        QVERIFY(cli.start(
            {"--udp", "127.0.0.1:0", "--json", "--alert", "errors: count(name=api.err) >= 50",
             "--alert", "prod: count(tag=env:prod) > 25", "--alert", "quiet: count(*) > 1000",
             "--alert", "slow: p99(name=api.latency) > 0.25", "--alert-command",
             "echo \"$HITCOUNTER_ALERT_RULE $HITCOUNTER_ALERT_VALUE\" >> '" + seen + "'"},
            1));
        QByteArray datagram;
        for (int i = 0; i < 60; ++i)
            datagram += "api.err:1|c\n";
        for (int i = 0; i < 30; ++i)
            datagram += "api.ok:1|c|#env:prod\n";
        // 100 timers: the 99th fastest (the nearest-rank p99) took 400 ms.
        for (int i = 0; i < 100; ++i)
            datagram += i < 95 ? "api.latency:100|ms\n" : "api.latency:400|ms\n";
        // Two errors with their own time, in 1970 and in 2286: counted, not seen by the rules.
        datagram += "api.err:1|c|T1\napi.err:1|c|T9999999999\n";
        UniqueFd udp = udpSender(cli.port("statsd udp"));
        const qint64 sentAt = QDateTime::currentSecsSinceEpoch();
        QVERIFY(sendAll(udp.get(), datagram.toStdString()));
        // The command evaluates every second that has ended by its stop: wait until the
        // second of the datagram (or the next, if it arrived across a boundary) has.
        while (QDateTime::currentSecsSinceEpoch() < sentAt + 3)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const CliResult r = cli.stop(SIGTERM);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 3);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["hits"].toInteger(), 192);
        QVERIFY2(r.err.contains("--alert: 2 hit(s) carried their own time outside the wall "
                                "clock's window"),
                 r.err.constData());
        const QJsonArray alerts = j["alerts"].toArray();
        QCOMPARE(alerts.size(), 3);
        QCOMPARE(alerts[0]["rule"].toString(), QString("errors"));
        QCOMPARE(alerts[0]["value"].toDouble(), 60.0);
        QCOMPARE(alerts[1]["rule"].toString(), QString("prod"));
        QCOMPARE(alerts[1]["value"].toDouble(), 30.0);
        QCOMPARE(alerts[2]["rule"].toString(), QString("slow"));
        const double p99 = alerts[2]["value"].toDouble();
        QVERIFY2(std::abs(p99 - 0.4) <= 0.004, qPrintable(QString::number(p99)));  // within 1 %
        QCOMPARE(alerts[0]["time"].toInteger(), alerts[1]["time"].toInteger());
        QCOMPARE(alerts[0]["time"].toInteger(), alerts[2]["time"].toInteger());
        QVERIFY(alerts[0]["time"].toInteger() >= sentAt &&
                alerts[0]["time"].toInteger() <= sentAt + 1);
        QCOMPARE(j["alert_rules"].toArray()[2].toObject()["fired"].toInteger(), 0);
        // The command ran for each (listen does not wait for it; it waits at its end).
        QFile commands(seen);
        QVERIFY(commands.open(QIODevice::ReadOnly));
        QStringList ran = linesOf(commands.readAll());
        ran.sort();
        QCOMPARE(ran.mid(0, 2), (QStringList{"errors 60", "prod 30"}));
        QCOMPARE(ran.value(2), "slow " + valueText(p99));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliAlert)
#include "tst_cli_alert.moc"
