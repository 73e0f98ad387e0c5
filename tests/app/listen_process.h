// Runs `hitcounter-cli listen` in the background for the listener CLI tests: starts it, learns
// the bound ports from its "listening on ..." lines on stderr, and stops it with a signal.
#pragma once

#include <unistd.h>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <csignal>

#include "tests/app/cli_process.h"

class ListeningCli {
public:
    ~ListeningCli() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    // Its environment (sd_notify's NOTIFY_SOCKET, HITCOUNTER_*); call before start().
    void setEnvironment(const QProcessEnvironment& environment) {
        m_process.setProcessEnvironment(environment);
    }

    // Sends its stdout to `file` (such as /dev/full); call before start().
    void setStandardOutputFile(const QString& file) { m_process.setStandardOutputFile(file); }
    // Gives it a stdout pipe whose read end is already closed: every write there fails
    // (SIGPIPE, EPIPE). Call before start().
    void setBrokenPipeAsStandardOutput() {
        int ends[2];
        if (::pipe(ends) != 0)
            return;
        ::close(ends[0]);
        m_brokenPipe = ends[1];
        m_process.setChildProcessModifier([fd = ends[1]] { ::dup2(fd, STDOUT_FILENO); });
    }

    // Starts `hitcounter-cli listen <arguments>` and waits (bounded) until `listeners`
    // "listening on" lines have appeared. False if it ended or did not get there in time.
    bool start(const QStringList& arguments, int listeners, int timeoutMs = 10000) {
        m_process.start(QStringLiteral(HITCOUNTER_CLI), QStringList{"listen"} + arguments);
        const bool started = m_process.waitForStarted(timeoutMs);
        if (m_brokenPipe >= 0)
            ::close(m_brokenPipe);
        m_brokenPipe = -1;
        if (!started)
            return false;
        QElapsedTimer timer;
        timer.start();
        while (m_err.count("listening on ") < listeners && timer.elapsed() < timeoutMs) {
            if (m_process.state() == QProcess::NotRunning)
                return false;
            m_process.waitForReadyRead(100);
            m_err += m_process.readAllStandardError();
        }
        return m_err.count("listening on ") >= listeners;
    }

    // Waits (bounded) until `text` has appeared on its stderr; false if it ended first.
    bool waitForError(const QByteArray& text, int timeoutMs = 10000) {
        QElapsedTimer timer;
        timer.start();
        while (!m_err.contains(text) && timer.elapsed() < timeoutMs &&
               m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(100);
            m_err += m_process.readAllStandardError();
        }
        return m_err.contains(text);
    }

    // The port of the listener described as `kind` ("statsd udp", "statsd tcp",
    // "graphite tcp"); 0 if there is none.
    quint16 port(const QString& kind) const {
        const QRegularExpression line(
            QStringLiteral("listening on %1 \\S+:(\\d+)").arg(QRegularExpression::escape(kind)));
        return quint16(line.match(QString::fromUtf8(m_err)).captured(1).toUInt());
    }

    // What it wrote to stderr so far (for failure messages).
    const QByteArray& errorOutput() const { return m_err; }

    // The port of its metrics endpoint, from "serving metrics on http://HOST:PORT/metrics"
    // (waiting for that line, bounded); 0 if it does not come.
    quint16 metricsPort(int timeoutMs = 10000) {
        if (!waitForError("/metrics\n", timeoutMs))
            return 0;
        const QRegularExpression line(
            QStringLiteral("serving metrics on http://\\S+:(\\d+)/metrics"));
        return quint16(line.match(QString::fromUtf8(m_err)).captured(1).toUInt());
    }

    // Sends `signal` and waits (bounded) for the process to end.
    CliResult stop(int signal = SIGTERM, int timeoutMs = 10000) {
        send(signal);
        return finish(timeoutMs);
    }

    void send(int signal) { ::kill(pid_t(m_process.processId()), signal); }
    qint64 pid() const { return m_process.processId(); }

    // Waits (bounded) for the process to end by itself.
    CliResult finish(int timeoutMs = 10000) {
        CliResult result;
        result.finished =
            m_process.waitForFinished(timeoutMs) && m_process.exitStatus() == QProcess::NormalExit;
        result.exitCode = m_process.exitCode();
        result.out = m_process.readAllStandardOutput();
        result.err = m_err + m_process.readAllStandardError();
        return result;
    }

private:
    QProcess m_process;
    QByteArray m_err;
    int m_brokenPipe = -1;  // the write end handed to the child, until it started
};
