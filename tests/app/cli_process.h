// Runs the built hitcounter-cli (path in HITCOUNTER_CLI) with QProcess for the CLI tests.
#pragma once

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

struct CliResult {
    bool finished = false;  // false: it crashed or did not end within the time limit
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs the CLI with `arguments`, `input` on its stdin (closed afterwards), for at most
// `timeoutMs`; a run that does not finish is killed and reported as not finished. With
// `stdoutFile` (such as /dev/full) its stdout goes there instead of `out`.
inline CliResult runCli(const QStringList& arguments, const QByteArray& input = {},
                        int timeoutMs = 30000, const QString& stdoutFile = {}) {
    QProcess process;
    if (!stdoutFile.isEmpty())
        process.setStandardOutputFile(stdoutFile);
    process.start(QStringLiteral(HITCOUNTER_CLI), arguments);
    CliResult result;
    if (!process.waitForStarted(timeoutMs))
        return result;
    process.write(input);
    process.closeWriteChannel();
    result.finished =
        process.waitForFinished(timeoutMs) && process.exitStatus() == QProcess::NormalExit;
    if (!result.finished) {
        process.kill();
        process.waitForFinished(timeoutMs);
    }
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// A file from the shared test inputs (HITCOUNTER_TESTDATA).
inline QString testdataPath(const QString& name) {
    return qEnvironmentVariable("HITCOUNTER_TESTDATA") + QLatin1Char('/') + name;
}

inline QByteArray testdata(const QString& name) {
    QFile file(testdataPath(name));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
