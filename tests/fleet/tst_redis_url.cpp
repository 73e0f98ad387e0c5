#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "core/fleet/redis_url.h"
#include "tests/test_main.h"

using namespace hitcounter::fleet;

namespace {
void writeFile(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}
}  // namespace

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

    // Redis 6 ACL users (before: "a user name is not supported").
    void anAclUserWithAndWithoutItsPassword() {
        const auto url = parseRedisUrl("redis://app:s3:cret@cache:6380/1");
        QCOMPARE(url.user, std::string("app"));
        QCOMPARE(url.password, std::string("s3:cret"));
        QCOMPARE(url.describe(), std::string("redis://app@cache:6380/1"));
        const auto noPassword = parseRedisUrl("redis://app@cache:6380");
        QCOMPARE(noPassword.user, std::string("app"));
        QVERIFY(noPassword.password.empty());
    }

    void passwordsAreHiddenInWhatIsPrintedAndStored_data() {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("redacted");
        QTest::addColumn<QString>("stored");
        QTest::newRow("no password") << "redis://h:1"
                                     << "redis://h:1"
                                     << "redis://h:1";
        QTest::newRow("password") << "redis://:s3cret@h:1/2"
                                  << "redis://:***@h:1/2"
                                  << "redis://h:1/2";
        QTest::newRow("user and password") << "redis://app:s3:cr@t@[::1]:1"
                                           << "redis://app:***@[::1]:1"
                                           << "redis://app@[::1]:1";
        QTest::newRow("user only") << "redis://app@h:1"
                                   << "redis://app@h:1"
                                   << "redis://app@h:1";
        QTest::newRow("not a URL") << "s3cret"
                                   << "s3cret"
                                   << "s3cret";
    }
    void passwordsAreHiddenInWhatIsPrintedAndStored() {
        QFETCH(QString, url);
        QFETCH(QString, redacted);
        QFETCH(QString, stored);
        QCOMPARE(QString::fromStdString(redactedRedisUrl(url.toStdString())), redacted);
        QCOMPARE(QString::fromStdString(redisUrlWithoutPassword(url.toStdString())), stored);
    }

    // The malformed-URL message echoed the whole URL, password and all.
    void aBadUrlsMessageNeverHoldsItsPassword() {
        try {
            parseRedisUrl("redis://:s3cret@h:99999");
            QFAIL("no error");
        } catch (const RedisUrlError& e) {
            QVERIFY2(!QByteArray(e.what()).contains("s3cret"), e.what());
            QVERIFY2(QByteArray(e.what()).contains("'redis://:***@h:99999'"), e.what());
        }
    }

    void thePasswordComesFromAFileOrTheEnvironment() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("pw").toStdString();
        writeFile(file, "fromfile\nsecond line\n");
        qputenv(kRedisPasswordVariable, "fromenv");
        QCOMPARE(resolveRedisUrl("redis://h:1").password, std::string("fromenv"));
        QCOMPARE(resolveRedisUrl("redis://:inurl@h:1").password, std::string("inurl"));
        QCOMPARE(resolveRedisUrl("redis://:inurl@h:1", file).password, std::string("fromfile"));
        const auto user = resolveRedisUrl("redis://app@h:1");
        QCOMPARE(user.user, std::string("app"));
        QCOMPARE(user.password, std::string("fromenv"));
        qunsetenv(kRedisPasswordVariable);
        QVERIFY(resolveRedisUrl("redis://h:1").password.empty());

        const std::string empty = dir.filePath("empty").toStdString();
        writeFile(empty, "\nhidden\n");
        const std::string large = dir.filePath("large").toStdString();
        writeFile(large, std::string(kMaxPasswordFileBytes + 1, 'x'));
        for (const std::string& bad : {empty, large, dir.filePath("missing").toStdString()}) {
            try {
                resolveRedisUrl("redis://h:1", bad);
                QFAIL("a bad password file was taken");
            } catch (const RedisUrlError& e) {
                QVERIFY2(QByteArray(e.what()).contains(bad.c_str()), e.what());
                QVERIFY2(!QByteArray(e.what()).contains("hidden"), e.what());
            }
        }
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
        QTest::newRow("empty user name") << "redis://@h:1"
                                         << "user name before '@' is empty";
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

HITCOUNTER_TEST_APPLESS_MAIN(RedisUrlTest)
#include "tst_redis_url.moc"
