// listen under systemd's notify protocol, over a real AF_UNIX datagram socket standing in for
// systemd's (NOTIFY_SOCKET): READY=1 once listening, WATCHDOG=1 pings at half WATCHDOG_USEC
// from the counting loop, RELOADING=1 / READY=1 around a SIGHUP with --config, STOPPING=1 at
// the stop. And the unit file passes systemd-analyze verify.
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QFile>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>

#include "core/net/socket_util.h"
#include "tests/app/listen_process.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

// A datagram socket bound at `path`, like the one systemd gives a Type=notify service.
UniqueFd notifySocket(const QString& path) {
    UniqueFd fd(::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    std::memcpy(address.sun_path, name.constData(), size_t(name.size()));
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
        return UniqueFd();
    return fd;
}

// The messages that arrive within `timeoutMs`, until `until` is among them.
QByteArrayList receiveUntil(int fd, const QByteArray& until, int timeoutMs = 20000) {
    QByteArrayList messages;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        char buffer[4096];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0)
            continue;
        messages << QByteArray(buffer, int(n));
        if (messages.constLast().contains(until))
            break;
    }
    return messages;
}

}  // namespace

class TestCliListenService : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tellsSystemdItIsReadyPingsTheWatchdogAndSaysWhenItStops() {
        QTemporaryDir dir;
        const QString path = dir.filePath("notify");
        UniqueFd socket = notifySocket(path);
        QVERIFY(socket);
        const QString config = dir.filePath("c.toml");
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("tcp = [\"127.0.0.1:0\"]\n");
        file.close();
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert("NOTIFY_SOCKET", path);
        environment.insert("WATCHDOG_USEC", "200000");  // a ping at least every 100 ms
        ListeningCli cli;
        cli.setEnvironment(environment);
        QVERIFY(cli.start({"--config", config}, 1));
        const QByteArrayList started = receiveUntil(socket.get(), "READY=1");
        QVERIFY2(!started.isEmpty() && started.constLast().startsWith("READY=1\nSTATUS="),
                 started.join(" | ").constData());
        int pings = 0;
        for (const QByteArray& m : receiveUntil(socket.get(), "never", 1500))
            pings += m == "WATCHDOG=1" ? 1 : 0;
        QVERIFY2(pings >= 3, qPrintable(QString::number(pings)));
        cli.send(SIGHUP);
        const QByteArrayList reload = receiveUntil(socket.get(), "READY=1");
        QVERIFY(reload.join('|').contains("RELOADING=1"));
        QVERIFY(reload.constLast().startsWith("READY=1"));
        cli.send(SIGTERM);
        QVERIFY(receiveUntil(socket.get(), "STOPPING=1").join('|').contains("STOPPING=1"));
        QCOMPARE(cli.finish().exitCode, 0);
    }

    void withoutSystemdNothingChanges() {
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.remove("NOTIFY_SOCKET");
        ListeningCli cli;
        cli.setEnvironment(environment);
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--duration", "0.5"}, 1));
        QCOMPARE(cli.finish().exitCode, 0);
    }

    void theUnitFileVerifies() {
        const QString analyze = QStandardPaths::findExecutable(QStringLiteral("systemd-analyze"));
        if (analyze.isEmpty())
            QSKIP("systemd-analyze is not installed (package systemd)");
        QFile unit(QStringLiteral(HITCOUNTER_SERVICE_UNIT));
        QVERIFY(unit.open(QIODevice::ReadOnly));
        QByteArray text = unit.readAll();
        QVERIFY(text.contains("Type=notify\n"));
        QVERIFY(text.contains("WatchdogSec="));
        // The installed path is where `cmake --install` puts it; here the built binary.
        text.replace("/usr/bin/hitcounter-cli", HITCOUNTER_CLI);
        QTemporaryDir dir;
        QFile copy(dir.filePath("hitcounter.service"));
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.write(text);
        copy.close();
        QProcess verify;
        verify.setProcessChannelMode(QProcess::MergedChannels);
        verify.start(analyze, {QStringLiteral("verify"), copy.fileName()});
        QVERIFY(verify.waitForFinished(60000));
        const QByteArray output = verify.readAll();
        QVERIFY2(verify.exitCode() == 0, output.constData());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliListenService)
#include "tst_cli_listen_service.moc"
