// Fleet mode through the CLI on a real Redis Cluster (3 masters, 3 replicas, started by the
// test: tests/fleet/redis_cluster.h): two `listen --redis` instances, each given a different
// node, and `query --redis` answering exactly through every node of the cluster.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "core/net/socket_util.h"
#include "tests/app/listen_process.h"
#include "tests/fleet/redis_cluster.h"
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

class TestCliCluster : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_cluster.start(), m_cluster.error().c_str()); }

    void queryThroughAnyNodeOfAClusterFedByTwoInstancesIsExact() {
        ListeningCli one;
        ListeningCli two;
        QVERIFY(
            one.start({"--tcp", "127.0.0.1:0", "--redis", QString::fromStdString(m_cluster.url(0)),
                       "--instance", "one", "--json", "--flush-interval", "0.2"},
                      1));
        QVERIFY(two.start({"--tcp", "127.0.0.1:0", "--redis",
                           QString::fromStdString(m_cluster.url(4)), "--instance", "two", "--json"},
                          1));
        for (ListeningCli* cli : {&one, &two}) {
            UniqueFd tcp = tcpConnect(cli->port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), repeated("g.hits:1|c\n", 1000).toStdString()));
            QVERIFY(sendAll(tcp.get(), repeated("other.key:1|c\n", 7).toStdString()));
        }
        QTest::qWait(300);  // the listeners read the bytes before the stop signal
        for (const CliResult& r : {one.stop(SIGINT), two.stop(SIGTERM)}) {
            QVERIFY(r.finished);
            QCOMPARE(r.exitCode, 0);
            const QJsonObject redis = jsonOf(r).value("redis").toObject();
            QVERIFY2(redis.value("flushes").toInt() >= 1, r.out.constData());
            QCOMPARE(redis.value("dropped_hits").toInt(), 0);
            QCOMPARE(redis.value("cluster").toBool(), true);
            QCOMPARE(redis.value("connected").toBool(), true);
            QVERIFY(!redis.value("commands_per_node").toObject().isEmpty());
        }
        for (int node = 0; node < m_cluster.size(); ++node) {
            const QString url =
                QStringLiteral("redis://127.0.0.1:%1").arg(m_cluster.node(node).port());
            const CliResult q = runCli({"query", "--redis", url, "g.hits", "--json"});
            QCOMPARE(q.exitCode, 0);
            const QJsonObject answer = jsonOf(q);
            QCOMPARE(answer.value("all_time").toInt(), 2000);
            QCOMPARE(answer.value("window").toInt(), 2000);
            QCOMPARE(answer.value("instances").toArray(), (QJsonArray{"one", "two"}));
        }
        const CliResult top =
            runCli({"query", "--redis", QString::fromStdString(m_cluster.url(2)), "--top", "2"});
        QCOMPARE(top.exitCode, 0);
        QCOMPARE(top.out, QByteArray("rank,key,count\n1,g.hits,2000\n2,other.key,14\n"));
    }

    void hotShardsNeedsRedisAndANumber() {
        const CliResult bad = runCli({"listen", "--tcp", "127.0.0.1:0", "--redis",
                                      QString::fromStdString(m_cluster.url(0)), "--hot-shards", "0",
                                      "--duration", "0.1"});
        QCOMPARE(bad.exitCode, 2);
        const CliResult alone =
            runCli({"listen", "--tcp", "127.0.0.1:0", "--hot-shards", "4", "--duration", "0.1"});
        QCOMPARE(alone.exitCode, 2);
    }

private:
    RedisCluster m_cluster;
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliCluster)
#include "tst_cli_cluster.moc"
