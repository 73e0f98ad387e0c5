// AccessLogParser over LogFormat and JSON lines: the formats as Apache and nginx write them,
// with their edge cases, every key, a user's own log_format, and lines that must be refused.
#include <QTest>

#include <stdexcept>

#include "core/io/access_log_parser.h"
#include "tests/test_main.h"

using namespace hitcounter;

Q_DECLARE_METATYPE(hitcounter::TraceErrorKind)

namespace {

constexpr Timestamp kT = 971211336;  // 10/Oct/2000:13:55:36 -0700

struct Parsed {
    TraceErrorKind kind;
    HitEvent event;
    std::string problem;
};

Parsed parseWith(AccessLogParser parser, const QByteArray& line) {
    Parsed p;
    p.kind = parser.parse(std::string_view(line.constData(), std::size_t(line.size())), p.event,
                          p.problem);
    return p;
}

Parsed combined(const QByteArray& line, AccessLogKey key = AccessLogKey::Path) {
    return parseWith(AccessLogParser(LogFormat::combined(), key), line);
}

}  // namespace

class TestAccessLogParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void combinedLinesAsServersWriteThem_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("visitor");
        QTest::newRow("apache")
            << QByteArray(
                   "127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" "
                   "200 2326 \"http://www.example.com/start.html\" \"Mozilla/4.08 [en] (Win98; I "
                   ";Nav)\"")
            << QByteArray("/apache_pb.gif") << QByteArray("127.0.0.1");
        QTest::newRow("query dropped") << QByteArray(
                                              "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET "
                                              "/search?q=a+b&x=1 HTTP/1.1\" 200 5 \"-\" \"curl/8\"")
                                       << QByteArray("/search") << QByteArray("10.0.0.1");
        QTest::newRow("ipv6 client") << QByteArray(
                                            "2001:db8::1 - - [10/Oct/2000:13:55:36 -0700] \"GET "
                                            "/v6 HTTP/2.0\" 200 5 \"-\" \"x\"")
                                     << QByteArray("/v6") << QByteArray("2001:db8::1");
        QTest::newRow("dash size, empty referer")
            << QByteArray(
                   "::1 - - [10/Oct/2000:13:55:36 -0700] \"HEAD / HTTP/1.1\" 304 - \"\" \"\"")
            << QByteArray("/") << QByteArray("::1");
        QTest::newRow("escaped quote in request")
            << QByteArray(
                   "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /a\\\"b HTTP/1.1\" 404 0 \"-\" "
                   "\"ua \\\"quoted\\\"\"")
            << QByteArray("/a\\\"b") << QByteArray("1.2.3.4");
        QTest::newRow("extra trailing field")
            << QByteArray(
                   "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /x HTTP/1.1\" 200 1 \"-\" "
                   "\"ua\" \"203.0.113.9, 10.0.0.2\"")
            << QByteArray("/x") << QByteArray("1.2.3.4");
        QTest::newRow("non-utf8 bytes kept")
            << QByteArray(
                   "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /caf\xe9 HTTP/1.1\" 200 1 \"-\" "
                   "\"\xff\"")
            << QByteArray("/caf\xe9") << QByteArray("1.2.3.4");
        QTest::newRow("garbage request line")
            << QByteArray(
                   "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"\\x16\\x03\\x01\\x00\\xa5\\x01\" "
                   "400 157 \"-\" \"-\"")
            << QByteArray(kInvalidRequestKey.data()) << QByteArray("1.2.3.4");
        QTest::newRow("dash request")
            << QByteArray("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"-\" 400 0 \"-\" \"-\"")
            << QByteArray(kInvalidRequestKey.data()) << QByteArray("1.2.3.4");
    }
    void combinedLinesAsServersWriteThem() {
        QFETCH(QByteArray, line);
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, visitor);
        const auto p = combined(line);
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.time, kT);
        QCOMPARE(QByteArray::fromStdString(p.event.key), key);
        QCOMPARE(QByteArray::fromStdString(p.event.visitor), visitor);
        QCOMPARE(p.event.count, Count{1});
    }

    void commonLineHasNoRefererButParses() {
        const QByteArray line =
            "127.0.0.1 user-identifier frank [10/Oct/2000:13:55:36 -0700] \"GET /c HTTP/1.0\" 200 "
            "2326";
        const auto p = parseWith(AccessLogParser(LogFormat::common(), AccessLogKey::Path), line);
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.key, std::string("/c"));
        QCOMPARE(combined(line).kind, TraceErrorKind::LogLineMismatch);
    }

    void everyKeyChoice_data() {
        QTest::addColumn<int>("key");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("path") << int(AccessLogKey::Path) << QByteArray("/p");
        QTest::newRow("path+query") << int(AccessLogKey::PathQuery) << QByteArray("/p?a=1");
        QTest::newRow("status") << int(AccessLogKey::Status) << QByteArray("503");
        QTest::newRow("method") << int(AccessLogKey::Method) << QByteArray("POST");
        QTest::newRow("client") << int(AccessLogKey::Client) << QByteArray("9.9.9.9");
    }
    void everyKeyChoice() {
        QFETCH(int, key);
        QFETCH(QByteArray, expected);
        const auto p = combined(
            "9.9.9.9 - - [10/Oct/2000:13:55:36 -0700] \"POST /p?a=1 HTTP/1.1\" 503 0 \"-\" \"-\"",
            AccessLogKey(key));
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(QByteArray::fromStdString(p.event.key), expected);
    }

    void keyNamesRoundTrip() {
        for (const auto key : {AccessLogKey::Path, AccessLogKey::PathQuery, AccessLogKey::Status,
                               AccessLogKey::Method, AccessLogKey::Vhost, AccessLogKey::Client})
            QCOMPARE(accessLogKeyFromName(accessLogKeyName(key)).value(), key);
        QVERIFY(!accessLogKeyFromName("url").has_value());
    }

    void vhostKeyNeedsAHostField() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 AccessLogParser(LogFormat::combined(), AccessLogKey::Vhost));
        const auto format = LogFormat::compile(
            "$host $remote_addr - $remote_user [$time_local] \"$request\" $status");
        const auto p = parseWith(
            AccessLogParser(format, AccessLogKey::Vhost),
            "shop.example 1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200");
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.key, std::string("shop.example"));
    }

    void usersOwnLogFormat() {
        // A log_format as copied from nginx.conf: time first, then ISO time and split URI.
        const auto format = LogFormat::compile(
            "$time_iso8601 | $remote_addr | $request_method ${uri} $args | $status | "
            "$request_time");
        const auto p = parseWith(AccessLogParser(format, AccessLogKey::PathQuery),
                                 "2000-10-10T13:55:36-07:00 | ::1 | GET /u x=2 | 201 | 0.003");
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.time, kT);
        QCOMPARE(p.event.key, std::string("/u?x=2"));
        QCOMPARE(p.event.visitor, std::string("::1"));
    }

    void badLogFormatsAreRefusedWithTheReason() {
        try {
            LogFormat::compile("$remote_addr $status");
            QFAIL("a format without a time variable was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("$time_local") != std::string::npos);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LogFormat::compile("${time_local"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LogFormat::compile("$time_local $"));
    }

    void linesThatDoNotFollowTheFormat_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<TraceErrorKind>("kind");
        QTest::addColumn<QByteArray>("mentions");
        QTest::newRow("no brackets")
            << QByteArray("1.2.3.4 - - 10/Oct/2000 \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"")
            << TraceErrorKind::LogLineMismatch << QByteArray("after $remote_user");
        QTest::newRow("unterminated request")
            << QByteArray("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1")
            << TraceErrorKind::LogLineMismatch << QByteArray("$request");
        QTest::newRow("bad time")
            << QByteArray(
                   "1.2.3.4 - - [10/Oct/2000:25:55:36 -0700] \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"")
            << TraceErrorKind::BadLogTime << QByteArray("25:55:36");
        QTest::newRow("plain text")
            << QByteArray("hello world") << TraceErrorKind::LogLineMismatch << QByteArray("column");
    }
    void linesThatDoNotFollowTheFormat() {
        QFETCH(QByteArray, line);
        QFETCH(TraceErrorKind, kind);
        QFETCH(QByteArray, mentions);
        const auto p = combined(line);
        QCOMPARE(p.kind, kind);
        QVERIFY2(QByteArray::fromStdString(p.problem).contains(mentions), p.problem.c_str());
    }

    void jsonLines_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("key");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("nginx escape=json")
            << QByteArray(
                   "{\"time_iso8601\":\"2000-10-10T13:55:36-07:00\",\"remote_addr\":\"1.2.3.4\","
                   "\"request\":\"GET /j?x=1 HTTP/1.1\",\"status\":\"200\"}")
            << int(AccessLogKey::Path) << QByteArray("/j");
        QTest::newRow("epoch number, uri")
            << QByteArray(
                   "{\"msec\": 971211336.25, \"uri\": \"/caf\\u00e9\", \"status\": 200, \"ip\": "
                   "\"::1\"}")
            << int(AccessLogKey::Path) << QByteArray("/caf\xc3\xa9");
        QTest::newRow("status number")
            << QByteArray(
                   "{\"ts\":\"971211336\",\"status\":404,\"nested\":{\"a\":[1,{\"b\":null}]}}")
            << int(AccessLogKey::Status) << QByteArray("404");
        QTest::newRow("clf time string") << QByteArray(
                                                "{\"time_local\":\"10/Oct/2000:13:55:36 "
                                                "-0700\",\"method\":\"PUT\",\"path\":\"/m\"}")
                                         << int(AccessLogKey::Method) << QByteArray("PUT");
    }
    void jsonLines() {
        QFETCH(QByteArray, line);
        QFETCH(int, key);
        QFETCH(QByteArray, expected);
        const auto p = parseWith(AccessLogParser::jsonLines(AccessLogKey(key)), line);
        QVERIFY2(p.kind == TraceErrorKind::None, p.problem.c_str());
        QCOMPARE(p.event.time, kT);
        QCOMPARE(QByteArray::fromStdString(p.event.key), expected);
    }

    void badJsonLinesNameTheProblem_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QByteArray>("mentions");
        QTest::newRow("not an object") << QByteArray("[1,2]") << QByteArray("'{'");
        QTest::newRow("no time") << QByteArray("{\"uri\":\"/a\"}") << QByteArray("no time member");
        QTest::newRow("unterminated") << QByteArray("{\"time\":\"1") << QByteArray("unterminated");
        QTest::newRow("trailing junk")
            << QByteArray("{\"time\":1} x") << QByteArray("end of the line");
        QTest::newRow("deep nesting")
            << QByteArray("{\"time\":1,\"a\":") + QByteArray(100, '[') << QByteArray("too deeply");
    }
    void statusClassTravelsWithTheHit() {
        QCOMPARE(combined("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 503 5 "
                          "\"-\" \"x\"")
                     .event.statusClass,
                 std::uint8_t{5});
        QCOMPARE(combined("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 204 - "
                          "\"-\" \"x\"")
                     .event.statusClass,
                 std::uint8_t{2});
        const auto json = parseWith(AccessLogParser::jsonLines(AccessLogKey::Path),
                                    "{\"time\":1,\"request_uri\":\"/a\",\"status\":\"404\"}");
        QCOMPARE(json.kind, TraceErrorKind::None);
        QCOMPARE(json.event.statusClass, std::uint8_t{4});
        for (const char* status : {"-", "", "42", "600", "099", "2x0", "2000"})
            QCOMPARE(statusClassOf(status), std::uint8_t{0});
        QCOMPARE(statusClassOf("100"), std::uint8_t{1});
        QCOMPARE(statusClassOf("599"), std::uint8_t{5});
    }

    void badJsonLinesNameTheProblem() {
        QFETCH(QByteArray, line);
        QFETCH(QByteArray, mentions);
        const auto p = parseWith(AccessLogParser::jsonLines(AccessLogKey::Path), line);
        QVERIFY(p.kind != TraceErrorKind::None);
        QVERIFY2(QByteArray::fromStdString(p.problem).contains(mentions), p.problem.c_str());
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestAccessLogParser)
#include "tst_access_log_parser.moc"
