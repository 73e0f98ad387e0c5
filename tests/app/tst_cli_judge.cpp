// hitcounter-cli judge, run as a process: the shared LeetCode example for every exact policy,
// random inputs on which every exact policy agrees with the core, and bad input (exit 2 and a
// message naming the line).
#include <QTest>

#include <random>

#include "cli_process.h"
#include "core/counters/counter_factory.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

struct RandomJudge {
    QByteArray input;
    QByteArray expected;  // computed with the sorted policy in this process
};

// Mostly non-decreasing times with repeats, gaps beyond the window and a few late hits.
RandomJudge randomJudge(std::uint32_t seed, int operations) {
    std::mt19937 rng(seed);
    auto reference = makeCounter("sorted");
    QByteArray names = "[\"HitCounter\"";
    QByteArray arguments = "[[]";
    QByteArray expected = "[null";
    Timestamp now = std::uniform_int_distribution<Timestamp>(1, 2'000'000'000)(rng);
    for (int i = 0; i < operations; ++i) {
        const int roll = std::uniform_int_distribution<int>(0, 99)(rng);
        if (roll < 30)
            now += std::uniform_int_distribution<Timestamp>(0, 400)(rng);
        const Timestamp late = std::max<Timestamp>(0, now - (roll % 7 == 0 ? roll * 4 : 0));
        const bool isHit = roll < 70;
        names += isHit ? ",\"hit\"" : ",\"getHits\"";
        arguments += ",[" + QByteArray::number(isHit ? late : now) + "]";
        if (isHit) {
            reference->hit(late);
            expected += ",null";
        } else {
            expected += "," + QByteArray::number(quint64(reference->count(now)));
        }
    }
    return {names + "]\n" + arguments + "]\n", expected + "]\n"};
}

}  // namespace

