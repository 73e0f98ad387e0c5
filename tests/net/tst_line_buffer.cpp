// Splitting datagrams and TCP streams into lines (core/net/line_buffer.h).
#include <QTest>

#include <string>
#include <vector>

#include "core/net/line_buffer.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {
using Lines = std::vector<std::string>;

Lines splitDatagram(std::string_view bytes) {
    Lines lines;
    forEachLine(bytes, [&](std::string_view l) { lines.emplace_back(l); });
    return lines;
}
}  // namespace

class LineBufferTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void datagramSplitsOnNewlines() {
        QCOMPARE(splitDatagram("a:1|c\nb:2|c\nc:3|c"), (Lines{"a:1|c", "b:2|c", "c:3|c"}));
        QCOMPARE(splitDatagram("a:1|c\n"), (Lines{"a:1|c"}));
        QCOMPARE(splitDatagram("a\n\nb"), (Lines{"a", "", "b"}));
        QCOMPARE(splitDatagram(""), Lines{});
    }

    void streamLineSplitAcrossReadsIsJoined() {
        LineBuffer buffer;
        Lines lines;
        const auto onLine = [&](std::string_view l) { lines.emplace_back(l); };
        QVERIFY(buffer.feed("ho", onLine));
        QVERIFY(lines.empty());
        QVERIFY(buffer.feed("me:1", onLine));
        QVERIFY(buffer.feed("|c\nb:2|c\nc:", onLine));
        QCOMPARE(lines, (Lines{"home:1|c", "b:2|c"}));
        QCOMPARE(std::string(buffer.rest()), std::string("c:"));
        QVERIFY(buffer.feed("3|c\n", onLine));
        QCOMPARE(lines, (Lines{"home:1|c", "b:2|c", "c:3|c"}));
        QVERIFY(buffer.rest().empty());
    }

    void unterminatedLastLineStaysInRest() {
        LineBuffer buffer;
        Lines lines;
        QVERIFY(buffer.feed("a:1|c\nlast:1|c", [&](std::string_view l) { lines.emplace_back(l); }));
        QCOMPARE(lines, Lines{"a:1|c"});
        QCOMPARE(std::string(buffer.rest()), std::string("last:1|c"));
    }

    void lineAtTheLimitIsAccepted() {
        LineBuffer buffer(8);
        Lines lines;
        const auto onLine = [&](std::string_view l) { lines.emplace_back(l); };
        QVERIFY(buffer.feed("1234", onLine));
        QVERIFY(buffer.feed("5678\n12345678\n", onLine));
        QCOMPARE(lines, (Lines{"12345678", "12345678"}));
    }

    void tooLongLineIsRefused_data() {
        QTest::addColumn<QByteArrayList>("reads");
        QTest::newRow("complete in one read") << QByteArrayList{"123456789\n"};
        QTest::newRow("unterminated in one read") << QByteArrayList{"123456789"};
        QTest::newRow("grows across reads") << QByteArrayList{"12345", "6789"};
        QTest::newRow("completed by a later read") << QByteArrayList{"1234567", "89\n"};
        QTest::newRow("after a good line") << QByteArrayList{"ok\n123456789"};
    }
    void tooLongLineIsRefused() {
        QFETCH(QByteArrayList, reads);
        LineBuffer buffer(8);
        Lines lines;
        bool fits = true;
        for (const QByteArray& r : reads) {
            fits = buffer.feed(std::string_view(r.constData(), r.size()),
                               [&](std::string_view l) { lines.emplace_back(l); });
            if (!fits) {
                break;
            }
        }
        QVERIFY(!fits);
        for (const std::string& l : lines) {
            QVERIFY(l.size() <= 8);
        }
    }

    void defaultLimitIs64KiB() {
        LineBuffer buffer;
        const std::string atLimit(kMaxLineBytes, 'x');
        int count = 0;
        QVERIFY(buffer.feed(atLimit + "\n", [&](std::string_view) { ++count; }));
        QCOMPARE(count, 1);
        QVERIFY(!buffer.feed(atLimit + "y", [&](std::string_view) { ++count; }));
        QCOMPARE(kMaxLineBytes, std::size_t{65536});
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(LineBufferTest)
#include "tst_line_buffer.moc"
