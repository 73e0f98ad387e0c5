// The files a replay or follow must refuse at once, for data-driven Qt tests: a FIFO without a
// writer (open() would block) and /dev/zero (a read would never end).
//
//     void refused_data() { addSpecialFileRows(QStringLiteral("--replay"),
//                                              QStringLiteral("--follow")); }
//     void refused() { QFETCH(QString, source); QFETCH(bool, fifo); QFETCH(QString, what);
//                      QTemporaryDir dir; const QString path = specialFile(dir, fifo); ... }
#pragma once

#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace hitcounter::testing {

// Columns source (`replay` or `follow`, as the test names them), fifo and what (the words the
// refusal names the file with), one row for each source and file.
inline void addSpecialFileRows(const QString& replay, const QString& follow) {
    QTest::addColumn<QString>("source");
    QTest::addColumn<bool>("fifo");
    QTest::addColumn<QString>("what");
    QTest::newRow("replay fifo") << replay << true << "it is a FIFO";
    QTest::newRow("follow fifo") << follow << true << "it is a FIFO";
    QTest::newRow("replay /dev/zero") << replay << false << "it is a character device";
    QTest::newRow("follow /dev/zero") << follow << false << "it is a character device";
}

// A new FIFO in `dir` ("" if it cannot be made), or /dev/zero.
inline QString specialFile(const QTemporaryDir& dir, bool fifo) {
    if (!fifo)
        return QStringLiteral("/dev/zero");
    const QString path = dir.filePath(QStringLiteral("pipe"));
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0 ? path : QString();
}

}  // namespace hitcounter::testing
