// The Prometheus text format 0.0.4 and OpenMetrics 1.0 (core/metrics/exposition.h): exact
// output for small cases, escaping, exact counts, the Accept negotiation, and promtool's
// verdict on hostile label values.
#include <QStandardPaths>
#include <QTest>

#include <limits>

#include "core/metrics/exposition.h"
#include "core/metrics/label_text.h"
#include "tests/metrics/promtool.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::metrics;

namespace {

// A counter, a gauge with a unit and an info family: one of each kind.
std::vector<MetricFamily> oneOfEachKind() {
    return {
        {"hitcounter_hits",
         MetricType::Counter,
         "Hits per key.",
         "",
         {{{{"key", "a"}}, Count{3}}, {{{"key", "b"}}, Count{0}}}},
        {"hitcounter_queue_bytes", MetricType::Gauge, "Queued.", "bytes", {{{}, Count{7}}}},
        {"hitcounter_build", MetricType::Info, "Version.", "", {{{{"version", "1.2"}}, Count{1}}}},
    };
}

MetricFamily counter(std::vector<Sample> samples) {
    return {"hitcounter_hits", MetricType::Counter, "Hits per key.", "", std::move(samples)};
}

}  // namespace

class ExpositionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void textFormatDeclaresTheSampleNameAndPrintsEachSample() {
        const auto families = oneOfEachKind();
        QCOMPARE(render(families, ExpositionFormat::Text004),
                 std::string("# HELP hitcounter_hits_total Hits per key.\n"
                             "# TYPE hitcounter_hits_total counter\n"
                             "hitcounter_hits_total{key=\"a\"} 3\n"
                             "hitcounter_hits_total{key=\"b\"} 0\n"
                             "# HELP hitcounter_queue_bytes Queued.\n"
                             "# TYPE hitcounter_queue_bytes gauge\n"
                             "hitcounter_queue_bytes 7\n"
                             "# HELP hitcounter_build_info Version.\n"
                             "# TYPE hitcounter_build_info gauge\n"
                             "hitcounter_build_info{version=\"1.2\"} 1\n"));
    }

    void openMetricsNamesTheFamilyAddsUnitsAndEndsWithEof() {
        const auto families = oneOfEachKind();
        QCOMPARE(render(families, ExpositionFormat::OpenMetrics100),
                 std::string("# TYPE hitcounter_hits counter\n"
                             "# HELP hitcounter_hits Hits per key.\n"
                             "hitcounter_hits_total{key=\"a\"} 3\n"
                             "hitcounter_hits_total{key=\"b\"} 0\n"
                             "# TYPE hitcounter_queue_bytes gauge\n"
                             "# UNIT hitcounter_queue_bytes bytes\n"
                             "# HELP hitcounter_queue_bytes Queued.\n"
                             "hitcounter_queue_bytes 7\n"
                             "# TYPE hitcounter_build info\n"
                             "# HELP hitcounter_build Version.\n"
                             "hitcounter_build_info{version=\"1.2\"} 1\n"
                             "# EOF\n"));
    }

    void labelValuesEscapeBackslashQuoteAndNewlineInBothFormats() {
        const std::vector<MetricFamily> families{counter({{{{"key", "a\\b\"c\nd"}}, Count{1}}})};
        const std::string expected = "hitcounter_hits_total{key=\"a\\\\b\\\"c\\nd\"} 1\n";
        QVERIFY(render(families, ExpositionFormat::Text004).find(expected) != std::string::npos);
        QVERIFY(render(families, ExpositionFormat::OpenMetrics100).find(expected) !=
                std::string::npos);
    }

    void helpTextIsEscapedAsEachFormatAsks() {
        const std::vector<MetricFamily> families{
            {"x", MetricType::Gauge, "a \"q\" \\ and\nnext", "", {}}};
        QCOMPARE(render(families, ExpositionFormat::Text004),
                 std::string("# HELP x a \"q\" \\\\ and\\nnext\n# TYPE x gauge\n"));
        QCOMPARE(render(families, ExpositionFormat::OpenMetrics100),
                 std::string("# TYPE x gauge\n# HELP x a \\\"q\\\" \\\\ and\\nnext\n# EOF\n"));
    }

    void countsPrintDigitForDigitAndRealsShortest() {
        constexpr Count kMax = std::numeric_limits<Count>::max();
        const std::vector<MetricFamily> families{
            {"g",
             MetricType::Gauge,
             "",
             "",
             {{{{"v", "max"}}, kMax},
              {{{"v", "real"}}, 0.1},
              {{{"v", "nan"}}, std::numeric_limits<double>::quiet_NaN()},
              {{{"v", "inf"}}, std::numeric_limits<double>::infinity()},
              {{{"v", "-inf"}}, -std::numeric_limits<double>::infinity()}}}};
        const std::string text = render(families, ExpositionFormat::Text004);
        QVERIFY(text.find("g{v=\"max\"} 18446744073709551615\n") != std::string::npos);
        QVERIFY(text.find("g{v=\"real\"} 0.1\n") != std::string::npos);
        QVERIFY(text.find("g{v=\"nan\"} NaN\n") != std::string::npos);
        QVERIFY(text.find("g{v=\"inf\"} +Inf\n") != std::string::npos);
        QVERIFY(text.find("g{v=\"-inf\"} -Inf\n") != std::string::npos);
    }

    void contentTypesNameTheVersions() {
        QCOMPARE(contentType(ExpositionFormat::Text004),
                 std::string_view("text/plain; version=0.0.4; charset=utf-8"));
        QCOMPARE(contentType(ExpositionFormat::OpenMetrics100),
                 std::string_view("application/openmetrics-text; version=1.0.0; charset=utf-8"));
    }

    void negotiationPicksTheHighestQualityOffered_data() {
        QTest::addColumn<QString>("accept");
        QTest::addColumn<bool>("openMetrics");
        QTest::newRow("prometheus 2.42")
            << "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
               "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
            << true;
        QTest::newRow("no header") << "" << false;
        QTest::newRow("curl") << "*/*" << false;
        QTest::newRow("text only") << "text/plain;version=0.0.4" << false;
        QTest::newRow("openmetrics without version") << "application/openmetrics-text" << true;
        QTest::newRow("openmetrics 0.0.1") << "application/openmetrics-text; version=0.0.1" << true;
        QTest::newRow("openmetrics 2.0.0 is not offered")
            << "application/openmetrics-text;version=2.0.0" << false;
        QTest::newRow("text preferred by q")
            << "application/openmetrics-text;q=0.3,text/plain;q=0.9" << false;
        QTest::newRow("openmetrics preferred by q")
            << "text/plain;q=0.3, application/openmetrics-text;q=0.9" << true;
        QTest::newRow("tie goes to the first listed")
            << "text/plain;q=0.5,application/openmetrics-text;q=0.5" << false;
        QTest::newRow("tie, openmetrics first")
            << "application/openmetrics-text;q=0.5,text/plain;q=0.5" << true;
        QTest::newRow("q=0 refuses") << "application/openmetrics-text;q=0" << false;
        QTest::newRow("case-insensitive type")
            << "Application/OpenMetrics-Text; Version=1.0.0" << true;
        QTest::newRow("bad q is ignored") << "application/openmetrics-text;q=abc" << false;
        QTest::newRow("garbage") << ";;,,=;q" << false;
    }
    void negotiationPicksTheHighestQualityOffered() {
        QFETCH(QString, accept);
        QFETCH(bool, openMetrics);
        QCOMPARE(negotiateFormat(accept.toStdString()) == ExpositionFormat::OpenMetrics100,
                 openMetrics);
    }

    // promtool is Prometheus' own parser and linter: hostile keys, made label values by
    // keyLabel(), must keep the exposition valid. Raw invalid UTF-8 must not (the check
    // can fail).
    void promtoolAcceptsHostileKeysMadeIntoLabels() {
        const std::vector<std::string> keys{"plain",
                                            "quote\"d",
                                            "back\\slash",
                                            "new\nline",
                                            "\r\t\x1b]0;x\x07",
                                            std::string("nul\0byte", 8),
                                            "\xff\xfe bad utf-8",
                                            "caf\xc3\xa9",
                                            std::string(10000, 'k'),
                                            std::string(10000, 'k') + "2",
                                            "__other__x",
                                            ""};
        std::vector<Sample> samples;
        for (const std::string& key : keys)
            samples.push_back({{{"key", keyLabel(key)}}, Count{1}});
        const std::vector<MetricFamily> families{counter(samples)};
        const std::string text = render(families, ExpositionFormat::Text004);
        const auto [code, output] = promtoolCheck(text);
        QVERIFY2(code == 0, output.constData());

        const std::vector<MetricFamily> raw{counter({{{{"key", "\xff"}}, Count{1}}})};
        const auto [rawCode, rawOutput] = promtoolCheck(render(raw, ExpositionFormat::Text004));
        QVERIFY2(rawCode != 0, "promtool accepted invalid UTF-8: the check above proves nothing");
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(ExpositionTest)
#include "tst_exposition.moc"
