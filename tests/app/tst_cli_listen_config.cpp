// listen --config FILE (TOML): every option round-trips through the file and --print-config,
// the command line overrides the file and HITCOUNTER_* variables override both, errors name
// the file, the line and the key, and SIGHUP reloads the reloadable part.
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include "tests/app/listen_process.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(text);
    return path;
}

CliResult runWithEnvironment(const QStringList& arguments, const QProcessEnvironment& environment) {
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(HITCOUNTER_CLI), arguments);
    CliResult result;
    process.closeWriteChannel();
    result.finished = process.waitForFinished(30000);
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// Every option of listen with a value other than its default.
const QByteArray kEveryOption =
    "udp = [\"127.0.0.1:18125\", \"[::1]:18125\"]\n"
    "tcp = [\"127.0.0.1:18126\"]\n"
    "graphite = [\"18127\"]\n"
    "duration = 2.5\n"
    "record = \"rec.csv\"\n"
    "json = true\n"
    "receivers = 3\n"
    "redis = \"redis://127.0.0.1:6390/2\"\n"
    "instance = \"web-1\"\n"
    "flush-interval = 0.5\n"
    "hot-shards = 4\n"
    "hot-writes = 50\n"
    "hot-items = [\"/a\", \"/b\"]\n"
    "max-key-length = 2048\n"
    "key-memory = 32\n"
    "queue-memory = 16\n"
    "idle-timeout = 12\n"
    "max-connections = 64\n"
    "follow = [\"/var/log/a.log\", \"/var/log/b.log\"]\n"
    "from-start = true\n"
    "format = \"combined\"\n"
    "key = \"status\"\n"
    "metrics = \"127.0.0.1:19102\"\n"
    "metrics-keys = 7\n";

}  // namespace

