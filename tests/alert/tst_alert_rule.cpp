// AlertRule: the grammar (names, precedence, count and rate, percentages, for, clear), the
// value of an expression against arithmetic done here, and the column and words of every
// error, inside a filter too.
#include <QTest>

#include <cmath>

#include "core/alert/alert_rule.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

AlertRule parsed(const std::string& text) {
    auto result = AlertRule::parse(text);
    if (const auto* problem = std::get_if<TextProblem>(&result))
        qFatal("'%s' did not parse: %s", text.c_str(), describeAlertProblem(*problem).c_str());
    return std::move(std::get<AlertRule>(result));
}

// Windows with these hit counts (no measures), for value()'s series.
std::vector<SeriesWindow> windows(std::initializer_list<double> hits) {
    std::vector<SeriesWindow> out;
    for (const double h : hits)
        out.push_back({h, {}});
    return out;
}

// Every hit's window: `hits` hits, no measures.
SeriesWindow all(double hits) {
    return {hits, {}};
}

TextProblem problemOf(const std::string& text) {
    auto result = AlertRule::parse(text);
    if (!std::holds_alternative<TextProblem>(result))
        qFatal("'%s' parsed", text.c_str());
    return std::get<TextProblem>(result);
}

}  // namespace

class AlertRuleTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theIssuesRuleParses() {
        const AlertRule r = parsed("errors: count(status=5xx) / count(*) > 2% for 60s");
        QCOMPARE(r.name(), std::string("errors"));
        QCOMPARE(r.holdFor(), std::chrono::seconds(60));
        QCOMPARE(r.filters().size(), std::size_t(1));
        QCOMPARE(r.filters()[0].text(), std::string("status=5xx"));
        // 7 errors of 300 hits: 2.33 % > 2 %; 6 of 300 is exactly 2 %: not above.
        QCOMPARE(r.value(windows({7}), all(300), 300), 7.0 / 300);
        QVERIFY(r.holds(r.value(windows({7}), all(300), 300)));
        QVERIFY(!r.holds(r.value(windows({6}), all(300), 300)));
        QVERIFY(r.clears(
            r.value(windows({6}), all(300), 300)));  // no clear given: when it stops holding
        // No traffic: 0 / 0 is undefined; it never holds and a firing rule clears.
        QVERIFY(std::isnan(r.value(windows({0}), all(0), 300)));
        QVERIFY(!r.holds(r.value(windows({0}), all(0), 300)));
        QVERIFY(r.clears(r.value(windows({0}), all(0), 300)));
    }

    void arithmeticFollowsPrecedenceAndParentheses() {
        QCOMPARE(parsed("1 + 2 * 3 > 0").value(windows({}), all(0), 300), 7.0);
        QCOMPARE(parsed("(1 + 2) * 3 > 0").value(windows({}), all(0), 300), 9.0);
        QCOMPARE(parsed("10 - 4 - 3 > 0").value(windows({}), all(0), 300), 3.0);  // left to right
        QCOMPARE(parsed("12 / 3 / 2 > 0").value(windows({}), all(0), 300), 2.0);
        QCOMPARE(parsed("rate(*) > 10").value(windows({}), all(600), 300), 2.0);  // hits per second
        QCOMPARE(parsed("count(*) - count(path~'^/api/') >= 1").value(windows({40}), all(100), 300),
                 60.0);
        QVERIFY(std::isnan(parsed("count(status=404) / (count(*) - count(*)) > 1")
                               .value(windows({1}), all(5), 300)));
    }

    void eachFilterIsKeptOnceInOrder() {
        const AlertRule r =
            parsed("count(status=404) + count(status=5xx) + count( status=404 ) > 10");
        QCOMPARE(r.filters().size(), std::size_t(2));
        QCOMPARE(r.filters()[1].text(), std::string("status=5xx"));
        QCOMPARE(r.value(windows({3, 5}), all(100), 300), 11.0);  // 3 + 5 + 3
        // A filter with parentheses and quotes holding ')' and '(' inside count().
        const AlertRule q = parsed("count((status=404 or path~'[)(]') and not method=GET) > 0");
        QCOMPARE(q.filters()[0].text(),
                 std::string("(status=404 or path~'[)(]') and not method=GET"));
    }

    void thresholdsComparisonsAndHysteresis() {
        const AlertRule below = parsed("quiet: count(*) < 1 for 5m");
        QCOMPARE(below.holdFor(), std::chrono::seconds(300));
        QVERIFY(below.holds(0));
        QVERIFY(!below.holds(1));
        const AlertRule atLeast = parsed("count(*) >= 100 for 1h clear <= 50");
        QCOMPARE(atLeast.holdFor(), std::chrono::seconds(3600));
        QVERIFY(atLeast.holds(100));
        QVERIFY(!atLeast.clears(80));  // between: a firing rule keeps firing
        QVERIFY(atLeast.clears(50));
        const AlertRule ratio = parsed("count(status=5xx) / count(*) > 2% clear < 1%");
        QVERIFY(!ratio.clears(0.015));
        QVERIFY(ratio.clears(0.0099));
        QCOMPARE(parsed("count(*) <= 0.5 for 0s").holdFor(), std::chrono::seconds(0));
        // At an equal threshold one side must exclude it, or the rule flaps every second.
        QVERIFY(parsed("count(*) >= 10 clear < 10").clears(9.5));
        QVERIFY(parsed("count(*) > 10 clear <= 10").clears(10));
        QCOMPARE(problemOf("count(*) >= 10 clear <= 10").column, 22);
        QCOMPARE(problemOf("count(*) <= 0 clear >= 0").column, 21);
        QCOMPARE(parsed("5xx: count(status=5xx) > 1").name(), std::string("5xx"));
        QVERIFY(parsed("count(*) > 3 clear < 3").clears(2));
    }

    void measureFunctionsReadTheSeriesMeasures() {
        const AlertRule spread = parsed("slow: p99(path~'^/api/') - p50(path~'^/api/') > 0.5");
        QVERIFY(spread.measures(0));
        QVERIFY(!spread.measures(-1));
        SeriesWindow api{10, {}};
        api.measures.timedHits = 10;
        api.measures.p50 = 0.25;
        api.measures.p90 = 0.5;
        api.measures.p99 = 1.0;
        api.measures.max = 1.5;
        QCOMPARE(spread.value({api}, all(50), 300), 0.75);
        QCOMPARE(parsed("p90(path=/a) > 0").value({api}, all(50), 300), 0.5);
        QCOMPARE(parsed("max(path=/a) > 0").value({api}, all(50), 300), 1.5);
        // No hit in the window named its time: undefined.
        QVERIFY(std::isnan(spread.value(windows({10}), all(50), 300)));
        // Bytes per hit over every hit; bytes of hits that named none are 0, not undefined.
        const AlertRule perHit = parsed("bytes(*) / count(*) > 1000");
        QVERIFY(perHit.measures(-1));
        SeriesWindow everything{4, {}};
        everything.measures.bytes = 8000;
        everything.measures.bytesHits = 4;
        QCOMPARE(perHit.value({}, everything, 300), 2000.0);
        QVERIFY(std::isnan(parsed("max(*) >= 2").value({}, everything, 300)));
        QCOMPARE(parsed("bytes(status=200) >= 0").value(windows({3}), all(3), 300), 0.0);
        QVERIFY(!parsed("count(status=200) >= 0").measures(0));
        QVERIFY(spread.readsResponseTimes());
        QVERIFY(!perHit.readsResponseTimes());  // bytes are not times
    }

    void errorsNameTheColumn_data() {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("words");
        QTest::newRow("no comparison") << "count(*)" << 9 << "expected >, >=, < or <=";
        QTest::newRow("no threshold") << "count(*) > " << 12 << "expected a number, found the end";
        QTest::newRow("unknown word")
            << "hits(*) > 1" << 1 << "expected a number, a function (count, rate, bytes";
        QTest::newRow("unclosed count")
            << "count(status=5xx > 1" << 6 << "expected ')' to close count( at column 6";
        QTest::newRow("empty count") << "count( ) > 1" << 7 << "expected a filter or *";
        QTest::newRow("bad filter inside") << "count(status=5xy) > 1" << 14 << "status";
        QTest::newRow("unknown field inside")
            << "count(*) / count(size=3) > 1" << 18 << "unknown field 'size'";
        QTest::newRow("unclosed parenthesis")
            << "(count(*) + 1 > 2" << 15 << "to close the '(' at column 1";
        QTest::newRow("bad unit") << "count(*) > 1 for 5d" << 19 << "expected s, m or h";
        QTest::newRow("half a second") << "count(*) > 1 for 0.5s" << 18 << "whole number";
        QTest::newRow("too long to hold") << "count(*) > 1 for 8000h" << 18 << "7 days";
        QTest::newRow("clear on the same side")
            << "count(*) > 10 clear > 20" << 21 << "on the other side of > 10";
        QTest::newRow("clear past the threshold")
            << "count(*) < 10 clear > 5" << 21 << "(> or >= at least 10)";
        QTest::newRow("trailing words")
            << "count(*) > 1 every 5s" << 14 << "expected 'for', 'clear'";
        QTest::newRow("bad number") << "count(*) > 1..2" << 12 << "expected a number, found '1..2'";
    }

    void errorsNameTheColumn() {
        QFETCH(QString, rule);
        QFETCH(int, column);
        QFETCH(QString, words);
        const TextProblem p = problemOf(rule.toStdString());
        const QString message = QString::fromStdString(describeAlertProblem(p));
        QVERIFY2(p.column == column && message.contains(words), qPrintable(message));
    }

    void hostileRulesAreRefusedQuickly() {
        // Nesting deeper than 32 and a text over 4 kB: refused, no deep recursion.
        const std::string deep = std::string(40, '(') + "1" + std::string(40, ')') + " > 0";
        QVERIFY(describeAlertProblem(problemOf(deep)).find("nested") != std::string::npos);
        QCOMPARE(problemOf(std::string(5000, ' ') + "count(*) > 1").column, 4097);
        // A long flat sum is fine (evaluated without recursion).
        std::string sum = "1";
        for (int i = 0; i < 1000; ++i)
            sum += "+1";
        QCOMPARE(parsed(sum + " > 0").value(windows({}), all(0), 300), 1001.0);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(AlertRuleTest)
#include "tst_alert_rule.moc"
