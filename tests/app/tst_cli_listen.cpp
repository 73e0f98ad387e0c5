// hitcounter-cli listen, run as a process: statsd over UDP and TCP and Graphite over TCP at
// once, stopped by SIGTERM, SIGINT or --duration; the JSON and text reports; bad arguments
// and a taken port.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "core/io/trace_reader.h"
#include "core/net/socket_util.h"
#include "tests/app/listen_process.h"
#include "tests/net/net_test_support.h"

using namespace hitcounter;
using namespace hitcounter::testing;

class TestCliListen : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void jsonReportCountsWhatEveryListenerReceived() {
        ListeningCli cli;
        QVERIFY(cli.start(
            {"--udp", "127.0.0.1:0", "--tcp", "127.0.0.1:0", "--graphite", "127.0.0.1:0", "--json"},
            3));
        UniqueFd udp = udpSender(cli.port("statsd udp"));
        QVERIFY(sendAll(udp.get(), "home:1|c\nhome:2|c|@0.5\nload:3|g"));
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), "about:4|c\nhome:1|zz\nabout:1|c"));
            UniqueFd graphite = tcpConnect(cli.port("graphite tcp"));
            QVERIFY(sendAll(graphite.get(), "pages.home 7 -1\n"));
        }
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QJsonParseError error;
        const QJsonObject report = QJsonDocument::fromJson(result.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, result.out.constData());
        QCOMPARE(report["lines"].toInteger(), 7);
        QCOMPARE(report["hits"].toInteger(), 1 + 4 + 4 + 1 + 7);
        QCOMPARE(report["bad_lines"].toInteger(), 1);
        QCOMPARE(report["ignored"].toInteger(), 1);
        QCOMPARE(report["dropped"].toInteger(), 0);
        QVERIFY(report["packets"].toInteger() >= 3);
        const QJsonObject keys = report["keys"].toObject();
        QCOMPARE(keys.size(), 3);
        QCOMPARE(keys["home"].toInteger(), 5);
        QCOMPARE(keys["about"].toInteger(), 5);
        QCOMPARE(keys["pages.home"].toInteger(), 7);
        QVERIFY(report["last_problems"].toArray().first().toString().contains("unknown type"));
    }

    void recordingHoldsExactlyTheReportedHitsAndIsFlushedWhileRunning() {
        QTemporaryDir dir;
        const QString file = dir.filePath("live.csv");
        ListeningCli cli;
        QVERIFY(cli.start(
            {"--tcp", "127.0.0.1:0", "--udp", "127.0.0.1:0", "--record", file, "--json"}, 2));
        UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
        QVERIFY(sendAll(tcp.get(), "home:2|c|T1700000000\nabout:1|c\n"));
        // Flushed at least once a second: the lines show in FILE.partial while it runs.
        QVERIFY(waitUntil(
            [&] {
                QFile partial(file + ".partial");
                return partial.open(QIODevice::ReadOnly) &&
                       partial.readAll().contains("1700000000,home,2");
            },
            std::chrono::seconds(5)));
        QVERIFY(!QFile::exists(file));
        UniqueFd udp = udpSender(cli.port("statsd udp"));
        QVERIFY(sendAll(udp.get(), "home:3|c\nx:1|g"));
        tcp = {};
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains("recorded 6 hits to "), result.err.constData());
        QVERIFY(!QFile::exists(file + ".partial"));

        const QJsonObject keys = QJsonDocument::fromJson(result.out).object()["keys"].toObject();
        std::ifstream in(file.toStdString());
        TraceReader reader(in);
        TraceRow row;
        QMap<QString, qint64> recorded;
        while (reader.next(row) == TraceStatus::Row)
            recorded[QString::fromStdString(row.event.key)] += qint64(row.event.count);
        QCOMPARE(reader.progress().badRows, 0u);
        QCOMPARE(recorded.size(), keys.size());
        for (auto it = recorded.cbegin(); it != recorded.cend(); ++it)
            QCOMPARE(it.value(), keys[it.key()].toInteger());
        QCOMPARE(recorded["home"], 5);
    }

    void unwritableRecordingIsBadInput() {
        const CliResult result =
            runCli({"listen", "--udp", "0", "--record", "/no/such/dir/x.csv", "--duration", "5"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("/no/such/dir/x.csv"), result.err.constData());
    }

    void sigintStopsItToo() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0"}, 1));
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), "a:2|c\nb:1|c\n"));
        }
        const CliResult result = cli.stop(SIGINT);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("hits 3 "), result.out.constData());
        QVERIFY2(result.out.contains("  a 2\n  b 1\n"), result.out.constData());
    }

    void durationEndsTheRunByItself() {
        ListeningCli cli;
        QVERIFY(cli.start({"--udp", "0", "--duration", "0.3"}, 1));
        const CliResult result = cli.finish();
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.startsWith("listened 0."), result.out.constData());
    }

    void badArgumentsAreBadInput_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("port not a number")
            << QStringList{"--udp", "127.0.0.1:x"} << "\"127.0.0.1:x\"";
        QTest::newRow("port too big") << QStringList{"--tcp", "70000"} << "\"70000\"";
        QTest::newRow("zero duration") << QStringList{"--duration", "0"} << "--duration '0'";
        QTest::newRow("text duration") << QStringList{"--duration", "soon"} << "--duration 'soon'";
        QTest::newRow("stray argument") << QStringList{"file.csv"} << "file.csv";
    }
    void badArgumentsAreBadInput() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliResult result = runCli(QStringList{"listen"} + arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message.toUtf8()), result.err.constData());
    }

    void takenPortFailsNamingTheAddress() {
        UniqueFd taken = bindSocket(SOCK_STREAM, parseEndpoint("127.0.0.1:0"), "test");
        const QString address = QString::fromStdString(localAddress(taken.get()));
        const CliResult result = runCli({"listen", "--graphite", address, "--duration", "5"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(("graphite tcp " + address + ": cannot bind").toUtf8()),
                 result.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliListen)
#include "tst_cli_listen.moc"
