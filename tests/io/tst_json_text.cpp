// The JSON text both JSON readers share (core/io/json_text.h): escapes decoded alike, surrogate
// pairs joined, lone halves replaced; and each reader decodes through it (a JSON-lines member's
// value, a LeetCode operation name).
#include <QTest>

#include <sstream>
#include <string>

#include "core/counters/counter_factory.h"
#include "core/io/json_line.h"
#include "core/io/json_text.h"
#include "core/judge/leetcode_judge.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

// Reads a std::string as decodeJsonEscape's reader does.
struct TextReader {
    std::string text;
    std::size_t at = 0;
    int peek() const { return at < text.size() ? static_cast<unsigned char>(text[at]) : -1; }
    void get() { ++at; }
};

// U+1F600 (an emoji outside the BMP) and U+FFFD in UTF-8.
const QByteArray kGrinning("\xf0\x9f\x98\x80");
const QByteArray kReplacement("\xef\xbf\xbd");

// The value of member "v" in `{"v":"<escaped>"}`, or "error: <problem>".
QByteArray decodedByJsonLines(const QByteArray& escaped) {
    std::string value;
    std::string problem;
    const std::string line = "{\"v\":\"" + escaped.toStdString() + "\"}";
    const bool ok = forEachJsonMember(
        line, [&](std::string_view, std::string_view text, bool) { value = text; }, problem);
    return ok ? QByteArray::fromStdString(value) : "error: " + QByteArray::fromStdString(problem);
}

}  // namespace

