// The _data() table both parser tests use: one row = one line and the verdict it must get.
#pragma once

#include <QTest>

#include <limits>

#include "core/net/parsed_line.h"

namespace hitcounter::testing {

inline constexpr qint64 kNow = std::numeric_limits<qint64>::min();  // "no time of its own"

inline void parserColumns() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("verdict");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<quint64>("hits");
    QTest::addColumn<qint64>("time");
}

inline void hitRow(const char* name, const QByteArray& line, const QByteArray& key, quint64 hits,
                   qint64 time = kNow) {
    QTest::newRow(name) << line << int(LineVerdict::Hit) << key << hits << time;
}

inline void otherRow(const char* name, const QByteArray& line, LineVerdict verdict) {
    QTest::newRow(name) << line << int(verdict) << QByteArray() << quint64{0} << kNow;
}

// Parses the current row's line with `parse` and compares everything the row states.
template <class Parse>
void verifyRow(Parse parse) {
    QFETCH(QByteArray, line);
    QFETCH(int, verdict);
    QFETCH(QByteArray, key);
    QFETCH(quint64, hits);
    QFETCH(qint64, time);
    const ParsedLine parsed = parse(std::string_view(line.constData(), line.size()));
    QCOMPARE(int(parsed.verdict), verdict);
    QCOMPARE(parsed.problem.empty(), verdict != int(LineVerdict::Bad));
    if (verdict == int(LineVerdict::Hit)) {
        QCOMPARE(QByteArray(parsed.key.data(), qsizetype(parsed.key.size())), key);
        QCOMPARE(quint64{parsed.hits}, hits);
        QCOMPARE(parsed.time.has_value(), time != kNow);
        if (parsed.time) {
            QCOMPARE(qint64{*parsed.time}, time);
        }
    }
}

}  // namespace hitcounter::testing
