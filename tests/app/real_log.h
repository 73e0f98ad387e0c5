// A real Combined log no one here wrote (logstalgia's example: 3,260 lines, Debian's
// logstalgia package, installed by scripts/install-deps.sh) and what tests do with its lines:
// read and write them, cut them into files, and read a line's time with Qt (independently of
// core/io's parser).
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QFile>
#include <QList>
#include <QString>
#include <QTimeZone>

namespace hitcounter::testing {

inline const QString kRealLog = QStringLiteral("/usr/share/logstalgia/example.log");
inline constexpr qsizetype kRealLogLines = 3260;

inline QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// The unix time of a Combined line's `[22/Apr/2009:18:52:51 +1200]`.
inline qint64 timeOf(const QByteArray& line) {
    const qsizetype open = line.indexOf('[');
    const QByteArray field = line.mid(open + 1, line.indexOf(']') - open - 1);
    const QDateTime read = QDateTime::fromString(QString::fromLatin1(field.left(20)),
                                                 QStringLiteral("dd/MMM/yyyy:hh:mm:ss"));
    const QDateTime local(read.date(), read.time(), QTimeZone::utc());
    const QByteArray zone = field.mid(21);
    const int offset = (zone.mid(1, 2).toInt() * 60 + zone.mid(3, 2).toInt()) * 60;
    return local.toSecsSinceEpoch() - (zone.startsWith('-') ? -offset : offset);
}

inline QList<QByteArray> linesOf(const QByteArray& text) {
    QList<QByteArray> lines = text.split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

inline QByteArray joined(const QList<QByteArray>& lines) {
    QByteArray text;
    for (const QByteArray& line : lines)
        text += line + '\n';
    return text;
}

}  // namespace hitcounter::testing
