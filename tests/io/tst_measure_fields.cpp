// Bytes and response times of access-log lines (core/io/measure_fields.h and the formats that
// carry them, log_format.h and access_log_parser.h): as nginx, Apache and JSON-lines logs write
// them, "-", several upstreams, units, which field wins, and the values that make a line bad.
#include <QTest>

#include <stdexcept>

#include "core/io/access_log_parser.h"
#include "core/io/measure_fields.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

constexpr Timestamp kT = 971211336;  // 10/Oct/2000:13:55:36 -0700

struct Parsed {
    TraceErrorKind kind;
    HitEvent event;
    std::string problem;
};

Parsed parseWith(AccessLogParser parser, std::string_view line) {
    Parsed p;
    p.kind = parser.parse(line, p.event, p.problem);
    return p;
}

Parsed withFormat(std::string_view format, std::string_view line) {
    return parseWith(AccessLogParser(LogFormat::compile(format), AccessLogKey::Path), line);
}

Parsed json(std::string_view line) {
    return parseWith(AccessLogParser::jsonLines(AccessLogKey::Path), line);
}

// takeMeasures of one field pair; the event, or the problem.
Parsed measures(std::string_view bytes, std::string_view time,
                ResponseTimeUnit unit = ResponseTimeUnit::Seconds) {
    AccessLogFields fields;
    fields.bytes = bytes;
    fields.responseTime = time;
    fields.responseTimeUnit = unit;
    Parsed p;
    p.kind = takeMeasures(fields, p.event, p.problem) ? TraceErrorKind::None
                                                      : TraceErrorKind::BadMeasure;
    return p;
}

constexpr std::string_view kNginxTimed =
    R"($remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent )"
    R"("$http_referer" "$http_user_agent" $request_time "$upstream_response_time")";

}  // namespace

class MeasureFieldsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void combinedLogNamesItsBytes() {
        const auto p = parseWith(
            AccessLogParser(LogFormat::combined(), AccessLogKey::Path),
            R"(1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 2326 "-" "curl")");
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.bytes, std::uint64_t{2326});
        QVERIFY(!p.event.hasSeconds());
    }

    void dashBytesAreZero() {
        const auto p =
            parseWith(AccessLogParser(LogFormat::common(), AccessLogKey::Path),
                      R"(1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "HEAD /a HTTP/1.1" 304 -)");
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QVERIFY(p.event.hasBytes());
        QCOMPARE(p.event.bytes, std::uint64_t{0});
    }

    void nginxRequestTimeWinsOverTheUpstreams() {
        const auto p = withFormat(
            kNginxTimed,
            R"(1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 512 "-" "x" 0.250 "0.100, 0.120")");
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.time, kT);
        QCOMPARE(p.event.bytes, std::uint64_t{512});
        QCOMPARE(p.event.seconds, 0.25f);
    }

    void upstreamTimesAloneAreSummed() {
        const auto format =
            R"($remote_addr [$time_local] "$request" $status $bytes_sent "$upstream_response_time")";
        const auto p = withFormat(
            format,
            R"(::1 [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 502 157 "0.010, 0.200 : 0.040")");
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.seconds, 0.25f);
        QCOMPARE(p.event.bytes, std::uint64_t{157});  // $bytes_sent when there is no body count
        const auto none =
            withFormat(format, R"(::1 [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 157 "-")");
        QVERIFY2(none.kind == TraceErrorKind::None, none.problem.c_str());
        QVERIFY(!none.event.hasSeconds());  // served without an upstream
    }

    void apacheLogFormatWithMicroseconds() {
        const auto format =
            LogFormat::compile(R"(%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i" %D)");
        const auto p = parseWith(
            AccessLogParser(format, AccessLogKey::Path),
            R"x(10.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /b?x=1 HTTP/1.0" 200 - "-" "Mozilla/5.0 (X11)" 1503)x");
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.time, kT);
        QCOMPARE(p.event.key, std::string("/b"));
        QCOMPARE(p.event.visitor, std::string("10.0.0.1"));
        QCOMPARE(p.event.statusClass, std::uint8_t{2});
        QCOMPARE(p.event.bytes, std::uint64_t{0});
        QCOMPARE(p.event.seconds, 0.001503f);
    }

    void apacheDirectivesAsNginxVariables() {
        // Split request, vhost from the Host header, query with its '?', %T in milliseconds.
        const auto format =
            LogFormat::compile(R"(%{Host}i %a %{sec}t "%m %U" "%q" %s %B %{ms}T %T 100%%)");
        const auto p = parseWith(AccessLogParser(format, AccessLogKey::PathQuery),
                                 R"(shop.example ::1 971211336 "GET /c" "?d=2" 404 0 12.5 0 100%)");
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.time, kT);
        QCOMPARE(p.event.key, std::string("/c?d=2"));
        QCOMPARE(p.event.seconds, 0.0125f);  // %{ms}T wins over whole seconds
        QCOMPARE(p.event.bytes, std::uint64_t{0});
        const auto vhost = parseWith(AccessLogParser(format, AccessLogKey::Vhost),
                                     R"(shop.example ::1 971211336 "GET /c" "" 404 0 1 0 100%)");
        QCOMPARE(vhost.event.key, std::string("shop.example"));
    }

    void badApacheFormatsAreRefusedWithTheReason() {
        for (const char* format :
             {R"(%h "%r" %s)", R"(%h %{%d/%b}t "%r")", R"(%h %t %{Referer)", R"(%h %t %)"}) {
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LogFormat::compile(format));
        }
        try {
            LogFormat::compile(R"(%h "%r" %s)");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("%t") != std::string::npos, e.what());
        }
    }

    void jsonLinesInTheirUnits_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<float>("seconds");
        QTest::addColumn<qulonglong>("bytes");
        const QByteArray head = R"({"time":971211336,"uri":"/a",)";
        QTest::newRow("nginx escape=json")
            << head + R"("request_time":"0.042","body_bytes_sent":"1200"})" << 0.042f
            << qulonglong{1200};
        QTest::newRow("numbers") << head + R"("duration":1.5,"size":7})" << 1.5f << qulonglong{7};
        QTest::newRow("milliseconds")
            << head + R"("duration_ms":250,"bytes":0})" << 0.25f << qulonglong{0};
        QTest::newRow("microseconds, first time member wins")
            << head + R"("request_time_us":1500,"request_time":9})" << 0.0015f
            << qulonglong(HitEvent::kNoBytes);
        QTest::newRow("null is none")
            << head + R"("upstream_response_time":null,"bytes_sent":null})" << HitEvent::kNoSeconds
            << qulonglong(HitEvent::kNoBytes);
        QTest::newRow("none") << head + R"("status":200})" << HitEvent::kNoSeconds
                              << qulonglong(HitEvent::kNoBytes);
    }
    void jsonLinesInTheirUnits() {
        QFETCH(QByteArray, line);
        QFETCH(float, seconds);
        QFETCH(qulonglong, bytes);
        const auto p = json(line.toStdString());
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.seconds, seconds);
        QCOMPARE(p.event.bytes, std::uint64_t{bytes});
    }

    void fieldRules_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("time");
        QTest::addColumn<int>("unit");
        QTest::addColumn<float>("seconds");
        QTest::addColumn<qulonglong>("expectedBytes");
        const int s = int(ResponseTimeUnit::Seconds);
        QTest::newRow("absent") << QByteArray() << QByteArray() << s << HitEvent::kNoSeconds
                                << qulonglong(HitEvent::kNoBytes);
        QTest::newRow("dashes") << QByteArray("-") << QByteArray("-") << s << HitEvent::kNoSeconds
                                << qulonglong{0};
        QTest::newRow("zero time is a time")
            << QByteArray("0") << QByteArray("0.000") << s << 0.0f << qulonglong{0};
        QTest::newRow("largest bytes") << QByteArray("18446744073709551614") << QByteArray("1") << s
                                       << 1.0f << qulonglong{18446744073709551614ULL};
        QTest::newRow("upstream list with dashes")
            << QByteArray("5") << QByteArray("-, 0.5 : -") << s << 0.5f << qulonglong{5};
        QTest::newRow("microseconds")
            << QByteArray("5") << QByteArray("2500000") << int(ResponseTimeUnit::Microseconds)
            << 2.5f << qulonglong{5};
    }
    void fieldRules() {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, time);
        QFETCH(int, unit);
        QFETCH(float, seconds);
        QFETCH(qulonglong, expectedBytes);
        const auto p = measures(bytes.toStdString(), time.toStdString(), ResponseTimeUnit(unit));
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.seconds, seconds);
        QCOMPARE(p.event.bytes, std::uint64_t{expectedBytes});
    }

    void badValuesAreBadRowsThatSayWhy_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("time");
        QTest::addColumn<QByteArray>("mentions");
        QTest::newRow("letters") << QByteArray("12k") << QByteArray("0.1")
                                 << QByteArray("bytes '12k' is not a whole number");
        QTest::newRow("negative bytes")
            << QByteArray("-5") << QByteArray("0.1") << QByteArray("bytes '-5'");
        QTest::newRow("beyond 2^64")
            << QByteArray("18446744073709551616") << QByteArray("0.1") << QByteArray("bytes");
        QTest::newRow("2^64 - 1 is no count")
            << QByteArray("18446744073709551615") << QByteArray("0.1") << QByteArray("bytes");
        QTest::newRow("negative time") << QByteArray("1") << QByteArray("-0.5")
                                       << QByteArray(
                                              "response time '-0.5' is not a number of "
                                              "seconds >= 0 or '-'");
        QTest::newRow("exponent") << QByteArray("1") << QByteArray("1e3")
                                  << QByteArray("response time '1e3'");
        QTest::newRow("words") << QByteArray("1") << QByteArray("fast")
                               << QByteArray("response time 'fast'");
        QTest::newRow("empty entry")
            << QByteArray("1") << QByteArray("0.1,,0.2") << QByteArray("response time '0.1,,0.2'");
        QTest::newRow("inf") << QByteArray("1") << QByteArray("inf")
                             << QByteArray("response time 'inf'");
        QTest::newRow("beyond a float")
            << QByteArray("1") << QByteArray(400, '9') << QByteArray("response time '999");
    }
    void badValuesAreBadRowsThatSayWhy() {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, time);
        QFETCH(QByteArray, mentions);
        const auto p = measures(bytes.toStdString(), time.toStdString());
        QCOMPARE(p.kind, TraceErrorKind::BadMeasure);
        QVERIFY2(QByteArray::fromStdString(p.problem).contains(mentions), p.problem.c_str());
    }

    void aBadMeasureMakesTheLineBad() {
        const auto p = withFormat(
            kNginxTimed,
            R"(1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 512 "-" "x" soon "-")");
        QCOMPARE(p.kind, TraceErrorKind::BadMeasure);
        QCOMPARE(p.problem,
                 std::string("response time 'soon' is not a number of seconds >= 0 or '-'"));
        QCOMPARE(json(R"({"time":971211336,"uri":"/a","size":"big"})").kind,
                 TraceErrorKind::BadMeasure);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(MeasureFieldsTest)
#include "tst_measure_fields.moc"