class TestCliListenConfig : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyOptionRoundTripsThroughTheFile() {
        QTemporaryDir dir;
        const QString config = writeFile(dir, "all.toml", kEveryOption);
        const CliResult printed = runCli({"listen", "--config", config, "--print-config"});
        QCOMPARE(printed.exitCode, 0);
        // The same options, in the table's order, values as written.
        QByteArray expected =
            "# hitcounter-cli listen: the configuration in force (--print-config)\n";
        expected += kEveryOption;
        QCOMPARE(printed.out, expected);
        // What it prints reads back to the same, and so does the command line it stands for.
        const QString again = writeFile(dir, "again.toml", printed.out);
        QCOMPARE(runCli({"listen", "--config", again, "--print-config"}).out, printed.out);
        const CliResult fromFlags = runCli({"listen",
                                            "--udp",
                                            "127.0.0.1:18125",
                                            "--udp",
                                            "[::1]:18125",
                                            "--tcp",
                                            "127.0.0.1:18126",
                                            "--graphite",
                                            "18127",
                                            "--duration",
                                            "2.5",
                                            "--record",
                                            "rec.csv",
                                            "--json",
                                            "--receivers",
                                            "3",
                                            "--redis",
                                            "redis://127.0.0.1:6390/2",
                                            "--instance",
                                            "web-1",
                                            "--flush-interval",
                                            "0.5",
                                            "--hot-shards",
                                            "4",
                                            "--hot-writes",
                                            "50",
                                            "--hot-items",
                                            "/a",
                                            "--hot-items",
                                            "/b",
                                            "--max-key-length",
                                            "2048",
                                            "--key-memory",
                                            "32",
                                            "--queue-memory",
                                            "16",
                                            "--idle-timeout",
                                            "12",
                                            "--max-connections",
                                            "64",
                                            "--follow",
                                            "/var/log/a.log",
                                            "--follow",
                                            "/var/log/b.log",
                                            "--from-start",
                                            "--format",
                                            "combined",
                                            "--key",
                                            "status",
                                            "--metrics",
                                            "127.0.0.1:19102",
                                            "--metrics-keys",
                                            "7",
                                            "--print-config"});
        QCOMPARE(fromFlags.out, printed.out);
        // The example that ships is valid.
        const CliResult example =
            runCli({"listen", "--config", HITCOUNTER_EXAMPLE_CONFIG, "--print-config"});
        QVERIFY2(example.exitCode == 0, example.err.constData());
    }

    void theCommandLineOverridesTheFileAndTheEnvironmentBoth() {
        QTemporaryDir dir;
        const QString config =
            writeFile(dir, "c.toml",
                      "udp = [\"127.0.0.1:1\", \"127.0.0.1:2\"]\nmetrics = \"127.0.0.1:7\"\n"
                      "metrics-keys = 5\n");
        const CliResult cli = runCli({"listen", "--config", config, "--udp", "127.0.0.1:3",
                                      "--metrics-keys", "6", "--print-config"});
        QVERIFY(cli.out.contains("udp = [\"127.0.0.1:3\"]\n"));
        QVERIFY(cli.out.contains("metrics = \"127.0.0.1:7\"\n"));
        QVERIFY(cli.out.contains("metrics-keys = 6\n"));
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert("HITCOUNTER_METRICS", "127.0.0.1:9");
        environment.insert("HITCOUNTER_REDIS", "redis://127.0.0.1:6391");
        const CliResult env = runWithEnvironment(
            {"listen", "--config", config, "--metrics", "127.0.0.1:8", "--print-config"},
            environment);
        QVERIFY2(env.out.contains("metrics = \"127.0.0.1:9\"\n"), env.out.constData());
        QVERIFY(env.out.contains("redis = \"redis://127.0.0.1:6391\"\n"));
    }

    void errorsNameTheFileTheLineAndTheKey_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key")
            << QByteArray("json = true\nudpp = \"1\"\n") << "bad.toml:2: unknown key 'udpp'";
        QTest::newRow("flag takes a boolean")
            << QByteArray("\njson = \"yes\"\n") << "bad.toml:2: key 'json': expected true or false";
        QTest::newRow("single option, array")
            << QByteArray("duration = [1, 2]\n") << "bad.toml:1: key 'duration': takes one value";
        QTest::newRow("a table") << QByteArray("[limits]\nx = 1\n")
                                 << "bad.toml:1: unknown key 'limits'";
        QTest::newRow("a date") << QByteArray("duration = 1979-05-27\n")
                                << "bad.toml:1: key 'duration': expected a string or a number";
        QTest::newRow("bad value") << QByteArray("udp = \"1\"\n\n\nmetrics-keys = 0\n")
                                   << "bad.toml:4: key 'metrics-keys': --metrics-keys '0'";
        QTest::newRow("bad receivers")
            << QByteArray("receivers = 0\n") << "bad.toml:1: key 'receivers': --receivers '0'";
        QTest::newRow("bad duration")
            << QByteArray("duration = -3\n") << "bad.toml:1: key 'duration': --duration '-3'";
        QTest::newRow("bad address") << QByteArray("tcp = [\"127.0.0.1:x\"]\n")
                                     << "bad.toml:1: key 'tcp': address \"127.0.0.1:x\"";
        QTest::newRow("bad redis url")
            << QByteArray("redis = \"http://x\"\n") << "bad.toml:1: key 'redis': ";
        QTest::newRow("bad instance")
            << QByteArray("instance = \"a b\"\n")
            << "bad.toml:1: key 'instance': --instance 'a b' is not a name";
        QTest::newRow("bad flush interval") << QByteArray("flush-interval = 99\n")
                                            << "bad.toml:1: key 'flush-interval': --flush-interval";
        QTest::newRow("command line only")
            << QByteArray("config = \"x\"\n") << "bad.toml:1: key 'config' is for the command line";
        QTest::newRow("syntax") << QByteArray("udp = [\"a\"\nx = 1\n") << "bad.toml:2:";
    }
    void errorsNameTheFileTheLineAndTheKey() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString config = writeFile(dir, "bad.toml", text);
        const CliResult result = runCli({"listen", "--config", config, "--duration", "0.1"});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message.toUtf8()), result.err.constData());
        const CliResult missing = runCli({"listen", "--config", dir.filePath("none.toml")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("none.toml: cannot read the config file"));
    }

    void sighupReopensTheRecordingAndReloadsWhatItCan() {
        QTemporaryDir dir;
        const QString first = dir.filePath("first.csv");
        const QString second = dir.filePath("second.csv");
        const QString config = writeFile(
            dir, "c.toml",
            QStringLiteral("tcp = [\"127.0.0.1:0\"]\nrecord = \"%1\"\n").arg(first).toUtf8());
        ListeningCli cli;
        QVERIFY(cli.start({"--config", config}, 1));
        const quint16 tcp = cli.port("statsd tcp");
        const auto send = [&](const char* lines) {
            UniqueFd connection = tcpConnect(tcp);
            return sendAll(connection.get(), lines);
        };
        QVERIFY(send("a:2|c|T1700000000\n"));
        const auto recorded = [](const QString& file, const QByteArray& row) {
            QFile f(file);
            return f.open(QIODevice::ReadOnly) && f.readAll().contains(row);
        };
        // Counted and flushed to the recording (at least once a second) before the SIGHUP.
        QVERIFY(waitUntil([&] { return recorded(first + ".partial", "1700000000,a,2"); },
                          std::chrono::seconds(30)));
        writeFile(
            dir, "c.toml",
            QStringLiteral("tcp = [\"127.0.0.1:0\"]\nudp = [\"127.0.0.1:0\"]\nrecord = \"%1\"\n")
                .arg(second)
                .toUtf8());
        cli.send(SIGHUP);
        QVERIFY2(cli.waitForError("reloaded "), cli.errorOutput().constData());
        QVERIFY2(cli.waitForError("recorded 2 hits to "), cli.errorOutput().constData());
        QVERIFY2(cli.waitForError("reload: 'udp' changed; it takes effect at the next start"),
                 cli.errorOutput().constData());
        QVERIFY(QFile::exists(first));
        QVERIFY(!QFile::exists(first + ".partial"));
        QVERIFY(send("b:3|c|T1700000001\n"));
        QVERIFY(waitUntil([&] { return recorded(second + ".partial", "1700000001,b,3"); },
                          std::chrono::seconds(30)));
        // A broken file changes nothing: still running, still recording.
        writeFile(dir, "c.toml", "tcp = [\n");
        cli.send(SIGHUP);
        QVERIFY2(cli.waitForError("not applied; still running as before"),
                 cli.errorOutput().constData());
        const CliResult result = cli.stop(SIGTERM);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains("recorded 3 hits to "), result.err.constData());
        QFile trace(second);
        QVERIFY(trace.open(QIODevice::ReadOnly));
        QVERIFY(trace.readAll().contains("1700000001,b,3"));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliListenConfig)
#include "tst_cli_listen_config.moc"
