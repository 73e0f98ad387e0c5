// RedisServer: a real redis-server for tests, started on a free loopback port in a temporary
// folder and stopped (SIGKILL if it must) when the object goes. Reusable by every Redis test
// (the cluster tests can start several).
//
// Not thread-safe; owned by the test thread. start() waits, bounded, until the server answers
// PING. kill() ends it abruptly (SIGKILL); start() again restarts it on the same port and
// folder (with persistence options, it reloads its data).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>

#include "core/fleet/redis_connection.h"

class RedisServer {
public:
    explicit RedisServer(QStringList extraArguments = {})
        : m_extra(std::move(extraArguments)), m_port(freePort()) {}
    ~RedisServer() { kill(); }

    // Starts (or restarts) the server; false if it did not answer within `timeoutMs`.
    bool start(int timeoutMs = 10000) {
        if (!m_dir.isValid() || m_port == 0)
            return false;
        m_process.setWorkingDirectory(m_dir.path());
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(
            QStringLiteral("redis-server"),
            QStringList{"--port", QString::number(m_port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no", "--dir", m_dir.path(), "--protected-mode", "no"} +
                m_extra);
        if (!m_process.waitForStarted(timeoutMs))
            return false;
        for (int waited = 0; waited < timeoutMs; waited += 50) {
            if (m_process.state() == QProcess::NotRunning)
                return false;
            if (answers())
                return true;
            QThread::msleep(50);
        }
        return false;
    }

    void kill() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    quint16 port() const { return m_port; }
    std::string url(const std::string& password = {}) const {
        return "redis://" + (password.empty() ? std::string() : ":" + password + "@") +
               "127.0.0.1:" + std::to_string(m_port);
    }
    QByteArray output() { return m_process.readAll(); }

    // A free TCP port on 127.0.0.1 (bound to port 0, then released).
    static quint16 freePort() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        quint16 port = 0;
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            port = ntohs(address.sin_port);
        if (fd >= 0)
            ::close(fd);
        return port;
    }

private:
    bool answers() const {
        try {
            hitcounter::fleet::RedisUrl url{"127.0.0.1", m_port, 0, {}};
            hitcounter::fleet::RedisConnection c(
                url, {std::chrono::milliseconds(200), std::chrono::milliseconds(500)});
            return true;
        } catch (const hitcounter::fleet::RedisError& e) {
            // A password-protected server answers too (it refuses our empty password).
            return e.kind() == hitcounter::fleet::RedisError::Kind::Rejected;
        }
    }

    QStringList m_extra;
    quint16 m_port;
    QTemporaryDir m_dir;
    QProcess m_process;
};
