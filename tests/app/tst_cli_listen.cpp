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
#include <thread>

#include "core/io/trace_reader.h"
#include "core/net/socket_util.h"
#include "tests/app/listen_process.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

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
        QTest::newRow("zero key length")
            << QStringList{"--max-key-length", "0"} << "--max-key-length '0'";
        QTest::newRow("key memory text")
            << QStringList{"--key-memory", "lots"} << "--key-memory 'lots'";
        QTest::newRow("zero queue memory")
            << QStringList{"--queue-memory", "0"} << "--queue-memory '0'";
        QTest::newRow("idle timeout text")
            << QStringList{"--idle-timeout", "never"} << "--idle-timeout 'never'";
        QTest::newRow("zero connections")
            << QStringList{"--max-connections", "0"} << "--max-connections '0'";
    }
    void badArgumentsAreBadInput() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliResult result = runCli(QStringList{"listen"} + arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message.toUtf8()), result.err.constData());
    }

    void sumsSaturateAndJsonPrintsExactIntegers() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--json"}, 1));
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(),
                            "big:18446744073709551615|c\nbig:18446744073709551615|c\n"
                            "big:2|c\nhuge:1|c|@1e-300\nhuge:1|c|@1e-300\n"
                            "exact:9007199254740993|c\n"));
        }
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("\"hits\": 18446744073709551615,"), result.out.constData());
        QVERIFY2(result.out.contains("\"big\": 18446744073709551615"), result.out.constData());
        QVERIFY2(result.out.contains("\"huge\": 18446744073709551615"), result.out.constData());
        QVERIFY2(result.out.contains("\"exact\": 9007199254740993"), result.out.constData());
        QJsonParseError error;
        QJsonDocument::fromJson(result.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, result.out.constData());
    }

    void keysThatAreNotUtf8AreNeverMerged() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--json"}, 1));
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), "\xff:1|c\n\xfe:2|c\ncaf\xc3\xa9:3|c\n\xff:4|c\n"));
        }
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        const QJsonObject report = QJsonDocument::fromJson(result.out).object();
        const QJsonObject keys = report["keys"].toObject();
        QCOMPARE(keys.size(), 1);
        QCOMPARE(keys[QString::fromUtf8("caf\xc3\xa9")].toInteger(), 3);
        const QJsonObject hex = report["keys_hex"].toObject();
        QCOMPARE(hex.size(), 2);
        QCOMPARE(hex["ff"].toInteger(), 5);
        QCOMPARE(hex["fe"].toInteger(), 2);
    }

    void textReportEscapesControlBytes() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--max-key-length", "5"}, 1));
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(),
                            "\x1b]0;\x07:1|c\nab\rX:2|c\n\x1b[2J\x1b:1|zz\n"
                            "\x1b[2Jxxxx:1|c\n"));
        }
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(!result.out.contains('\x1b') && !result.out.contains('\r') &&
                     !result.out.contains('\x07'),
                 result.out.toPercentEncoding().constData());
        QVERIFY2(result.out.contains("  ab\\x0dX 2\n"), result.out.constData());
        QVERIFY2(result.out.contains("  \\x1b]0;\\x07 1\n"), result.out.constData());
        QVERIFY2(result.out.contains("problem unknown type x1"), result.out.constData());
        QVERIFY2(result.out.contains("problem key longer than 5 bytes x1"), result.out.constData());
    }

    void idleKeysAreFoldedWithinTheKeyMemory() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--json", "--key-memory", "1"}, 1));
        constexpr int kKeys = 30000;
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            std::string lines;
            for (int i = 0; i < kKeys; ++i)
                lines += "key." + std::to_string(i) + std::string(40, 'x') + ":2|c\n";
            QVERIFY(sendAll(tcp.get(), lines + "hot:1|c\n"));
        }
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(result.out).object();
        const QJsonObject keys = report["keys"].toObject();
        QVERIFY(report["folded_keys"].toInteger() > 0);
        QCOMPARE(keys.size() + report["folded_keys"].toInteger(), kKeys + 1);
        qint64 kept = 0;
        for (auto it = keys.begin(); it != keys.end(); ++it)
            kept += it.value().toInteger();
        QCOMPARE(kept + report["folded_hits"].toInteger(), 2 * kKeys + 1);
        QCOMPARE(report["hits"].toInteger(), 2 * kKeys + 1);
        QCOMPARE(keys["hot"].toInteger(), 1);  // the most recent key is kept
    }

    void tcpPushesBackInsteadOfDroppingWhenTheQueueIsFull() {
        QTemporaryDir dir;
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--json", "--queue-memory", "1", "--record",
                           dir.filePath("r.csv")},
                          1));
        constexpr int kClients = 4, kLines = 100000;
        {
            std::vector<std::jthread> clients;
            for (int c = 0; c < kClients; ++c) {
                clients.emplace_back([&, c] {
                    UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
                    std::string lines;
                    for (int i = 0; i < kLines; ++i)
                        lines += std::to_string(c) + std::string(200, 'k') + ":1|c\n";
                    sendAll(tcp.get(), lines);
                });
            }
        }
        const CliResult result = cli.stop(SIGTERM, 60000);
        QVERIFY(result.finished);
        const QJsonObject report = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(report["dropped"].toInteger(), 0);
        QCOMPARE(report["hits"].toInteger(), kClients * kLines);
    }

    void slowConnectionsTimeOutAndAreCounted() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--json", "--idle-timeout", "0.2"}, 1));
        UniqueFd slow = tcpConnect(cli.port("statsd tcp"));
        QVERIFY(sendAll(slow.get(), "a:1"));
        QVERIFY(peerClosed(slow.get(), std::chrono::seconds(5)));
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        const QJsonObject report = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(report["timed_out_connections"].toInteger(), 1);
        QCOMPARE(report["deferred_connections"].toInteger(), 0);
        const QJsonArray problems = report["problems"].toArray();
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].toObject()["kind"].toString(), QString("connection timed out"));
        QCOMPARE(report["by_listener"].toArray()[0].toObject()["timed_out_connections"].toInteger(),
                 1);
    }

    void everyProblemKindStaysVisible() {
        ListeningCli cli;
        QVERIFY(cli.start({"--udp", "127.0.0.1:0", "--json", "--max-key-length", "3"}, 1));
        UniqueFd udp = udpSender(cli.port("statsd udp"));
        QVERIFY(sendAll(udp.get(), "a:1|zz\nb:1|zz"));
        QVERIFY(sendAll(udp.get(), "long:1|c"));
        QVERIFY(sendAll(udp.get(), "ok:1|c"));
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        const QJsonObject report = QJsonDocument::fromJson(result.out).object();
        const QJsonArray problems = report["problems"].toArray();
        QCOMPARE(problems.size(), 2);
        QCOMPARE(problems[0].toObject()["kind"].toString(), QString("unknown type"));
        QCOMPARE(problems[0].toObject()["count"].toInteger(), 2);
        QCOMPARE(problems[1].toObject()["kind"].toString(), QString("key longer than 3 bytes"));
        QCOMPARE(report["bad_lines"].toInteger(), 3);
    }

    void secondSignalInterruptsTheReportAndTheRecordingIsKept() {
        QTemporaryDir dir;
        const QString file = dir.filePath("r.csv");
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--json", "--record", file}, 1));
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            std::string lines;
            for (int i = 0; i < 50000; ++i)
                lines += "key." + std::to_string(i) + ":1|c\n";
            QVERIFY(sendAll(tcp.get(), lines));
        }
        QVERIFY(waitUntil([&] {
            QFile partial(file + ".partial");
            return partial.size() > 0;
        }));
        cli.send(SIGTERM);
        cli.send(SIGINT);
        const CliResult result = cli.finish();
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("report interrupted"), result.err.constData());
        QVERIFY(QFile::exists(file));
        QVERIFY(!QFile::exists(file + ".partial"));
        QVERIFY(!result.out.contains("\"keys\": {") || !result.out.trimmed().endsWith('}'));
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

HITCOUNTER_TEST_GUILESS_MAIN(TestCliListen)
#include "tst_cli_listen.moc"
