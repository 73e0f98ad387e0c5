// Known inputs shared by the GUI tests: replay traces and a stream pushed on the window's queue.
#pragma once

#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QTest>
#include <string>
#include <vector>

#include "core/base/hit_event.h"
#include "core/base/types.h"
#include "core/sources/batch_queue.h"

namespace hitcounter::testing {

// Writes trace.csv into `dir`: seconds 1..1000, second t holding (t % 7 + 1) rows of key k<t%3>.
// `perSecond[t]` gets the rows of second t. Returns the path, or an empty string if it cannot be
// written.
inline QString writeKnownTrace(const QTemporaryDir& dir, std::vector<Count>& perSecond) {
    const QString path = dir.filePath(QStringLiteral("trace.csv"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write("timestamp,key,visitor\n");
    perSecond.assign(1001, 0);
    for (int t = 1; t <= 1000; ++t) {
        for (int i = 0; i < t % 7 + 1; ++i) {
            file.write(QStringLiteral("%1,k%2,u%3\n").arg(t).arg(t % 3).arg(i).toUtf8());
            ++perSecond[std::size_t(t)];
        }
    }
    return path;
}

// Writes `name` into `dir`: a trace CSV with one hit of key k in each of seconds first..last
// (none if last < first). Returns the path, or an empty string if it cannot be written.
inline QString writeOneHitTrace(const QTemporaryDir& dir, const QString& name, int first,
                                int last) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write("timestamp,key,visitor\n");
    for (int t = first; t <= last; ++t) {
        file.write(QStringLiteral("%1,k,u\n").arg(t).toUtf8());
    }
    return path;
}

// Pushes seconds 1000..1009 of `key` onto `queue`, second s holding s - 999 hits: 1..10 hits per
// second, 55 in all.
inline void pushKnownStream(BatchQueue& queue, const std::string& key = "page") {
    for (Timestamp s = 1000; s < 1010; ++s) {
        HitBatch batch;
        for (Timestamp i = 0; i < s - 999; ++i) {
            batch.push_back(HitEvent{s, key, "visitor", 1});
        }
        QVERIFY(queue.tryPush(std::move(batch)));
    }
}

}  // namespace hitcounter::testing
