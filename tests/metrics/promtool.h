// Runs Prometheus' own checker on an exposition: `promtool check metrics` (Debian's prometheus
// package, scripts/install-deps.sh) with `text` on its stdin. Its exit code (negative if it
// did not start or finish) and what it printed.
#pragma once

#include <QByteArray>
#include <QProcess>

#include <string>
#include <utility>

inline std::pair<int, QByteArray> promtoolCheck(const std::string& text) {
    QProcess process;
    process.start(QStringLiteral("promtool"), {QStringLiteral("check"), QStringLiteral("metrics")});
    if (!process.waitForStarted(30000))
        return {-1, "promtool did not start (scripts/install-deps.sh installs prometheus)"};
    process.write(text.data(), qint64(text.size()));
    process.closeWriteChannel();
    if (!process.waitForFinished(120000))
        return {-2, "promtool did not finish"};
    return {process.exitCode(), process.readAllStandardOutput() + process.readAllStandardError()};
}
