// The hot-shots statsd client (Node, tests/net/hotshots/send.js) sends N increments over TCP
// to `hitcounter-cli listen --tcp`; after the client has closed, SIGTERM ends the listener,
// whose JSON report must hold exactly N hits for the metric.
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "tests/app/listen_process.h"
#include "tests/test_main.h"

class TestHotShots : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (!QDir(QStringLiteral(HOTSHOTS_DIR "/node_modules/hot-shots")).exists())
            QSKIP(
                "hot-shots is not installed: run `npm ci --prefix tests/net/hotshots` "
                "(scripts/test.sh does)");
    }

    void everyIncrementArrivesExactly_data() {
        QTest::addColumn<int>("clients");
        QTest::addColumn<int>("increments");
        QTest::newRow("one increment") << 1 << 1;
        QTest::newRow("ten thousand") << 1 << 10000;
        QTest::newRow("three clients at once") << 3 << 20000;
    }
    void everyIncrementArrivesExactly() {
        QFETCH(int, clients);
        QFETCH(int, increments);
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--json"}, 1));
        const QString port = QString::number(cli.port(QStringLiteral("statsd tcp")));

        std::vector<std::unique_ptr<QProcess>> senders;
        for (int i = 0; i < clients; ++i) {
            auto& node = senders.emplace_back(std::make_unique<QProcess>());
            node->start(QStringLiteral(NODE_EXECUTABLE),
                        {QStringLiteral(HOTSHOTS_DIR "/send.js"), port, QString::number(increments),
                         QStringLiteral("hotshots.c%1").arg(i)});
        }
        for (auto& node : senders) {
            QVERIFY(node->waitForFinished(30000));
            QVERIFY2(node->exitStatus() == QProcess::NormalExit && node->exitCode() == 0,
                     node->readAllStandardError().constData());
        }

        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(report["hits"].toInteger(), qint64(clients) * increments);
        QCOMPARE(report["bad_lines"].toInteger(), 0);
        const QJsonObject keys = report["keys"].toObject();
        QCOMPARE(keys.size(), clients);
        for (int i = 0; i < clients; ++i)
            QCOMPARE(keys[QStringLiteral("hotshots.c%1").arg(i)].toInteger(), increments);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestHotShots)
#include "tst_hotshots.moc"
