// Fleet mode through the CLI, against a real redis-server started by the test: two `listen`
// instances feeding one Redis, `query` (count, window, top-K, instances), `rebuild` after a
// wipe, and the errors for a bad URL, an unreachable server and a wrong password.
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "core/net/socket_util.h"
#include "tests/app/listen_process.h"
#include "tests/fleet/redis_server.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;

namespace {

QJsonObject jsonOf(const CliResult& r) {
    return QJsonDocument::fromJson(r.out).object();
}

QString repeated(const QString& line, int times) {
    QString text;
    for (int i = 0; i < times; ++i)
        text += line;
    return text;
}

}  // namespace

class TestCliFleet : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_redis.start()); }

    void twoListenInstancesGiveTheExactGlobalCount() {
        const QString url = QString::fromStdString(m_redis.url());
        ListeningCli one;
        ListeningCli two;
        QVERIFY(one.start({"--tcp", "127.0.0.1:0", "--redis", url, "--instance", "one", "--json",
                           "--flush-interval", "0.2"},
                          1));
        QVERIFY(
            two.start({"--tcp", "127.0.0.1:0", "--redis", url, "--instance", "two", "--json"}, 1));
        for (ListeningCli* cli : {&one, &two}) {
            UniqueFd tcp = tcpConnect(cli->port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), repeated("g.hits:1|c\n", 1000).toStdString()));
            QVERIFY(sendAll(tcp.get(), cli == &one ? "side:3|c\n" : "side:2|c\nrare:1|c\n"));
        }
        QTest::qWait(300);  // the listeners read the bytes before the stop signal
        const CliResult r1 = one.stop(SIGINT);
        const CliResult r2 = two.stop(SIGTERM);  // stopped before its first 1 s flush
        for (const CliResult& r : {r1, r2}) {
            QVERIFY(r.finished);
            QCOMPARE(r.exitCode, 0);
            const QJsonObject redis = jsonOf(r).value("redis").toObject();
            QVERIFY2(redis.value("flushes").toInt() >= 1, r.out.constData());
            QVERIFY(redis.value("commands").toInt() >= 4);
            QCOMPARE(redis.value("retries").toInt(), 0);
            QCOMPARE(redis.value("dropped_hits").toInt(), 0);
            QVERIFY(redis.value("lag_seconds").isDouble());  // a missing field reads as 0
            QVERIFY(redis.value("lag_seconds").toDouble() >= 0);
            QCOMPARE(redis.value("connected").toBool(), true);
        }
        const CliResult q = runCli({"query", "--redis", url, "g.hits", "--json"});
        QCOMPARE(q.exitCode, 0);
        const QJsonObject answer = jsonOf(q);
        QCOMPARE(answer.value("key").toString(), QString("g.hits"));
        QCOMPARE(answer.value("all_time").toInt(), 2000);
        QCOMPARE(answer.value("window").toInt(), 2000);
        QCOMPARE(answer.value("window_seconds").toInt(), 300);
        QCOMPARE(answer.value("uniques").toInt(), 0);  // statsd carries no visitor
        QCOMPARE(answer.value("instances").toArray(), (QJsonArray{"one", "two"}));

        const CliResult top = runCli({"query", "--redis", url, "--top", "2"});
        QCOMPARE(top.exitCode, 0);
        QCOMPARE(top.out, QByteArray("rank,key,count\n1,g.hits,2000\n2,side,5\n"));

        // Rebuild after wiping the counting keys answers the same.
        const CliResult rebuilt = runCli({"rebuild", "--redis", url, "--wipe-first", "--json"});
        QCOMPARE(rebuilt.exitCode, 0);
        QVERIFY(jsonOf(rebuilt).value("wiped_keys").toInt() > 0);
        QCOMPARE(jsonOf(rebuilt).value("logs").toInt(), 2);
        const QString at = QString::number(answer.value("at").toInteger());
        const CliResult again = runCli({"query", "--redis", url, "g.hits", "--json", "--at", at});
        QCOMPARE(jsonOf(again), answer);
        QCOMPARE(runCli({"query", "--redis", url, "--top", "2", "--at", at}).out, top.out);
    }

    // Client-sent keys with ',' ESC BEL and bytes that are not UTF-8: query's CSV quotes and
    // escapes them, its text escapes them, its JSON keeps them apart with key_hex (before: raw
    // in the CSV and text, and U+FFFD for both 0xff and 0xfe in JSON).
    void queryPrintsHostileKeysEscapedAndDistinct() {
        RedisServer redis;
        QVERIFY(redis.start());
        const QString url = QString::fromStdString(redis.url());
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--redis", url, "--instance", "one", "--json",
                           "--flush-interval", "0.2"},
                          1));
        UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
        QVERIFY(sendAll(tcp.get(), "a,\"b\x1b]0;t\x07:3|c\n\xff:2|c\n\xfe:1|c\n"));
        QTest::qWait(300);  // the listener reads the bytes before the stop signal
        const CliResult stopped = cli.stop(SIGINT);
        QCOMPARE(stopped.exitCode, 0);
        const CliResult top = runCli({"query", "--redis", url, "--top", "3"});
        QCOMPARE(top.exitCode, 0);
        QCOMPARE(top.out, QByteArray("rank,key,count\n1,\"a,\"\"b\\x1b]0;t\\x07\",3\n"
                                     "2,\\xff,2\n3,\\xfe,1\n"));
        const CliResult json = runCli({"query", "--redis", url, "--top", "3", "--json"});
        const QJsonArray items = jsonOf(json).value("top").toArray();
        QCOMPARE(items.size(), 3);
        QCOMPARE(items[0].toObject().value("key").toString(), QString("a,\"b\x1b]0;t\x07"));
        QVERIFY(!items[0].toObject().contains("key_hex"));
        QCOMPARE(items[1].toObject().value("key_hex").toString(), QString("ff"));
        QCOMPARE(items[2].toObject().value("key_hex").toString(), QString("fe"));
        QCOMPARE(items[1].toObject().value("key").toString(), QString("\\xff"));
        const CliResult text = runCli({"query", "--redis", url, "a,\"b\x1b]0;t\x07"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.startsWith("a,\"b\\x1b]0;t\\x07: 3 hit(s)"), text.out.constData());
        QVERIFY(!text.out.contains('\x1b'));
    }

    void simulateIntoRedisMatchesReplayOfTheSameTrace() {
        RedisServer redis;
        QVERIFY(redis.start());
        const QString url = QString::fromStdString(redis.url());
        const qint64 start = QDateTime::currentSecsSinceEpoch() - 100;  // recent: not expired
        const QStringList traffic{"--pattern",  "poisson", "--rate",  "200",
                                  "--duration", "60",      "--keys",  "5",
                                  "--visitors", "50",      "--start", QString::number(start)};
        const CliResult sim = runCli(QStringList{"simulate"} + traffic +
                                     QStringList{"--speed", "max", "--redis", url});
        QCOMPARE(sim.exitCode, 0);
        QVERIFY2(sim.err.contains("\"dropped_hits\":0"), sim.err.constData());
        const QString at = QString::number(start + 59);
        const CliResult top = runCli({"query", "--redis", url, "--top", "5", "--at", at});
        const CliResult gen = runCli(QStringList{"gen"} + traffic);
        const CliResult replay = runCli({"replay", "-", "--top", "5", "--at", at}, gen.out);
        QCOMPARE(replay.exitCode, 0);
        QByteArray expected = "rank,key,count\n";
        for (const QByteArray& row : replay.out.split('\n').mid(1))
            if (!row.isEmpty())
                expected += row.mid(row.indexOf(',') + 1) + '\n';
        QCOMPARE(top.out, expected);
        QCOMPARE(top.out.count('\n'), 6);
    }

    void pinnedHotItemsAreSplitFromTheFirstFlushAndCountExactly() {
        RedisServer redis;
        QVERIFY(redis.start());
        const QString url = QString::fromStdString(redis.url());
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--redis", url, "--instance", "pin", "--json",
                           "--hot-items", "pinned.key,other.pin", "--hot-shards", "4"},
                          1));
        UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
        QVERIFY(sendAll(tcp.get(), repeated("pinned.key:1|c\n", 300).toStdString() + "cold:2|c\n"));
        QTest::qWait(300);  // the listener reads the bytes before the stop signal
        const CliResult r = cli.stop(SIGINT);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject sent = jsonOf(r).value("redis").toObject();
        QCOMPARE(sent.value("hot_items").toInt(), 1);
        QCOMPARE(sent.value("dropped_hits").toInt(), 0);
        const CliResult q = runCli({"query", "--redis", url, "pinned.key", "--json"});
        QCOMPARE(jsonOf(q).value("all_time").toInt(), 300);
        QCOMPARE(jsonOf(q).value("window").toInt(), 300);
        hitcounter::fleet::RedisConnection c(hitcounter::fleet::parseRedisUrl(redis.url()));
        QCOMPARE(c.command({"GET", "hc:{pinned.key}:total"}).type,
                 hitcounter::fleet::RedisReply::Type::Nil);  // written under a sub-item
        QCOMPARE(c.command({"ZSCORE", "hc:{pinned.key}:hot", "shards"}).text, std::string("4"));
        QCOMPARE(c.command({"GET", "hc:{cold}:total"}).text, std::string("2"));
        // Options that contradict each other, or a bad value: exit code 2.
        for (const QStringList& bad :
             {QStringList{"--hot-shards", "off", "--hot-items", "x"},
              QStringList{"--hot-writes", "-1"}, QStringList{"--hot-items", ","},
              QStringList{"--hot-shards", "2000"}}) {
            const CliResult refused = runCli(
                QStringList{"listen", "--tcp", "127.0.0.1:0", "--redis", url, "--duration", "0.1"} +
                bad);
            QVERIFY2(refused.exitCode == 2, qPrintable(bad.join(' ')));
        }
        const CliResult off = runCli({"listen", "--tcp", "127.0.0.1:0", "--redis", url,
                                      "--duration", "0.1", "--hot-shards", "off"});
        QCOMPARE(off.exitCode, 0);
    }

    // Regression (issue 30, items 3 and 5): |T4611686018427387903 half-applied the item
    // script (x's total lost, "0 dropped") and a |T decades ahead made keys that lived for
    // decades. With --redis, a time outside --accept-past/--accept-future is a bad line,
    // named, and is not sent; everything else counts exactly.
    void hitTimesOutsideTheAcceptedWindowAreBadLines() {
        RedisServer redis;
        QVERIFY(redis.start());
        const QString url = QString::fromStdString(redis.url());
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--redis", url, "--instance", "times", "--json",
                           "--accept-past", "3600", "--accept-future", "60"},
                          1));
        UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
        const std::string lines = "x:1|c|T4611686018427387903\nx:2|c\ny:1|c|T" +
                                  std::to_string(now + 20LL * 365 * 86400) + "\nx:1|c|T" +
                                  std::to_string(now - 7200) + "\nw:4|c|T" +
                                  std::to_string(now - 100) + "\n";
        QVERIFY(sendAll(tcp.get(), lines));
        QTest::qWait(300);  // the listener reads the bytes before the stop signal
        const CliResult r = cli.stop(SIGINT);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject report = jsonOf(r);
        QCOMPARE(report.value("bad_lines").toInt(), 3);
        QCOMPARE(report.value("hits").toInt(), 6);
        QStringList kinds;
        for (const auto& p : report.value("problems").toArray())
            kinds << p.toObject().value("kind").toString();
        QVERIFY2(kinds.contains("time more than 60 s after now"), qPrintable(kinds.join('|')));
        QVERIFY2(kinds.contains("time more than 3600 s before now"), qPrintable(kinds.join('|')));
        const QJsonObject sent = report.value("redis").toObject();
        QCOMPARE(sent.value("dropped_hits").toInt(), 0);
        QCOMPARE(sent.value("retries").toInt(), 0);
        QCOMPARE(sent.value("out_of_window_hits").toInt(), 0);  // the listener refused them
        QCOMPARE(jsonOf(runCli({"query", "--redis", url, "x", "--json"})).value("all_time").toInt(),
                 2);
        QCOMPARE(jsonOf(runCli({"query", "--redis", url, "w", "--json"})).value("window").toInt(),
                 4);
        QCOMPARE(jsonOf(runCli({"query", "--redis", url, "y", "--json"})).value("all_time").toInt(),
                 0);
        // A bad allowance is bad input; the options need --redis.
        QCOMPARE(runCli({"listen", "--tcp", "127.0.0.1:0", "--redis", url, "--duration", "0.1",
                         "--accept-future", "-1"})
                     .exitCode,
                 2);
        QCOMPARE(
            runCli({"listen", "--tcp", "127.0.0.1:0", "--duration", "0.1", "--accept-past", "10"})
                .exitCode,
            2);
    }

    void badUrlsAreBadInput_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("query no port")
            << QStringList{"query", "--redis", "redis://h", "k"} << "the port is missing";
        QTest::newRow("query scheme")
            << QStringList{"query", "--redis", "http://h:1", "k"} << "does not start with redis://";
        QTest::newRow("rebuild db")
            << QStringList{"rebuild", "--redis", "redis://h:1/99"} << "the database '99'";
        QTest::newRow("listen url")
            << QStringList{"listen", "--redis", "redis://:1"} << "the host is empty";
        QTest::newRow("listen instance")
            << QStringList{"listen", "--redis", "redis://h:1", "--instance", "a b"}
            << "--instance 'a b'";
        QTest::newRow("instance alone")
            << QStringList{"listen", "--instance", "a"} << "--instance needs --redis";
        QTest::newRow("query no url") << QStringList{"query", "k"} << "--redis URL is required";
        QTest::newRow("query window")
            << QStringList{"query", "--redis", "redis://h:1", "k", "--window", "3601"} << "3601";
        QTest::newRow("query two keys")
            << QStringList{"query", "--redis", "redis://h:1", "a", "b"} << "exactly one KEY";
    }
    void badUrlsAreBadInput() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliResult r = runCli(arguments);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);  // one clear message
    }

    void anUnreachableServerFailsFastWithExitCode1() {
        const QString url = "redis://127.0.0.1:" + QString::number(RedisServer::freePort());
        for (const QStringList& arguments :
             {QStringList{"query", "--redis", url, "k"}, QStringList{"rebuild", "--redis", url},
              QStringList{"listen", "--udp", "0", "--redis", url, "--duration", "5"}}) {
            QElapsedTimer timer;
            timer.start();
            const CliResult r = runCli(arguments, {}, 10000);
            QVERIFY(r.finished);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("cannot connect to " + url.toUtf8()), r.err.constData());
            QVERIFY(timer.elapsed() < 5000);
        }
    }

    void aWrongPasswordIsBadInput() {
        RedisServer guarded({"--requirepass", "right"});
        QVERIFY(guarded.start());
        const QString wrong = QString::fromStdString(guarded.url("wrong"));
        for (const QStringList& arguments :
             {QStringList{"query", "--redis", wrong, "k"},
              QStringList{"listen", "--udp", "0", "--redis", wrong},
              QStringList{"query", "--redis", QString::fromStdString(guarded.url()), "k"}}) {
            const CliResult r = runCli(arguments, {}, 10000);
            QVERIFY(r.finished);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("refused the connection"), r.err.constData());
        }
        const CliResult ok = runCli(
            {"query", "--redis", QString::fromStdString(guarded.url("right")), "k", "--json"});
        QCOMPARE(ok.exitCode, 0);
        QCOMPARE(jsonOf(ok).value("all_time").toInt(), 0);
    }

    // The password was in `ps`, echoed by a malformed URL's message and --print-config: now it
    // comes from HITCOUNTER_REDIS_PASSWORD or --redis-password-file, a URL carrying one gets a
    // warning, and no output holds it.
    void thePasswordComesFromTheEnvironmentOrAFileAndIsNeverPrinted() {
        const QByteArray secret = "s3cret-pw";
        RedisServer guarded({"--requirepass", secret.toStdString()});
        QVERIFY(guarded.start());
        const QString url = QString::fromStdString(guarded.url());
        const QString inUrl = QString::fromStdString(guarded.url(secret.toStdString()));
        const auto neverShown = [&](const CliResult& r) {
            QVERIFY2(!r.out.contains(secret) && !r.err.contains(secret), r.err.constData());
        };

        qputenv("HITCOUNTER_REDIS_PASSWORD", secret);
        const CliResult fromEnvironment = runCli({"query", "--redis", url, "k", "--json"});
        qunsetenv("HITCOUNTER_REDIS_PASSWORD");
        QCOMPARE(fromEnvironment.exitCode, 0);
        neverShown(fromEnvironment);

        QTemporaryDir dir;
        QFile file(dir.filePath("redis.pw"));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(secret + "\n") > 0);
        file.close();
        const CliResult fromFile = runCli(
            {"query", "--redis", url, "--redis-password-file", file.fileName(), "k", "--json"});
        QCOMPARE(fromFile.exitCode, 0);
        neverShown(fromFile);
        const CliResult missingFile =
            runCli({"query", "--redis", url, "--redis-password-file", dir.filePath("none"), "k"});
        QCOMPARE(missingFile.exitCode, 2);
        QVERIFY2(missingFile.err.contains("--redis-password-file"), missingFile.err.constData());

        const CliResult warned = runCli({"query", "--redis", inUrl, "k", "--json"});
        QCOMPARE(warned.exitCode, 0);
        QVERIFY2(warned.err.contains("warning: the --redis URL carries a password"),
                 warned.err.constData());
        neverShown(warned);

        const CliResult malformed =
            runCli({"listen", "--udp", "0", "--redis", "redis://:" + secret + "@h:99999"});
        QCOMPARE(malformed.exitCode, 2);
        QVERIFY2(malformed.err.contains("redis://:***@h:99999"), malformed.err.constData());
        neverShown(malformed);

        const CliResult printed =
            runCli({"listen", "--udp", "0", "--redis", inUrl, "--print-config"});
        QCOMPARE(printed.exitCode, 0);
        QVERIFY2(printed.out.contains(":***@"), printed.out.constData());
        neverShown(printed);
    }

    // #30 item 2: flushes Redis refuses (here the instance's log key is a string, so every
    // XADD answers WRONGTYPE) are never resent: the first is printed once, the others only
    // counted, the counts (applied by the item scripts) go on, and nothing is dropped.
    void refusedFlushesArePrintedOnceAndCountedInTheReport() {
        RedisServer redis;
        QVERIFY(redis.start());
        const QString url = QString::fromStdString(redis.url());
        hitcounter::fleet::RedisConnection c(hitcounter::fleet::parseRedisUrl(redis.url()));
        c.command({"SET", "hc:log:{refuse}", "not a stream"});
        const auto total = [&c] { return c.command({"GET", "hc:{r.hits}:total"}).text; };
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--redis", url, "--instance", "refuse", "--json",
                           "--flush-interval", "0.05"},
                          1));
        UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
        QVERIFY(sendAll(tcp.get(), "r.hits:3|c\n"));
        QTRY_COMPARE_WITH_TIMEOUT(total(), std::string("3"), 20000);
        QVERIFY(sendAll(tcp.get(), "r.hits:4|c\n"));
        QTRY_COMPARE_WITH_TIMEOUT(total(), std::string("7"), 20000);
        const CliResult r = cli.stop(SIGTERM);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err.count("will not be resent"), 1);
        QVERIFY2(r.err.contains("WRONGTYPE"), r.err.constData());
        const QJsonObject sent = jsonOf(r).value("redis").toObject();
        QVERIFY2(sent.value("refused_flushes").toInt() >= 2, r.out.constData());
        QCOMPARE(sent.value("refused_hits").toInt(), 0);  // the item scripts counted them
        QCOMPARE(sent.value("sent_hits").toInt(), 7);
        QCOMPARE(sent.value("dropped_hits").toInt(), 0);
        QCOMPARE(sent.value("retries").toInt(), 0);
    }

    // #30 item 6: --redis-buffer bounds what is held for a Redis that does not answer, and a
    // stop after such an outage ends in bounded time (before: 116 s at 11.3 GB for 10^6
    // distinct 900-byte names). 20,000 such names need ~24 MiB held; 1 MiB keeps ~860 of them
    // (the open batch, and at most about twice that in a seal being sent).
    void aSmallRedisBufferHoldsWhatItSaysThroughAnOutage() {
        RedisServer redis;
        QVERIFY(redis.start());
        const QString url = QString::fromStdString(redis.url());
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--redis", url, "--instance", "buffer", "--json",
                           "--flush-interval", "0.05", "--redis-buffer", "1"},
                          1));
        redis.suspend();
        const int names = 20000;
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            std::string lines;
            for (int i = 0; i < names; ++i)
                lines += std::string(895, 'k') + std::to_string(10000 + i) + ":1|c\n";
            QVERIFY(sendAll(tcp.get(), lines));
        }  // closed: the stop reads the connection to its end
        QTest::qWait(1000);
        redis.resume();
        const CliResult r = cli.stop(SIGTERM, 60000);
        QVERIFY2(r.finished, r.err.constData());
        QCOMPARE(r.exitCode, 0);
        const QJsonObject report = jsonOf(r);
        QCOMPARE(report.value("hits").toInt(), names);
        const QJsonObject sent = report.value("redis").toObject();
        const int held = sent.value("sent_hits").toInt();
        QVERIFY2(held > 0 && held <= 3 * 860, r.out.constData());
        QCOMPARE(held + sent.value("dropped_hits").toInt(), names);
        hitcounter::fleet::RedisConnection c(hitcounter::fleet::parseRedisUrl(redis.url()));
        QCOMPARE(int(c.command({"KEYS", "hc:{k*}:total"}).elements.size()), held);
        QCOMPARE(runCli({"listen", "--udp", "0", "--redis", url, "--redis-buffer", "0"}).exitCode,
                 2);
        QCOMPARE(runCli({"listen", "--udp", "0", "--redis-buffer", "8"}).exitCode, 2);
    }

private:
    RedisServer m_redis;
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliFleet)
#include "tst_cli_fleet.moc"
