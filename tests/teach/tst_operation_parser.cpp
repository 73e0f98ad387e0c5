// The lesson parser: both formats, and errors that name the line and column.
#include <QFile>
#include <QTest>

#include "core/teach/operation_parser.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::teach;

namespace {

std::vector<Operation> parseOk(const std::string& text) {
    ParseResult result = parseOperations(text);
    if (auto* error = std::get_if<TextProblem>(&result)) {
        qWarning("unexpected error: %s", error->describe().c_str());
        return {};
    }
    return std::get<std::vector<Operation>>(result);
}

}  // namespace

class TestOperationParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void plainFormatReadsHitsRepeatsAndQueries() {
        const auto ops = parseOk("hit 5\n  getHits 301 # a query\nHIT 7 x40\n");
        QCOMPARE(ops.size(), std::size_t{3});
        QCOMPARE(ops[0].kind, Operation::Kind::Hit);
        QCOMPARE(ops[0].second, 5);
        QCOMPARE(ops[0].repeat, 1u);
        QCOMPARE(ops[1].kind, Operation::Kind::GetHits);
        QCOMPARE(ops[1].second, 301);
        QCOMPARE(ops[1].line, 2);
        QCOMPARE(ops[1].column, 3);
        QCOMPARE(ops[2].second, 7);
        QCOMPARE(ops[2].repeat, 40u);
    }

    void semicolonsSeparateOperationsOnOneLine() {
        const auto ops = parseOk("hit 1; hit 2 ;getHits 3");
        QCOMPARE(ops.size(), std::size_t{3});
        QCOMPARE(ops[1].second, 2);
        QCOMPARE(ops[1].column, 8);
        QCOMPARE(ops[2].column, 15);
    }

    void emptyTextAndCommentsGiveNoOperations() {
        QVERIFY(parseOk("").empty());
        QVERIFY(parseOk("# only a comment\n\n   \n").empty());
    }

    void formatRoundTrips() {
        const auto ops = parseOk("hit 5\ngetHits 301\nhit 7 x40\n");
        QCOMPARE(formatOperations(ops), std::string("hit 5\ngetHits 301\nhit 7 x40\n"));
    }

    void leetCodeExampleFileParses() {
        QFile file(qEnvironmentVariable("HITCOUNTER_TESTDATA") + "/leetcode_example.in");
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const auto ops = parseOk(file.readAll().toStdString());
        QCOMPARE(ops.size(), std::size_t{7});
        const std::vector<Timestamp> seconds{1, 2, 3, 4, 300, 300, 301};
        const std::vector<bool> isQuery{false, false, false, true, false, true, true};
        for (std::size_t i = 0; i < ops.size(); ++i) {
            QCOMPARE(ops[i].second, seconds[i]);
            QCOMPARE(ops[i].kind == Operation::Kind::GetHits, bool(isQuery[i]));
        }
    }

    void errorsNameLineAndColumn_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown keyword") << "hit 5\n  hti 3" << 2 << 3 << "unknown operation 'hti'";
        QTest::newRow("missing second") << "hit" << 1 << 4 << "expected a second";
        QTest::newRow("letters") << "getHits abc" << 1 << 9 << "'abc' is not a second";
        QTest::newRow("negative") << "hit 1\nhit -4" << 2 << 5 << "negative";
        QTest::newRow("too large") << "hit 99999999999999999999" << 1 << 5 << "not a second";
        QTest::newRow("zero repeat") << "hit 5 x0" << 1 << 7 << "repeat count";
        QTest::newRow("huge repeat") << "hit 5 x5000" << 1 << 7 << "repeat count";
        QTest::newRow("repeat on query") << "getHits 3 x2" << 1 << 11 << "no repeat";
        QTest::newRow("extra token") << "hit 1; hit 5 6" << 1 << 14 << "unexpected '6'";
        QTest::newRow("lc no constructor") << "[\"hit\"]\n[[1]]" << 1 << 2 << "HitCounter";
        QTest::newRow("lc length")
            << "[\"HitCounter\",\"hit\"]\n[[]]" << 2 << 4 << "1 argument lists for 2 operations";
        QTest::newRow("lc unknown call")
            << "[\"HitCounter\",\"hits\"]\n[[],[1]]" << 1 << 15 << "unknown operation \"hits\"";
        QTest::newRow("lc two args")
            << "[\"HitCounter\",\"hit\"]\n[[],[1,2]]" << 2 << 5 << "expected [timestamp]";
        QTest::newRow("lc missing comma")
            << "[\"HitCounter\" \"hit\"]\n[[],[1]]" << 1 << 15 << "expected ',' or ']'";
        QTest::newRow("lc bad number")
            << "[\"HitCounter\",\"hit\"]\n[[],[x]]" << 2 << 6 << "invalid JSON (unexpected 'x')";
        QTest::newRow("lc unterminated") << "[\"HitCounter\n[[]]" << 1 << 13 << "the string to end";
        QTest::newRow("lc trailing")
            << "[\"HitCounter\"]\n[[]]\nhit 4" << 3 << 1 << "unexpected text";
    }

    void leetCodeArraysMaySpanLinesAndNameTheirPlaces() {
        const auto ops = parseOk("[\"HitCounter\",\n \"hit\", \"getHits\"]\n[[],\n[5], [6.5]]");
        QCOMPARE(ops.size(), std::size_t{2});
        QCOMPARE(ops[0].line, 2);
        QCOMPARE(ops[0].column, 2);
        QCOMPARE(ops[0].second, 5);
        QCOMPARE(ops[1].kind, Operation::Kind::GetHits);
        QCOMPARE(ops[1].second, 6);
        const ParseResult tooLate = parseOperations("[\"HitCounter\",\"hit\"]\n[[],[" +
                                                    std::to_string(kMaxSecond + 1) + "]]");
        const auto* error = std::get_if<TextProblem>(&tooLate);
        QVERIFY2(error != nullptr, "expected a parse error");
        QCOMPARE(error->line, 2);
        QCOMPARE(error->column, 5);
        QVERIFY2(error->message.find("too large") != std::string::npos, error->message.c_str());
    }

    void errorsNameLineAndColumn() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, mentions);
        const ParseResult result = parseOperations(text.toStdString());
        const auto* error = std::get_if<TextProblem>(&result);
        QVERIFY2(error != nullptr, "expected a parse error");
        QCOMPARE(error->line, line);
        QCOMPARE(error->column, column);
        QVERIFY2(QString::fromStdString(error->message).contains(mentions), error->message.c_str());
        QVERIFY(QString::fromStdString(error->describe())
                    .startsWith(QStringLiteral("line %1, column %2: ").arg(line).arg(column)));
    }

    void limitsAreErrorsAtTheOperationThatCrossesThem() {
        std::string many;
        for (std::size_t i = 0; i <= kMaxOperations; ++i) {
            many += "hit 1\n";
        }
        ParseResult result = parseOperations(many);
        auto* error = std::get_if<TextProblem>(&result);
        QVERIFY(error != nullptr);
        QCOMPARE(error->line, int(kMaxOperations) + 1);

        std::string heavy;
        for (Count total = 0; total <= kMaxTotalHits; total += kMaxRepeat) {
            heavy += "hit 2 x" + std::to_string(kMaxRepeat) + "\n";
        }
        result = parseOperations(heavy);
        error = std::get_if<TextProblem>(&result);
        QVERIFY(error != nullptr);
        QCOMPARE(error->line, int(kMaxTotalHits / kMaxRepeat) + 1);
        QVERIFY(error->message.find("too many hits") != std::string::npos);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestOperationParser)
#include "tst_operation_parser.moc"
