// readTimeTarget: what a person types in the replay bar's Go to box, read against the
// replay's time and the zone shown. Expected times are written out as unix seconds worked out
// by hand from 2009-04-22 00:00:00 UTC = 1240358400 (not computed with the code under test).
#include <QTest>

#include "tests/test_main.h"
#include "ui/plot/display_zone.h"
#include "ui/sources/time_target.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

constexpr Timestamp kMidnight = 1240358400;                 // 2009-04-22 00:00:00 UTC
constexpr Timestamp kNow = kMidnight + 6 * 3600 + 55 * 60;  // 06:55:00 UTC, 18:55 at +12:00

DisplayZone utc() {
    return resolveZone(ZoneChoice::Utc, std::nullopt);
}
DisplayZone plusTwelve() {
    return resolveZone(ZoneChoice::Log, 12 * 3600);
}

}  // namespace

class TestTimeTarget : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsWhatPeopleType_data() {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<bool>("plusTwelveZone");
        QTest::addColumn<qlonglong>("expected");
        QTest::newRow("minutes back") << "-15m" << false << qlonglong(kNow - 900);
        QTest::newRow("seconds on") << "+30s" << false << qlonglong(kNow + 30);
        QTest::newRow("hours and minutes") << "-1h30m" << false << qlonglong(kNow - 5400);
        QTest::newRow("days, spaced") << " + 2d " << false << qlonglong(kNow + 2 * 86400);
        QTest::newRow("bare seconds back") << "-90" << false << qlonglong(kNow - 90);
        QTest::newRow("clock time, UTC") << "06:50:30" << false << qlonglong(kNow - 270);
        QTest::newRow("clock time, one digit")
            << "6:05" << false << qlonglong(kMidnight + 6 * 3600 + 300);
        // At +12:00 now is 18:55 on 22 April there: 06:50 there is 18:50 UTC the day before.
        QTest::newRow("clock time, +12:00")
            << "06:50" << true << qlonglong(kMidnight - 86400 + 18 * 3600 + 3000);
        QTest::newRow("date and time") << "2009-04-22 06:55" << false << qlonglong(kNow);
        QTest::newRow("date and time at +12:00")
            << "2009-04-22 18:55:10" << true << qlonglong(kNow + 10);
        QTest::newRow("ISO with Z, zone ignored")
            << "2009-04-22T06:55:30Z" << true << qlonglong(kNow + 30);
        QTest::newRow("own offset +12:00") << "2009-04-22 18:55 +12:00" << false << qlonglong(kNow);
        QTest::newRow("own offset -0700")
            << "2009-04-21 23:55:00 -0700" << false << qlonglong(kNow);
        QTest::newRow("unix seconds") << "1240383300" << true << qlonglong(kNow);
    }
    void readsWhatPeopleType() {
        QFETCH(QString, typed);
        QFETCH(bool, plusTwelveZone);
        QFETCH(qlonglong, expected);
        const auto read = readTimeTarget(typed, kNow, true, plusTwelveZone ? plusTwelve() : utc());
        QVERIFY2(std::holds_alternative<Timestamp>(read),
                 qPrintable(std::get_if<QString>(&read) ? *std::get_if<QString>(&read) : ""));
        QCOMPARE(qlonglong(std::get<Timestamp>(read)), expected);
    }

    void traceTimesAreSecondsAndSteps() {
        QCOMPARE(std::get<Timestamp>(readTimeTarget(QStringLiteral("1200"), 1500, false, utc())),
                 Timestamp(1200));
        QCOMPARE(std::get<Timestamp>(readTimeTarget(QStringLiteral("-5m"), 1500, false, utc())),
                 Timestamp(1200));
        const auto clock = readTimeTarget(QStringLiteral("06:55"), 1500, false, utc());
        QVERIFY(std::holds_alternative<QString>(clock));
        QVERIFY2(std::get<QString>(clock).contains(QStringLiteral("trace time")),
                 qPrintable(std::get<QString>(clock)));
    }

    void refusesWhatIsNoTime_data() {
        QTest::addColumn<QString>("typed");
        for (const char* text : {"", "yesterday", "1h30", "-", "+m", "--5m", "2009-02-30 10:00",
                                 "25:00", "06:61", "2009-04-22", "+9999999999999d", "12:00 pm",
                                 "2009-04-22 06:55 +25", "2009-04-22 06:55 +2500"}) {
            QTest::newRow(text) << QString::fromLatin1(text);
        }
    }
    void refusesWhatIsNoTime() {
        QFETCH(QString, typed);
        const auto read = readTimeTarget(typed, kNow, true, utc());
        QVERIFY2(std::holds_alternative<QString>(read),
                 qPrintable(QString::number(
                     std::get_if<Timestamp>(&read) ? *std::get_if<Timestamp>(&read) : 0)));
        const QString problem = std::get<QString>(read);
        QVERIFY2(problem.contains(QLatin1Char('\'') + typed.trimmed().left(40) + QLatin1Char('\'')),
                 qPrintable(problem));
        QVERIFY2(problem.contains(QStringLiteral("-15m")), qPrintable(problem));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestTimeTarget)
#include "tst_time_target.moc"
