#include <QTest>

#include "core/fleet/redis_url.h"

using hitcounter::fleet::parseRedisUrl;
using hitcounter::fleet::RedisUrlError;

class RedisUrlTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hostPortAndDatabase() {
        const auto url = parseRedisUrl("redis://cache.local:6380/3");
        QCOMPARE(url.host, std::string("cache.local"));
        QCOMPARE(url.port, 6380);
        QCOMPARE(url.db, 3);
        QVERIFY(url.password.empty());
    }

    void passwordBeforeTheHost() {
        const auto url = parseRedisUrl("redis://:s3:cret@127.0.0.1:6379");
        QCOMPARE(url.password, std::string("s3:cret"));
        QCOMPARE(url.host, std::string("127.0.0.1"));
        QCOMPARE(url.db, 0);
        QCOMPARE(url.describe(), std::string("redis://127.0.0.1:6379/0"));  // no password
    }

    void ipv6LiteralInBrackets() {
        const auto url = parseRedisUrl("redis://[::1]:7000");
        QCOMPARE(url.host, std::string("::1"));
        QCOMPARE(url.port, 7000);
        QCOMPARE(url.describe(), std::string("redis://[::1]:7000/0"));
    }

    void badUrlsNameTheProblem_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("problem");
        QTest::newRow("scheme") << "http://h:1"
                                << "does not start with redis://";
        QTest::newRow("no port") << "redis://localhost"
                                 << "port is missing";
        QTest::newRow("port text") << "redis://h:abc"
                                   << "the port 'abc'";
        QTest::newRow("port zero") << "redis://h:0"
                                   << "the port '0'";
        QTest::newRow("port big") << "redis://h:65536"
                                  << "the port '65536'";
        QTest::newRow("empty host") << "redis://:6379"
                                    << "the host is empty";
        QTest::newRow("db text") << "redis://h:1/x"
                                 << "the database 'x'";
        QTest::newRow("db big") << "redis://h:1/16"
                                << "the database '16'";
        QTest::newRow("db empty") << "redis://h:1/"
                                  << "the database ''";
        QTest::newRow("user name") << "redis://bob:pw@h:1"
                                   << "user name is not supported";
        QTest::newRow("empty password") << "redis://:@h:1"
                                        << "password after ':' is empty";
        QTest::newRow("ipv6 no port") << "redis://[::1]"
                                      << "[ADDRESS]:PORT";
        QTest::newRow("empty") << ""
                               << "does not start with redis://";
    }
    void badUrlsNameTheProblem() {
        QFETCH(QString, text);
        QFETCH(QString, problem);
        try {
            parseRedisUrl(text.toStdString());
            QFAIL("no error");
        } catch (const RedisUrlError& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(problem), qPrintable(message));
            QVERIFY2(message.contains("'" + text + "'"), qPrintable(message));
        }
    }
};

QTEST_APPLESS_MAIN(RedisUrlTest)
#include "tst_redis_url.moc"
