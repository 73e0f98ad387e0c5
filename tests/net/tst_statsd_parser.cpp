// Every statsd rule of core/net/statsd_parser.h, one test function (with its table) per rule.
#include <QTest>

#include "core/net/statsd_parser.h"
#include "tests/net/parser_table.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;

class StatsdParserTest : public QObject {
    Q_OBJECT

private:
    static void verify() { verifyRow(parseStatsdLine); }

private Q_SLOTS:
    void counterLineIsAHitForItsName_data() {
        parserColumns();
        hitRow("one", "home:1|c", "home", 1);
        hitRow("many", "pages.home:250|c", "pages.home", 250);
        hitRow("zero", "home:0|c", "home", 0);
        hitRow("fraction rounds down", "home:2.4|c", "home", 2);
        hitRow("half rounds up", "home:2.5|c", "home", 3);
        hitRow("exponent", "home:1e3|c", "home", 1000);
        hitRow("huge value saturates", "home:1e300|c", "home", std::numeric_limits<quint64>::max());
        hitRow("whole number beyond 2^53 is exact", "home:9007199254740993|c", "home",
               9007199254740993ull);
        hitRow("largest count", "home:18446744073709551615|c", "home",
               std::numeric_limits<quint64>::max());
        hitRow("whole number beyond 64 bits saturates", "home:18446744073709551616|c", "home",
               std::numeric_limits<quint64>::max());
        hitRow("above double range saturates", "home:1e400|c", "home",
               std::numeric_limits<quint64>::max());
        hitRow("long digits above double range", "home:" + QByteArray(400, '9') + "|c", "home",
               std::numeric_limits<quint64>::max());
        hitRow("below double range is zero", "home:1e-400|c", "home", 0);
        hitRow("small mantissa exponent", "home:0.0001e-320|c", "home", 0);
        hitRow("large mantissa tiny exponent", "home:" + QByteArray(10, '9') + "e-400|c", "home",
               0);
        hitRow("leading zeros tiny", "home:0." + QByteArray(400, '0') + "1|c", "home", 0);
        hitRow("plus exponent above range", "home:1e+400|c", "home",
               std::numeric_limits<quint64>::max());
        hitRow("exponent beyond long long", "home:1e-99999999999999999999|c", "home", 0);
    }
    void counterLineIsAHitForItsName() { verify(); }

    void trailingCarriageReturnIsStripped_data() {
        parserColumns();
        hitRow("counter", "home:1|c\r", "home", 1);
        hitRow("after rate", "home:1|c|@0.5\r", "home", 2);
        otherRow("alone is empty", "\r", LineVerdict::Empty);
        otherRow("gauge", "load:1|g\r", LineVerdict::Ignored);
    }
    void trailingCarriageReturnIsStripped() { verify(); }

    void emptyLineIsSkippedNotBad_data() {
        parserColumns();
        otherRow("empty", "", LineVerdict::Empty);
        otherRow("carriage return only", "\r", LineVerdict::Empty);
    }
    void emptyLineIsSkippedNotBad() { verify(); }

    void hitsAreValueOverRateRoundedToNearest_data() {
        parserColumns();
        hitRow("rate one", "home:3|c|@1", "home", 3);
        hitRow("rate half", "home:3|c|@0.5", "home", 6);
        hitRow("rate tenth", "home:1|c|@0.1", "home", 10);
        hitRow("rate third rounds", "home:1|c|@0.3", "home", 3);
        hitRow("rate 0.6 rounds", "home:1|c|@0.6", "home", 2);
        hitRow("tiny rate", "home:1|c|@1e-9", "home", 1000000000);
    }
    void hitsAreValueOverRateRoundedToNearest() { verify(); }

    void optionalFieldsComeInAnyOrder_data() {
        parserColumns();
        hitRow("tags then rate", "home:3|c|#t:v|@0.5", "home", 6);
        hitRow("rate then tags", "home:3|c|@0.5|#t:v", "home", 6);
        hitRow("time then rate", "home:1|c|T1700000000|@0.5", "home", 2, 1700000000);
        hitRow("tags time rate", "home:1|c|#a|T42|@0.25", "home", 4, 42);
        hitRow("rate time tags", "home:1|c|@0.25|T42|#a,b:c", "home", 4, 42);
    }
    void optionalFieldsComeInAnyOrder() { verify(); }

    void unknownLetterFieldsAreIgnored_data() {
        parserColumns();
        hitRow("container id", "home:1|c|c:abc123", "home", 1);
        hitRow("lowercase word", "home:1|c|xyz", "home", 1);
        hitRow("uppercase word", "home:1|c|Zed|@0.5", "home", 2);
        otherRow("gauge with extension", "load:1|g|e:1", LineVerdict::Ignored);
    }
    void unknownLetterFieldsAreIgnored() { verify(); }

    void timestampFieldSetsTheHitTime_data() {
        parserColumns();
        hitRow("no field means now", "home:1|c", "home", 1, kNow);
        hitRow("unix seconds", "home:1|c|T1700000000", "home", 1, 1700000000);
        hitRow("zero", "home:1|c|T0", "home", 1, 0);
    }
    void timestampFieldSetsTheHitTime() { verify(); }

    void tagsDoNotSplitTheKey_data() {
        parserColumns();
        hitRow("one tag", "home:1|c|#env:prod", "home", 1);
        hitRow("other tag same key", "home:1|c|#env:dev,region:eu", "home", 1);
        hitRow("empty tags", "home:1|c|#", "home", 1);
    }
    void tagsDoNotSplitTheKey() { verify(); }

