// RedisConnection against real redis-servers: errors are clear and nothing hangs.
#include <QElapsedTimer>
#include <QTest>

#include "core/fleet/redis_connection.h"
#include "tests/fleet/redis_server.h"
#include "tests/test_main.h"

using namespace std::chrono_literals;
using namespace hitcounter::fleet;

class RedisConnectionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pipelineAnswersInOrder() {
        RedisServer redis;
        QVERIFY(redis.start());
        RedisConnection c(parseRedisUrl(redis.url() + "/2"));
        const auto replies = c.pipeline({{"INCRBY", "k", "2"}, {"GET", "k"}, {"HGET", "k", "f"}});
        QCOMPARE(replies[0].integer, 2LL);
        QCOMPARE(replies[1].text, std::string("2"));
        QVERIFY(replies[2].isError());  // WRONGTYPE, returned not thrown
        QVERIFY_THROWS_EXCEPTION(RedisError, c.command({"HGET", "k", "f"}));
        RedisConnection db0(parseRedisUrl(redis.url()));
        QCOMPARE(db0.command({"EXISTS", "k"}).integer, 0LL);  // SELECT 2 took effect
    }

    void aManyThousandCommandPipelineIsChunked() {
        RedisServer redis;
        QVERIFY(redis.start());
        RedisConnection c(parseRedisUrl(redis.url()));
        std::vector<RedisConnection::Command> commands(5000, {"INCR", "n"});
        const auto replies = c.pipeline(commands);
        QCOMPARE(replies.size(), std::size_t(5000));
        QCOMPARE(replies.back().integer, 5000LL);
    }

    void passwordsAreChecked() {
        RedisServer redis({"--requirepass", "right"});
        QVERIFY(redis.start());
        RedisConnection ok(parseRedisUrl(redis.url("right")));
        QCOMPARE(ok.command({"PING"}).text, std::string("PONG"));
        for (const std::string& password : {std::string("wrong"), std::string()}) {
            try {
                RedisConnection bad(parseRedisUrl(redis.url(password)));
                QFAIL("connected with a wrong password");
            } catch (const RedisError& e) {
                QCOMPARE(e.kind(), RedisError::Kind::Rejected);
                QVERIFY2(QByteArray(e.what()).contains("refused"), e.what());
            }
        }
    }

    // redis://USER:PASSWORD@ sends AUTH USER PASSWORD (an ACL user; refused as a URL before).
    void anAclUserLogsIn() {
        RedisServer redis;
        QVERIFY(redis.start());
        RedisConnection admin(parseRedisUrl(redis.url()));
        QVERIFY(!admin.command({"ACL", "SETUSER", "app", "on", ">apppw", "~*", "+@all"}).isError());
        const std::string address = redis.url().substr(std::string("redis://").size());
        RedisConnection app(parseRedisUrl("redis://app:apppw@" + address));
        QCOMPARE(app.command({"ACL", "WHOAMI"}).text, std::string("app"));
        try {
            RedisConnection wrong(parseRedisUrl("redis://app:nope@" + address));
            QFAIL("connected with a wrong password");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Rejected);
        }
    }

    void anUnreachableServerFailsQuickly() {
        QElapsedTimer timer;
        timer.start();
        try {
            RedisConnection c(
                parseRedisUrl("redis://127.0.0.1:" + std::to_string(RedisServer::freePort())),
                {300ms, 300ms});
            QFAIL("connected to nothing");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Unreachable);
            QVERIFY2(QByteArray(e.what()).contains("cannot connect"), e.what());
        }
        QVERIFY(timer.elapsed() < 3000);
    }

    void aServerThatNeverAnswersTimesOut() {
        // A listening socket that accepts (backlog) but never replies.
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof a;
        QVERIFY(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        QVERIFY(::listen(fd, 4) == 0);
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &length);
        QElapsedTimer timer;
        timer.start();
        try {
            RedisConnection c(
                parseRedisUrl("redis://127.0.0.1:" + std::to_string(ntohs(a.sin_port))),
                {300ms, 300ms});
            QFAIL("a silent server answered");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Unreachable);
            QVERIFY2(QByteArray(e.what()).contains("no answer within the command timeout"),
                     e.what());
        }
        QVERIFY(timer.elapsed() < 3000);
        ::close(fd);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(RedisConnectionTest)
#include "tst_redis_connection.moc"