class TestCliJudge : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void leetcodeExampleIsAnsweredByEveryExactPolicy_data() {
        QTest::addColumn<QString>("policy");
        for (const auto name : exactPolicyNames())
            QTest::newRow(name.data()) << QString::fromLatin1(name.data(), name.size());
    }
    void leetcodeExampleIsAnsweredByEveryExactPolicy() {
        QFETCH(QString, policy);
        const QByteArray expected = testdata("leetcode_example.out").trimmed();
        QVERIFY(!expected.isEmpty());
        const auto result = runCli({"judge", "--policy", policy}, testdata("leetcode_example.in"));
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, expected + '\n');
        QVERIFY(result.err.isEmpty());
    }

    void theDefaultPolicyIsRingWithA300SecondWindow() {
        const QByteArray input = testdata("leetcode_example.in");
        const auto byDefault = runCli({"judge"}, input);
        QCOMPARE(byDefault.exitCode, 0);
        QCOMPARE(byDefault.out,
                 runCli({"judge", "--policy", "ring", "--window", "300"}, input).out);
    }

    void theWindowOptionSetsTheWindow() {
        // W = 2: getHits(4) sees (2, 4], getHits(300) and getHits(301) see only the hit at 300.
        const auto result = runCli({"judge", "--window", "2"}, testdata("leetcode_example.in"));
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("[null,null,null,null,1,null,1,1]\n"));
    }

    void everyExactPolicyGivesTheSameAnswersOnRandomInputs() {
        for (std::uint32_t seed = 1; seed <= 6; ++seed) {
            const auto judge = randomJudge(seed, 300);
            for (const auto name : exactPolicyNames()) {
                const auto result =
                    runCli({"judge", "--policy", QString::fromLatin1(name.data(), name.size())},
                           judge.input);
                QCOMPARE(result.exitCode, 0);
                QVERIFY2(
                    result.out == judge.expected,
                    qPrintable(QStringLiteral("seed %1 policy %2").arg(seed).arg(name.data())));
            }
        }
    }

    void badInputExitsWith2AndNamesTheLine_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("mentions");
        const QStringList judge{"judge"};
        const QByteArray example = testdata("leetcode_example.in");
        QTest::newRow("empty input") << judge << QByteArray() << "line 1, column 1: empty input";
        QTest::newRow("blank input")
            << judge << QByteArray("\n \n") << "line 1, column 1: empty input";
        QTest::newRow("malformed json")
            << judge << QByteArray("[\"HitCounter\",\"hit\"\n[[],[1]]\n")
            << "line 1, column 20: invalid JSON";
        QTest::newRow("malformed arguments")
            << judge << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[1]\n")
            << "line 2, column 8: invalid JSON";
        QTest::newRow("unknown operation")
            << judge << QByteArray("[\"HitCounter\",\"reset\"]\n[[],[]]\n")
            << "line 1, column 15: unknown operation \"reset\"";
        QTest::newRow("missing timestamp")
            << judge << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[]]\n")
            << "line 2, column 5: argument list 2";
        QTest::newRow("non-numeric timestamp")
            << judge << QByteArray("[\"HitCounter\",\"getHits\"]\n[[],[\"now\"]]\n")
            << "line 2, column 5: argument list 2 (getHits)";
        QTest::newRow("negative timestamp")
            << judge << QByteArray("[\"HitCounter\",\"hit\"]\n[[],[-3]]\n") << "negative";
        QTest::newRow("unknown flag") << QStringList{"judge", "--bogus"} << example << "bogus";
        QTest::newRow("unknown policy")
            << QStringList{"judge", "--policy", "ringg"} << example << "unknown policy 'ringg'";
        QTest::newRow("window 0") << QStringList{"judge", "--window", "0"} << example << "--window";
        QTest::newRow("window text")
            << QStringList{"judge", "--window", "5m"} << example << "--window '5m'";
        QTest::newRow("window with a space")
            << QStringList{"judge", "--window", " 5"} << example << "--window ' 5'";
        QTest::newRow("window with plus")
            << QStringList{"judge", "--window", "+5"} << example << "--window '+5'";
        QTest::newRow("missing value") << QStringList{"judge", "--policy"} << example << "policy";
        QTest::newRow("unknown command") << QStringList{"jduge"} << example << "unknown command";
        QTest::newRow("no command") << QStringList{} << example << "missing COMMAND";
    }
    void badInputExitsWith2AndNamesTheLine() {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, input);
        QFETCH(QString, mentions);
        const auto result = runCli(arguments, input);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(QString::fromUtf8(result.err).contains(mentions), result.err.constData());
    }

    void controlBytesInTheInputAreEscapedInTheMessage() {
        const char text[] = "[\"HitCounter\",\0\x1b]0;owned\x07]\n[[],[1]]\n";
        const auto result = runCli({"judge"}, QByteArray(text, sizeof text - 1));
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("line 1, column 15: invalid JSON (unexpected '\\0')"),
                 result.err.constData());
        QVERIFY(!result.err.contains('\0'));
        QVERIFY(!result.err.contains('\x1b'));
    }

    void timestampsAreWrittenAsInATrace() {
        const auto floored =
            runCli({"judge"}, "[\"HitCounter\",\"hit\",\"getHits\"]\n[[],[1.0],[2.5]]\n");
        QCOMPARE(floored.exitCode, 0);
        QCOMPARE(floored.out, QByteArray("[null,null,1]\n"));
        const auto exponent = runCli({"judge"}, "[\"HitCounter\",\"hit\"]\n[[],[1e3]]\n");
        QCOMPARE(exponent.exitCode, 2);
        QVERIFY2(
            exponent.err.contains(
                "line 2, column 5: argument list 2 (hit) is [1e3]; the timestamp has an exponent"),
            exponent.err.constData());
    }

    void aFullStdoutExitsWith1() {
        const auto result = runCli({"judge"}, testdata("leetcode_example.in"), 30000, "/dev/full");
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("cannot write to stdout"), result.err.constData());
        const auto help = runCli({"judge", "--help"}, {}, 30000, "/dev/full");
        QCOMPARE(help.exitCode, 1);
    }

    void helpListsTheOptionsAndExitsZero() {
        const auto result = runCli({"judge", "--help"});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.contains("--policy"));
        QVERIFY(result.out.contains("--window"));
        const auto top = runCli({"--help"});
        QCOMPARE(top.exitCode, 0);
        QVERIFY(top.out.contains("judge"));
        QVERIFY(top.out.contains("replay"));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliJudge)
#include "tst_cli_judge.moc"
