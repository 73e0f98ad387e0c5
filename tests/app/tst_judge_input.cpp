// parseJudgeInput / runJudge: the LeetCode 362 format, parsed into calls and answered.
#include <QTest>

#include "app/cli/judge_input.h"
#include "core/counters/counter_factory.h"

using namespace hitcounter;
using namespace hitcounter::cli;

namespace {
JudgeError errorOf(const QByteArray& input) {
    const auto parsed = parseJudgeInput(input);
    const auto* error = std::get_if<JudgeError>(&parsed);
    return error ? *error : JudgeError{-1, QStringLiteral("no error")};
}
}  // namespace

class TestJudgeInput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesOperationsAndTimestamps() {
        const QByteArray input =
            "\n[\"HitCounter\", \"hit\", \"getHits\"]\r\n\n[[], [4611686018427387903], [2.0]]\n\n";
        const auto parsed = parseJudgeInput(input);
        const auto* program = std::get_if<JudgeProgram>(&parsed);
        QVERIFY2(program, qPrintable(errorOf(input).describe()));
        QCOMPARE(program->size(), std::size_t{3});
        QCOMPARE((*program)[0].op, JudgeCall::Op::Construct);
        QCOMPARE((*program)[1].op, JudgeCall::Op::Hit);
        QCOMPARE((*program)[1].time, Timestamp{4611686018427387903});
        QCOMPARE((*program)[2].op, JudgeCall::Op::GetHits);
        QCOMPARE((*program)[2].time, Timestamp{2});
    }

    void answersTheProblemExample() {
        const auto parsed = parseJudgeInput(
            "[\"HitCounter\",\"hit\",\"hit\",\"hit\",\"getHits\",\"hit\",\"getHits\",\"getHits\"]\n"
            "[[],[1],[2],[3],[4],[300],[300],[301]]\n");
        const auto counter = makeCounter("ring");
        QCOMPARE(runJudge(std::get<JudgeProgram>(parsed), *counter),
                 QByteArray("[null,null,null,null,3,null,4,3]"));
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
        QTest::newRow("fraction") << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[1.5]]") << 2
                                  << "not a whole number";
        QTest::newRow("huge") << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[1e300]]") << 2
                              << "too large";
        QTest::newRow("2^62") << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[4611686018427387904]]")
                              << 2 << "too large";
        QTest::newRow("third line")
            << QByteArray("[\"HitCounter\"]\n[[]]\n\n[]\n") << 4 << "unexpected text";
    }
    void errorsNameTheLineAndTheProblem() {
        QFETCH(QByteArray, input);
        QFETCH(int, line);
        QFETCH(QString, mentions);
        const JudgeError error = errorOf(input);
        QCOMPARE(error.line, line);
        QVERIFY2(error.message.contains(mentions), qPrintable(error.message));
        QVERIFY(error.describe().startsWith(QStringLiteral("line %1: ").arg(line)));
    }
};

QTEST_APPLESS_MAIN(TestJudgeInput)
#include "tst_judge_input.moc"
