// HOST:PORT parsing and binding errors (core/net/socket_util.h).
#include <QTest>

#include <poll.h>

#include "core/net/socket_util.h"
#include "core/sources/source.h"
#include "tests/test_main.h"

using namespace hitcounter;

class SocketUtilTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void endpointsAreParsed_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("host and port") << "127.0.0.1:8125"
                                       << "127.0.0.1" << 8125;
        QTest::newRow("port only means loopback") << "2003"
                                                  << "127.0.0.1" << 2003;
        QTest::newRow("any address") << "0.0.0.0:0"
                                     << "0.0.0.0" << 0;
        QTest::newRow("bracketed IPv6") << "[::1]:8125"
                                        << "::1" << 8125;
        QTest::newRow("name") << "localhost:65535"
                              << "localhost" << 65535;
    }
    void endpointsAreParsed() {
        QFETCH(QString, text);
        QFETCH(QString, host);
        QFETCH(int, port);
        const Endpoint e = parseEndpoint(text.toStdString());
        QCOMPARE(QString::fromStdString(e.host), host);
        QCOMPARE(int(e.port), port);
    }

    void badEndpointsNameTheText_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << "";
        QTest::newRow("no port") << "127.0.0.1:";
        QTest::newRow("port too big") << "127.0.0.1:65536";
        QTest::newRow("port not a number") << "127.0.0.1:http";
        QTest::newRow("empty host") << ":8125";
        QTest::newRow("unbracketed IPv6") << "::1:8125";
    }
    void badEndpointsNameTheText() {
        QFETCH(QString, text);
        try {
            parseEndpoint(text.toStdString());
            QFAIL("accepted a bad address");
        } catch (const SourceError& e) {
            QVERIFY2(QString(e.what()).contains('"' + text + '"'), e.what());
        }
    }

    void portZeroGetsAFreePortThatIsReported() {
        UniqueFd fd = bindSocket(SOCK_STREAM, parseEndpoint("127.0.0.1:0"), "test tcp");
        QVERIFY(fd);
        QVERIFY(localPort(fd.get()) != 0);
        QCOMPARE(QString::fromStdString(localAddress(fd.get())),
                 QString("127.0.0.1:%1").arg(localPort(fd.get())));
    }

    void takenPortNamesAddressAndReason() {
        UniqueFd first = bindSocket(SOCK_DGRAM, parseEndpoint("127.0.0.1:0"), "statsd udp");
        const std::uint16_t port = localPort(first.get());
        try {
            bindSocket(SOCK_DGRAM, Endpoint{"127.0.0.1", port}, "statsd udp");
            QFAIL("bound a taken port");
        } catch (const SourceError& e) {
            const QString message = e.what();
            QVERIFY2(message.contains(QString("statsd udp 127.0.0.1:%1").arg(port)), e.what());
            QVERIFY2(message.contains("Address already in use"), e.what());
        }
    }

    void addressNotOnThisMachineIsAnError() {
        try {
            bindSocket(SOCK_STREAM, Endpoint{"192.0.2.1", 0}, "graphite tcp");
            QFAIL("bound an address this machine does not have");
        } catch (const SourceError& e) {
            QVERIFY2(QString(e.what()).startsWith("graphite tcp 192.0.2.1:0: cannot bind: "),
                     e.what());
        }
    }

    void wakeFdBecomesReadable() {
        WakeFd wake;
        pollfd p{wake.fd(), POLLIN, 0};
        QCOMPARE(::poll(&p, 1, 0), 0);
        wake.notify();
        QCOMPARE(::poll(&p, 1, 0), 1);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(SocketUtilTest)
#include "tst_socket_util.moc"
