// Received bytes made safe for terminals and JSON (core/net/text_escape.h).
#include <QTest>

#include "core/net/text_escape.h"
#include "tests/test_main.h"

using namespace hitcounter;

class TextEscapeTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void terminalEscaping_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("printed");
        QTest::newRow("plain") << QByteArray("pages.home") << QByteArray("pages.home");
        QTest::newRow("utf-8 kept") << QByteArray("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80")
                                    << QByteArray("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
        QTest::newRow("title escape")
            << QByteArray("a\x1b]0;pwned\x07") << QByteArray("a\\x1b]0;pwned\\x07");
        QTest::newRow("carriage return") << QByteArray("evil\rgood") << QByteArray("evil\\x0dgood");
        QTest::newRow("newline and tab") << QByteArray("a\nb\tc") << QByteArray("a\\x0ab\\x09c");
        QTest::newRow("nul") << QByteArray("a\0b", 3) << QByteArray("a\\x00b");
        QTest::newRow("del") << QByteArray("a\x7f") << QByteArray("a\\x7f");
        QTest::newRow("c1 csi") << QByteArray("a\xc2\x9b") << QByteArray("a\\xc2\\x9b");
        QTest::newRow("nbsp is printable") << QByteArray("a\xc2\xa0") << QByteArray("a\xc2\xa0");
        QTest::newRow("invalid byte") << QByteArray("\xff") << QByteArray("\\xff");
        QTest::newRow("truncated sequence") << QByteArray("a\xe2\x82") << QByteArray("a\\xe2\\x82");
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QByteArray("\\xc0\\xaf");
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << QByteArray("\\xed\\xa0\\x80");
        QTest::newRow("backslash doubled") << QByteArray("a\\x1b") << QByteArray("a\\\\x1b");
    }
    void terminalEscaping() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, printed);
        const std::string out = escapeForTerminal(std::string_view(text.constData(), text.size()));
        QCOMPARE(QByteArray::fromStdString(out), printed);
        QVERIFY(isValidUtf8(out));
    }

    void utf8Validity() {
        QVERIFY(isValidUtf8(""));
        QVERIFY(isValidUtf8("caf\xc3\xa9"));
        QVERIFY(isValidUtf8("\xf4\x8f\xbf\xbf"));   // U+10FFFF
        QVERIFY(!isValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
        QVERIFY(!isValidUtf8("\xff"));
        QVERIFY(!isValidUtf8("\xfe"));
        QVERIFY(!isValidUtf8("\xe0\x80\x80"));  // overlong
        QVERIFY(!isValidUtf8("\xc3"));
    }

    // RFC 4180: a field with ',' or '"' is quoted and its '"' doubled; no byte of a key can end
    // a row (line feeds are escaped before the quoting), and bad bytes stay as \xHH.
    void csvFieldsAreEscapedThenQuoted_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("field");
        QTest::newRow("plain") << QByteArray("home") << QByteArray("home");
        QTest::newRow("comma") << QByteArray("a,b") << QByteArray("\"a,b\"");
        QTest::newRow("quote") << QByteArray("say \"hi\"") << QByteArray("\"say \"\"hi\"\"\"");
        QTest::newRow("forged row")
            << QByteArray("x\n1,evil,9") << QByteArray("\"x\\x0a1,evil,9\"");
        QTest::newRow("title escape")
            << QByteArray("a\x1b]0;t\x07") << QByteArray("a\\x1b]0;t\\x07");
        QTest::newRow("bad byte") << QByteArray("\xff") << QByteArray("\\xff");
        QTest::newRow("backslash text") << QByteArray("\\xff") << QByteArray("\\\\xff");
    }
    void csvFieldsAreEscapedThenQuoted() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, field);
        QCOMPARE(
            QByteArray::fromStdString(csvField(std::string_view(text.constData(), text.size()))),
            field);
    }

    // Valid UTF-8 as JSON requires; other text escaped first, so distinct keys stay distinct.
    void jsonStringsStayDistinctAndValid() {
        QCOMPARE(jsonString("a\"b\\c"), std::string("\"a\\\"b\\\\c\""));
        QCOMPARE(jsonString("a\x1b\x07"), std::string("\"a\\u001b\\u0007\""));
        QCOMPARE(jsonString("caf\xc3\xa9"), std::string("\"caf\xc3\xa9\""));
        QCOMPARE(jsonString("\xff"), std::string("\"\\\\xff\""));
        QVERIFY(jsonString("\xff") != jsonString("\xfe"));
    }

    void hexIsTwoDigitsPerByte() {
        QCOMPARE(hexBytes("\xff"
                          "a"),
                 std::string("ff61"));
        QCOMPARE(hexBytes(std::string_view("\0", 1)), std::string("00"));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TextEscapeTest)
#include "tst_text_escape.moc"
