// Every Graphite plaintext rule of core/net/graphite_parser.h, one test (with its table) per
// rule.
#include <QTest>

#include "core/net/graphite_parser.h"
#include "tests/net/parser_table.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;

class GraphiteParserTest : public QObject {
    Q_OBJECT

private:
    static void verify() { verifyRow(parseGraphiteLine); }

private Q_SLOTS:
    void threeFieldsAreAHitAtTheirTime_data() {
        parserColumns();
        hitRow("one", "pages.home 1 1700000000", "pages.home", 1, 1700000000);
        hitRow("value is the hit count", "pages.home 42 1700000000", "pages.home", 42, 1700000000);
        hitRow("zero", "pages.home 0 5", "pages.home", 0, 5);
        hitRow("fraction rounds", "pages.home 2.5 5", "pages.home", 3, 5);
        hitRow("tabs and runs of blanks", "\t pages.home \t 7   5 ", "pages.home", 7, 5);
        hitRow("carriage return stripped", "pages.home 1 5\r", "pages.home", 1, 5);
        hitRow("below double range is zero", "pages.home 1e-400 5", "pages.home", 0, 5);
    }
    void threeFieldsAreAHitAtTheirTime() { verify(); }

    void minusOneMeansNow_data() {
        parserColumns();
        hitRow("minus one", "pages.home 3 -1", "pages.home", 3, kNow);
    }
    void minusOneMeansNow() { verify(); }

    void emptyLineIsSkippedNotBad_data() {
        parserColumns();
        otherRow("empty", "", LineVerdict::Empty);
        otherRow("carriage return only", "\r", LineVerdict::Empty);
        otherRow("spaces only", "   ", LineVerdict::Empty);
        otherRow("blanks and carriage return", " \t \r", LineVerdict::Empty);
    }
    void emptyLineIsSkippedNotBad() { verify(); }

    void anythingElseIsBad_data() {
        parserColumns();
        otherRow("one field", "pages.home", LineVerdict::Bad);
        otherRow("two fields", "pages.home 1", LineVerdict::Bad);
        otherRow("four fields", "pages.home 1 5 extra", LineVerdict::Bad);
        otherRow("non-numeric value", "pages.home x 5", LineVerdict::Bad);
        otherRow("negative value", "pages.home -1 5", LineVerdict::Bad);
        otherRow("nan value", "pages.home nan 5", LineVerdict::Bad);
        otherRow("non-numeric timestamp", "pages.home 1 soon", LineVerdict::Bad);
        otherRow("fractional timestamp", "pages.home 1 5.5", LineVerdict::Bad);
        otherRow("negative timestamp", "pages.home 1 -2", LineVerdict::Bad);
        otherRow("statsd line", "home:1|c", LineVerdict::Bad);
    }
    void anythingElseIsBad() { verify(); }
};

HITCOUNTER_TEST_APPLESS_MAIN(GraphiteParserTest)
#include "tst_graphite_parser.moc"
