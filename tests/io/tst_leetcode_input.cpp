// readLeetCode / answerLeetCode: the LeetCode 362 format, parsed into calls and answered, with
// errors at a line and column (the one reader behind judge and teach).
#include <QTest>

#include <algorithm>
#include <sstream>

#include "core/counters/counter_factory.h"
#include "core/judge/leetcode_judge.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {
std::variant<std::string, TextProblem> judged(const QByteArray& input,
                                              const char* policy = "ring") {
    std::istringstream in(input.toStdString());
    const auto counter = makeCounter(policy);
    return answerLeetCode(in, *counter);
}

// The error with its message as a QString, for contains().
struct Error {
    long long line = -1;
    long long column = -1;
    QString message;
    QString described;
};

Error errorOf(const QByteArray& input) {
    const auto result = judged(input);
    const auto* error = std::get_if<TextProblem>(&result);
    if (!error)
        return {-1, -1, QStringLiteral("no error"), QStringLiteral("no error")};
    return {error->line, error->column, QString::fromStdString(error->message),
            QString::fromStdString(error->describe())};
}

std::string answersOf(const QByteArray& input) {
    const auto result = judged(input);
    const auto* answers = std::get_if<std::string>(&result);
    return answers ? *answers : errorOf(input).described.toStdString();
}
}  // namespace

