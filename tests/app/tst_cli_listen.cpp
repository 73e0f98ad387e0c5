// hitcounter-cli listen, run as a process: statsd over UDP and TCP and Graphite over TCP at
// once, stopped by SIGTERM, SIGINT or --duration; the JSON and text reports; bad arguments
// and a taken port.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
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

    // Issue 9, items 6, 7, 9, 10: the recording and stdout of listen (added by harden-files).
    void badRecordPathsAreRefusedBeforeListening_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("reason");
        QTest::newRow("directory") << QDir::tempPath() << "is a directory";
        QTest::newRow("empty") << QString() << "empty";
    }
    void badRecordPathsAreRefusedBeforeListening() {
        QFETCH(QString, file);
        QFETCH(QString, reason);
        const CliResult result = runCli(
            {"listen", "--udp", "127.0.0.1:0", "--record", file, "--duration", "20"}, {}, 10000);
        QVERIFY2(result.finished, "the check must come before the 20 s session");
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(reason.toUtf8()), result.err.constData());
        QVERIFY(!result.err.contains("listening on"));
        QVERIFY(!QFile::exists(QDir::tempPath() + ".partial"));
        QVERIFY(!QFile::exists(".partial"));
    }

    void aFifoRecordingIsWrittenThroughNotReplaced() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("live.fifo");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const int reader = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--record", fifo}, 1));
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), "home:2|c|T1700000000\n"));
        }
        const CliResult result = cli.stop(SIGTERM);
        QCOMPARE(result.exitCode, 0);
        QByteArray received(4096, '\0');
        const ssize_t n = ::read(reader, received.data(), size_t(received.size()));
        ::close(reader);
        QVERIFY(n > 0);
        QVERIFY2(received.left(n).contains("1700000000,home,2\n"), received.constData());
        QVERIFY(std::filesystem::is_fifo(fifo.toStdString()));
        QVERIFY(!QFile::exists(fifo + ".partial"));
    }

    void stopSignalsAndAFailingStdoutStillFinishTheRecording_data() {
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("stdoutTo");  // "/dev/full", "closed" (a broken pipe) or ""
        QTest::addColumn<int>("exitCode");
        QTest::newRow("SIGHUP") << SIGHUP << QString() << 0;
        QTest::newRow("SIGQUIT") << SIGQUIT << QString() << 0;
        QTest::newRow("full stdout") << SIGTERM << QStringLiteral("/dev/full") << 1;
        QTest::newRow("broken pipe") << SIGINT << QStringLiteral("closed") << 1;
    }
    void stopSignalsAndAFailingStdoutStillFinishTheRecording() {
        QFETCH(int, signal);
        QFETCH(QString, stdoutTo);
        QFETCH(int, exitCode);
        QTemporaryDir dir;
        const QString file = dir.filePath("kept.csv");
        ListeningCli cli;
        if (stdoutTo.startsWith('/'))
            cli.setStandardOutputFile(stdoutTo);
        if (stdoutTo == QLatin1String("closed"))
            cli.setBrokenPipeAsStandardOutput();
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--record", file}, 1));
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), "a:2|c\nb:1|c\n"));
        }
        QVERIFY(waitUntil([&] { return QFileInfo(file + ".partial").size() > 20; },
                          std::chrono::seconds(5)));
        const CliResult result = cli.stop(signal);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, exitCode);
        QVERIFY2(result.err.contains("recorded 3 hits to "), result.err.constData());
        if (exitCode != 0)
            QVERIFY2(result.err.contains("cannot write to stdout"), result.err.constData());
        QVERIFY(QFile::exists(file));
        QVERIFY(!QFile::exists(file + ".partial"));
    }
};

QTEST_GUILESS_MAIN(TestCliListen)
#include "tst_cli_listen.moc"