class TestJsonText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void escapesDecodeToUtf8_data() {
        QTest::addColumn<QByteArray>("escaped");   // the string's text between its quotes
        QTest::addColumn<QByteArray>("expected");  // its UTF-8
        QTest::newRow("simple") << QByteArray(R"(\"\\\/\b\f\n\r\t)")
                                << QByteArray("\"\\/\b\f\n\r\t");
        QTest::newRow("one byte") << QByteArray(R"(\u0041)") << QByteArray("A");
        QTest::newRow("two bytes") << QByteArray(R"(\u00e9)") << QByteArray("\xc3\xa9");
        QTest::newRow("three bytes") << QByteArray(R"(\u20AC)") << QByteArray("\xe2\x82\xac");
        QTest::newRow("pair") << QByteArray(R"(\ud83d\ude00)") << kGrinning;
        QTest::newRow("pair, upper case") << QByteArray(R"(\uD83D\uDE00x)") << kGrinning + "x";
        QTest::newRow("lone high") << QByteArray(R"(\ud83dx)") << kReplacement + "x";
        QTest::newRow("lone low") << QByteArray(R"(\ude00)") << kReplacement;
        QTest::newRow("high, then a simple escape")
            << QByteArray(R"(\ud83d\n)") << kReplacement + "\n";
        QTest::newRow("high, then a non-surrogate")
            << QByteArray(R"(\ud83d\u0041)") << kReplacement + "A";
        QTest::newRow("high, high, low")
            << QByteArray(R"(\ud83d\ud83d\ude00)") << kReplacement + kGrinning;
        QTest::newRow("pair, pair")
            << QByteArray(R"(\ud83d\ude00\ud83d\ude00)") << kGrinning + kGrinning;
    }
    void escapesDecodeToUtf8() {
        QFETCH(QByteArray, escaped);
        QFETCH(QByteArray, expected);
        // Directly, one escape after another as a string reader meets them.
        TextReader reader{escaped.toStdString()};
        std::string decoded;
        while (reader.peek() == '\\') {
            reader.get();
            QCOMPARE(decodeJsonEscape(reader, decoded), JsonEscapeError::None);
        }
        decoded.append(reader.text, reader.at);
        QCOMPARE(QByteArray::fromStdString(decoded), expected);
        // And through the JSON-lines reader.
        QCOMPARE(decodedByJsonLines(escaped), expected);
    }

    void badEscapesStopAtTheOffendingCharacter_data() {
        QTest::addColumn<QByteArray>("escape");  // after the backslash
        QTest::addColumn<int>("error");
        QTest::addColumn<int>("stoppedAt");
        QTest::newRow("unknown letter")
            << QByteArray("x") << int(JsonEscapeError::UnknownEscape) << 0;
        QTest::newRow("three hex digits")
            << QByteArray("u12g4") << int(JsonEscapeError::NotFourHexDigits) << 3;
        QTest::newRow("ends inside")
            << QByteArray("u12") << int(JsonEscapeError::NotFourHexDigits) << 3;
        QTest::newRow("bad low half")
            << QByteArray("ud83d\\uz") << int(JsonEscapeError::NotFourHexDigits) << 7;
        QTest::newRow("bad escape after a high half")
            << QByteArray("ud83d\\q") << int(JsonEscapeError::UnknownEscape) << 6;
    }
    void badEscapesStopAtTheOffendingCharacter() {
        QFETCH(QByteArray, escape);
        QFETCH(int, error);
        QFETCH(int, stoppedAt);
        TextReader reader{escape.toStdString()};
        std::string decoded;
        QCOMPARE(int(decodeJsonEscape(reader, decoded)), error);
        QCOMPARE(int(reader.at), stoppedAt);
        QVERIFY(decodedByJsonLines("\\" + escape).startsWith("error: "));
    }

    void aLongRunOfLoneHighHalvesIsOneLoop() {
        // 200,000 lone high surrogates, each followed by the next: a recursion would be this deep.
        std::string text;
        for (int i = 0; i < 200000; ++i)
            text += i == 0 ? "ud800" : "\\ud800";
        TextReader reader{text};
        std::string decoded;
        QCOMPARE(decodeJsonEscape(reader, decoded), JsonEscapeError::None);
        QCOMPARE(decoded.size(), std::size_t{200000} * 3);
        QCOMPARE(reader.at, text.size());
    }

    void numbersAreJsonNumbers_data() {
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<bool>("number");
        QTest::newRow("int") << QByteArray("404") << true;
        QTest::newRow("negative fraction") << QByteArray("-0.25") << true;
        QTest::newRow("exponent") << QByteArray("1E+5") << true;
        QTest::newRow("minus alone") << QByteArray("-") << false;
        QTest::newRow("dot without digits") << QByteArray("1.") << false;
        QTest::newRow("letters after") << QByteArray("12abc") << false;
        QTest::newRow("exponent without digits") << QByteArray("1e") << false;
    }
    void numbersAreJsonNumbers() {
        QFETCH(QByteArray, token);
        QFETCH(bool, number);
        QCOMPARE(isJsonNumber(token.toStdString()), number);
        std::string problem;
        const std::string line = "{\"v\":" + token.toStdString() + "}";
        QCOMPARE(forEachJsonMember(
                     line, [](auto, auto, bool) {}, problem),
                 number);
    }

    void leetCodeNamesAreDecodedByTheSameRules() {
        const auto judged = [](const std::string& input) {
            std::istringstream in(input);
            const auto counter = makeCounter("ring");
            return answerLeetCode(in, *counter);
        };
        // "hit" and "getHits" written with escapes are those operations.
        const auto escaped = judged(R"(["HitCount\u0065r","\u0068it","getHit\u0073"])"
                                    "\n[[],[1],[1]]");
        QCOMPARE(std::get<std::string>(escaped), std::string("[null,null,1]"));
        // A surrogate pair is a well-formed name (an unknown one), not broken JSON.
        const auto pair = judged(R"(["HitCounter","\ud83d\ude00"])"
                                 "\n[[],[1]]");
        QVERIFY(std::get<TextProblem>(pair).message.starts_with("unknown operation"));
        const auto bad = judged(R"(["HitCounter","\ud83d\q"])"
                                "\n[[],[1]]");
        QVERIFY(std::get<TextProblem>(bad).message.find("an escape such as") != std::string::npos);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestJsonText)
#include "tst_json_text.moc"