class TestLeetCodeInput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsOperationsAndTimestampsAcrossBlankLinesAndSpaces() {
        const QByteArray input =
            "\n[\"HitCounter\", \"hit\", \"getHits\", \"h\\u0069t\", "
            "\"getHits\"]\r\n\n[[], [4611686018427387903], "
            "[4611686018427387903], [ 2.0 ],[2.75]]\n\n";
        QCOMPARE(answersOf(input), std::string("[null,null,1,null,0]"));
    }

    void answersTheProblemExample() {
        for (const char* policy : {"ring", "deque", "naive"})
            QCOMPARE(std::get<std::string>(judged("[\"HitCounter\",\"hit\",\"hit\",\"hit\","
                                                  "\"getHits\",\"hit\",\"getHits\",\"getHits\"]\n"
                                                  "[[],[1],[2],[3],[4],[300],[300],[301]]\n",
                                                  policy)),
                     std::string("[null,null,null,null,3,null,4,3]"));
    }

    void timestampsFollowTheTraceSyntax() {
        // The same syntax as a trace's timestamp column: a fraction is floored, an exponent
        // or a sign is refused.
        QCOMPARE(answersOf("[\"HitCounter\",\"hit\",\"getHits\"]\n[[],[1.0],[1.99]]"),
                 std::string("[null,null,1]"));
        QVERIFY(errorOf("[\"HitCounter\",\"hit\"]\n[[],[1e3]]")
                    .message.contains("[1e3]; the timestamp has an exponent"));
        QVERIFY(errorOf("[\"HitCounter\",\"hit\"]\n[[],[1E3]]").message.contains("exponent"));
    }

    void numbersAreEchoedAsWritten() {
        const Error huge = errorOf("[\"HitCounter\",\"hit\"]\n[[],[18446744073709551615]]");
        QVERIFY2(huge.message.contains("is [18446744073709551615]; the timestamp is too large"),
                 qPrintable(huge.message));
        const Error exponent = errorOf("[\"HitCounter\",\"hit\"]\n[[],[1.0e+19]]");
        QVERIFY2(exponent.message.contains("is [1.0e+19]"), qPrintable(exponent.message));
        const Error name = errorOf("[\"HitCounter\",1e400]\n[[],[1]]");
        QVERIFY2(name.message.contains("unknown operation 1e400"), qPrintable(name.message));
    }

    void theFirstProblemIsReportedOnItsOwnLine() {
        // Garbage on line 1 and an extra line 3: line 1 is blamed, not line 3.
        const Error error = errorOf("garbage\n[[],[1]]\nmore\n");
        QCOMPARE(error.line, 1LL);
        QCOMPARE(error.column, 1LL);
        QVERIFY2(error.message.contains("invalid JSON (unexpected 'g')"),
                 qPrintable(error.message));
        // A bad list early on line 2 comes before a count mismatch found at its end.
        const Error early = errorOf("[\"HitCounter\",\"hit\"]\n[[],[-1],[3]]");
        QCOMPARE(early.line, 2LL);
        QCOMPARE(early.column, 5LL);
        QVERIFY2(early.message.contains("negative"), qPrintable(early.message));
    }

    void aLongInputIsStreamedWithOneAnswerPerCall() {
        // 200k calls, read in one pass (the CLI reads stdin the same way).
        std::string names = "[\"HitCounter\"", arguments = "[[]";
        for (int i = 1; i <= 200000; ++i) {
            names += i % 4 != 0 ? ",\"hit\"" : ",\"getHits\"";
            arguments += ",[" + std::to_string(i / 2) + "]";
        }
        const QByteArray input = QByteArray::fromStdString(names + "]\n" + arguments + "]\n");
        const std::string answers = answersOf(input);
        QCOMPARE(std::count(answers.begin(), answers.end(), ','), std::ptrdiff_t{200000});
        const auto reference = makeCounter("sorted");
        std::string again = "[null";
        for (int i = 1; i <= 200000; ++i) {
            if (i % 4 != 0) {
                reference->hit(i / 2);
                again += ",null";
            } else {
                again += "," + std::to_string(reference->count(i / 2));
            }
        }
        QCOMPARE(answers, again + "]");
    }

    void errorsNameTheLineAndTheProblem_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("empty") << QByteArray() << 1 << "empty input";
        QTest::newRow("one line") << QByteArray("[\"HitCounter\"]\n") << 2 << "second line";
        QTest::newRow("bad json 1") << QByteArray("[\"HitCounter\",\n[[]]") << 1 << "invalid JSON";
        QTest::newRow("bad json 2")
            << QByteArray("\n[\"HitCounter\"]\n[[]\n") << 3 << "invalid JSON";
        QTest::newRow("object") << QByteArray("{}\n[]") << 1 << "not a JSON array";
        QTest::newRow("no operations") << QByteArray("[]\n[]") << 1 << "no operations";
        QTest::newRow("not first") << QByteArray("[\"hit\"]\n[[1]]") << 1 << "\"HitCounter\"";
        QTest::newRow("twice") << QByteArray("[\"HitCounter\",\"HitCounter\"]\n[[],[]]") << 1
                               << "position 2";
        QTest::newRow("unknown") << QByteArray("[\"HitCounter\",\"hits\"]\n[[],[1]]") << 1
                                 << "unknown operation \"hits\" at position 2";
        QTest::newRow("number op")
            << QByteArray("[\"HitCounter\",5]\n[[],[1]]") << 1 << "unknown operation 5";
        QTest::newRow("lengths") << QByteArray("[\"HitCounter\",\"hit\"]\n[[]]") << 2
                                 << "1 argument lists for 2 operations";
        QTest::newRow("ctor args") << QByteArray("[\"HitCounter\"]\n[[5]]") << 2 << "expected []";
        QTest::newRow("missing ts") << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[]]") << 2
                                    << "argument list 2 (hit) is []; expected [timestamp]";
        QTest::newRow("two args") << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[1,2]]") << 2
                                  << "expected [timestamp]";
        QTest::newRow("not a list")
            << QByteArray("[\"HitCounter\",\"hit\"]\n[[],1]") << 2 << "expected [timestamp]";
        QTest::newRow("string ts")
            << QByteArray("[\"HitCounter\",\"getHits\"]\n[[],[\"7\"]]") << 2 << "not a number";
        QTest::newRow("negative") << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[-1]]") << 2
                                  << "negative";
        QTest::newRow("plus sign")
            << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[+1]]") << 2 << "invalid JSON";
        QTest::newRow("exponent") << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[1e300]]") << 2
                                  << "has an exponent";
        QTest::newRow("array spans lines")
            << QByteArray("[\"HitCounter\",\n\"hit\"]\n[[],[1]]") << 1 << "the line ends";
        QTest::newRow("2^62") << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[4611686018427387904]]")
                              << 2 << "too large";
        QTest::newRow("third line")
            << QByteArray("[\"HitCounter\"]\n[[]]\n\n[]\n") << 4 << "unexpected text";
    }
    void errorsNameTheLineAndTheProblem() {
        QFETCH(QByteArray, input);
        QFETCH(int, line);
        QFETCH(QString, mentions);
        const Error error = errorOf(input);
        QCOMPARE(error.line, line);
        QVERIFY2(error.message.contains(mentions), qPrintable(error.message));
        QVERIFY2(error.described.startsWith(QStringLiteral("line %1, column ").arg(line)),
                 qPrintable(error.described));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestLeetCodeInput)
#include "tst_leetcode_input.moc"
