// Log time syntaxes: CLF with offsets (across a DST change), ISO 8601 variants, epoch seconds,
// and everything that must be refused.
#include <QTest>

#include "core/io/log_time.h"
#include "tests/test_main.h"

using namespace hitcounter;

class TestLogTime : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void clfTimeAppliesItsOffset_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("utc");
        QTest::newRow("apache example") << "10/Oct/2000:13:55:36 -0700" << qint64(971211336);
        QTest::newRow("utc") << "10/Oct/2000:20:55:36 +0000" << qint64(971211336);
        QTest::newRow("east of utc") << "11/Oct/2000:05:55:36 +0900" << qint64(971211336);
        QTest::newRow("half-hour offset") << "11/Oct/2000:02:25:36 +0530" << qint64(971211336);
        // Europe/Berlin around the 2023-03-26 change: 01:59:59 +0100 and 03:00:00 +0200 are
        // one second apart.
        QTest::newRow("before dst") << "26/Mar/2023:01:59:59 +0100" << qint64(1679792399);
        QTest::newRow("after dst") << "26/Mar/2023:03:00:00 +0200" << qint64(1679792400);
        // The autumn change repeats 02:xx local: the offset tells the two apart.
        QTest::newRow("first 02:30") << "29/Oct/2023:02:30:00 +0200" << qint64(1698539400);
        QTest::newRow("second 02:30") << "29/Oct/2023:02:30:00 +0100" << qint64(1698543000);
        QTest::newRow("leap day") << "29/Feb/2024:00:00:00 +0000" << qint64(1709164800);
        QTest::newRow("epoch") << "01/Jan/1970:00:00:00 +0000" << qint64(0);
    }
    void clfTimeAppliesItsOffset() {
        QFETCH(QString, text);
        QFETCH(qint64, utc);
        const auto t = parseClfTime(text.toStdString());
        QVERIFY(t.has_value());
        QCOMPARE(*t, utc);
        QCOMPARE(parseAnyLogTime(text.toStdString()).value_or(-1), utc);
    }

    void isoTimeVariants_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("utc");
        QTest::newRow("offset with colon") << "2000-10-10T13:55:36-07:00" << qint64(971211336);
        QTest::newRow("offset without colon") << "2000-10-10T13:55:36-0700" << qint64(971211336);
        QTest::newRow("hours only") << "2000-10-10T13:55:36-07" << qint64(971211336);
        QTest::newRow("zulu") << "2000-10-10T20:55:36Z" << qint64(971211336);
        QTest::newRow("fraction floored") << "2000-10-10T20:55:36.999Z" << qint64(971211336);
        QTest::newRow("space, no zone is utc") << "2000-10-10 20:55:36" << qint64(971211336);
    }
    void isoTimeVariants() {
        QFETCH(QString, text);
        QFETCH(qint64, utc);
        QCOMPARE(parseIsoTime(text.toStdString()).value_or(-1), utc);
        QCOMPARE(parseAnyLogTime(text.toStdString()).value_or(-1), utc);
    }

    // Issue 23 item 5: the zone a log's lines are written in, from a time that parsed.
    void theOffsetOfATimeIsItsZone_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("offset");  // seconds east of UTC; -1: names none
        QTest::newRow("clf +1200") << "01/Mar/2009:18:52:07 +1200" << 43200;
        QTest::newRow("clf -0700") << "10/Oct/2000:13:55:36 -0700" << -25200;
        QTest::newRow("clf +0530") << "11/Oct/2000:02:25:36 +0530" << 19800;
        QTest::newRow("clf +0000") << "10/Oct/2000:20:55:36 +0000" << 0;
        QTest::newRow("iso colon") << "2000-10-10T13:55:36-07:00" << -25200;
        QTest::newRow("iso fraction") << "2000-10-10T13:55:36.250+05:45" << 20700;
        QTest::newRow("iso hours") << "2000-10-10T13:55:36-07" << -25200;
        QTest::newRow("zulu") << "2000-10-10T20:55:36Z" << 0;
        QTest::newRow("iso without zone") << "2000-10-10 20:55:36" << -1;
        QTest::newRow("epoch") << "971211336.123" << -1;
    }
    void theOffsetOfATimeIsItsZone() {
        QFETCH(QString, text);
        QFETCH(int, offset);
        QVERIFY(parseAnyLogTime(text.toStdString()).has_value());
        QCOMPARE(utcOffsetOf(text.toStdString()).value_or(-1), offset);
    }

    void epochSecondsAreFloored() {
        QCOMPARE(parseEpochTime("971211336").value_or(-1), 971211336);
        QCOMPARE(parseEpochTime("971211336.999").value_or(-1), 971211336);
        QCOMPARE(parseAnyLogTime("0.5").value_or(-1), 0);
    }

    // Each refusal says why (logTimeProblem), in words a message can quote.
    void malformedTimesAreRefused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("problem");
        const QString form = QStringLiteral("is not a time in a known form");
        const QString offset = QStringLiteral("has a UTC offset that is not +hhmm");
        QTest::newRow("empty") << "" << form;
        QTest::newRow("bad month") << "10/Foo/2000:13:55:36 -0700"
                                   << "names no month";
        QTest::newRow("31 february") << "31/Feb/2000:13:55:36 +0000"
                                     << "names a day that does not exist";
        QTest::newRow("hour 24") << "10/Oct/2000:24:00:00 +0000"
                                 << "names a time of day that does not exist";
        QTest::newRow("no offset") << "10/Oct/2000:13:55:36" << form;
        QTest::newRow("bad offset") << "10/Oct/2000:13:55:36 0700" << offset;
        QTest::newRow("offset hours 99") << "10/Oct/2000:13:55:36 +9999" << offset;
        QTest::newRow("offset minutes 60") << "10/Oct/2000:13:55:36 +0160" << offset;
        QTest::newRow("trailing text") << "10/Oct/2000:13:55:36 -0700]" << offset;
        QTest::newRow("before 1970") << "31/Dec/1969:23:59:59 +0000"
                                     << "is before 1970";
        QTest::newRow("before 1970 by offset") << "01/Jan/1970:00:30:00 +0100"
                                               << "is before 1970";
        QTest::newRow("iso bad zone") << "2000-10-10T13:55:36X" << offset;
        QTest::newRow("iso offset hours 25") << "2000-10-10T13:55:36+25:00" << offset;
        QTest::newRow("iso 30 february") << "2000-02-30T13:55:36Z"
                                         << "names a day that does not exist";
        QTest::newRow("iso no seconds") << "2000-10-10T13:55" << form;
        QTest::newRow("epoch sign") << "-5" << form;
        QTest::newRow("epoch exponent") << "1e9" << form;
        QTest::newRow("epoch dot only") << "5." << form;
        QTest::newRow("epoch too large") << "9999999999999999999" << form;
    }
    void malformedTimesAreRefused() {
        QFETCH(QString, text);
        QFETCH(QString, problem);
        QVERIFY(!parseAnyLogTime(text.toStdString()).has_value());
        const std::string_view why = logTimeProblem(text.toStdString());
        QVERIFY2(QString::fromUtf8(why.data(), qsizetype(why.size())).startsWith(problem),
                 std::string(why).c_str());
    }

    void aTimeThatParsesHasNoProblem() {
        for (const char* text :
             {"10/Oct/2000:13:55:36 -0700", "2000-10-10T13:55:36.5+05:30", "971211336.123"})
            QVERIFY2(logTimeProblem(text).empty(), text);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestLogTime)
#include "tst_log_time.moc"