    void nonCounterTypesAreIgnored_data() {
        parserColumns();
        otherRow("gauge", "load:0.7|g", LineVerdict::Ignored);
        otherRow("signed gauge", "load:-3|g", LineVerdict::Ignored);
        otherRow("histogram", "size:12|h", LineVerdict::Ignored);
        otherRow("set of strings", "users:alice|s", LineVerdict::Ignored);
        otherRow("distribution", "latency:3.2|d|@0.5", LineVerdict::Ignored);
    }
    void nonCounterTypesAreIgnored() { verify(); }

    // A timer is a hit (1 / rate of them) that took its value in milliseconds.
    void timerLineIsAHitThatTookItsTime() {
        const ParsedLine one = parseStatsdLine("api.latency:320|ms|#env:prod");
        QCOMPARE(one.verdict, LineVerdict::Hit);
        QCOMPARE(one.key, std::string_view("api.latency"));
        QCOMPARE(one.hits, Count(1));
        QCOMPARE(one.seconds, 0.32f);
        QCOMPARE(one.tags, std::string_view("env:prod"));
        const ParsedLine sampled = parseStatsdLine("api.latency:2.5|ms|@0.1|T1700000000");
        QCOMPARE(sampled.hits, Count(10));
        QCOMPARE(sampled.seconds, 0.0025f);
        QCOMPARE(sampled.time, std::optional<Timestamp>(1700000000));
        QCOMPARE(parseStatsdLine("t:0|ms").seconds, 0.0f);
        QCOMPARE(parseStatsdLine("t:1e9|ms").verdict, LineVerdict::Hit);
        QVERIFY(parseStatsdLine("home:3|c").seconds < 0);  // a counter measured nothing
        for (const char* bad :
             {"t:-1|ms", "t:abc|ms", "t:2e9|ms", "t:inf|ms", "t:nan|ms", "t:1,5|ms", "t:1|ms|@0"}) {
            const ParsedLine p = parseStatsdLine(bad);
            QVERIFY2(p.verdict == LineVerdict::Bad, bad);
        }
    }

    void malformedLinesAreBad_data() {
        parserColumns();
        otherRow("no colon", "home|c", LineVerdict::Bad);
        otherRow("no colon at all", "home", LineVerdict::Bad);
        otherRow("empty name", ":1|c", LineVerdict::Bad);
        otherRow("empty value", "home:|c", LineVerdict::Bad);
        otherRow("missing type", "home:1", LineVerdict::Bad);
        otherRow("empty type", "home:1|", LineVerdict::Bad);
        otherRow("unknown type zz", "home:1|zz", LineVerdict::Bad);
        otherRow("type is case sensitive", "home:1|C", LineVerdict::Bad);
        otherRow("non-numeric value", "home:abc|c", LineVerdict::Bad);
        otherRow("trailing junk in value", "home:1x|c", LineVerdict::Bad);
        otherRow("negative value", "home:-1|c", LineVerdict::Bad);
        otherRow("negative zero", "home:-0|c", LineVerdict::Bad);
        otherRow("plus sign", "home:+1|c", LineVerdict::Bad);
        otherRow("infinite value", "home:inf|c", LineVerdict::Bad);
        otherRow("nan value", "home:nan|c", LineVerdict::Bad);
        otherRow("space in value", "home: 1|c", LineVerdict::Bad);
        otherRow("second colon in value", "a:b:1|c", LineVerdict::Bad);
    }
    void malformedLinesAreBad() { verify(); }

    void rateOutsideZeroToOneIsBad_data() {
        parserColumns();
        otherRow("rate zero", "home:1|c|@0", LineVerdict::Bad);
        otherRow("negative rate", "home:1|c|@-0.5", LineVerdict::Bad);
        otherRow("rate above one", "home:1|c|@1.5", LineVerdict::Bad);
        otherRow("non-numeric rate", "home:1|c|@abc", LineVerdict::Bad);
        otherRow("empty rate", "home:1|c|@", LineVerdict::Bad);
        otherRow("nan rate", "home:1|c|@nan", LineVerdict::Bad);
        otherRow("infinite rate", "home:1|c|@inf", LineVerdict::Bad);
        otherRow("repeated rate", "home:1|c|@0.5|@0.5", LineVerdict::Bad);
    }
    void rateOutsideZeroToOneIsBad() { verify(); }

    void badOptionalFieldsAreBad_data() {
        parserColumns();
        otherRow("empty field", "home:1|c||@0.5", LineVerdict::Bad);
        otherRow("trailing bar", "home:1|c|", LineVerdict::Bad);
        otherRow("digit field", "home:1|c|5", LineVerdict::Bad);
        otherRow("punctuation field", "home:1|c|!x", LineVerdict::Bad);
        otherRow("fractional time", "home:1|c|T1.5", LineVerdict::Bad);
        otherRow("negative time", "home:1|c|T-5", LineVerdict::Bad);
        otherRow("empty time", "home:1|c|T", LineVerdict::Bad);
        otherRow("repeated time", "home:1|c|T1|T2", LineVerdict::Bad);
        otherRow("bad rate on a gauge", "load:1|g|@0", LineVerdict::Bad);
    }
    void badOptionalFieldsAreBad() { verify(); }
};

HITCOUNTER_TEST_APPLESS_MAIN(StatsdParserTest)
#include "tst_statsd_parser.moc"
