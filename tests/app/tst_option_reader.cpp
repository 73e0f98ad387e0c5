// OptionReader (app/common/option_reader.h): the option checks both apps share.
#include <QTest>

#include "app/common/option_reader.h"
#include "tests/test_main.h"

using namespace hitcounter::app;

namespace {

struct Parsed {
    QCommandLineOption rate{QStringLiteral("rate"), QStringLiteral("r"), QStringLiteral("R")};
    QCommandLineOption count{QStringLiteral("count"), QStringLiteral("c"), QStringLiteral("N")};
    QCommandLineOption theme{QStringLiteral("theme"), QStringLiteral("t"), QStringLiteral("T")};
    QCommandLineOption replay{QStringLiteral("replay"), QStringLiteral("f"), QStringLiteral("F")};
    QCommandLineOption follow{QStringLiteral("follow"), QStringLiteral("f"), QStringLiteral("F")};
    QCommandLineParser parser;

    explicit Parsed(QStringList arguments) {
        parser.addOptions({rate, count, theme, replay, follow});
        arguments.prepend(QStringLiteral("app"));
        QVERIFY(parser.parse(arguments));
    }
};

}  // namespace

class TestOptionReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void plainNumbersRefuseExponentsSignsAndSpaces() {
        QCOMPARE(plainWholeNumber(QStringLiteral("-12")), std::optional<long long>(-12));
        QCOMPARE(plainNumber(QStringLiteral("0.5")), std::optional<double>(0.5));
        for (const char* bad : {"1e3", "+1", " 1", "0x10", "inf", "nan", "1.", ""}) {
            QVERIFY2(!plainNumber(QString::fromLatin1(bad)), bad);
        }
        QVERIFY(!plainWholeNumber(QStringLiteral("1.5")));
    }

    void aValueOutsideItsRangeIsNamedWithTheTemplate() {
        Parsed p({"--count", "0"});
        OptionReader r(p.parser);
        QVERIFY(!r.wholeNumber(p.count, {1, 10}, QStringLiteral("{option} '{value}' is bad")));
        QCOMPARE(r.error(), QStringLiteral("--count '0' is bad"));
        QVERIFY(!r.ok());
    }

    void theQtSyntaxAcceptsExponentsThePlainOneDoesNot() {
        Parsed p({"--rate", "1e3"});
        OptionReader plain(p.parser);
        QVERIFY(
            !plain.number(p.rate, {.min = 0, .max = 1e6, .aboveMin = true}, QStringLiteral("x")));
        OptionReader qt(p.parser);
        QCOMPARE(qt.number(p.rate, {.min = 0, .max = 1e6, .aboveMin = true}, QStringLiteral("x"),
                           Syntax::Qt),
                 std::optional<double>(1000.0));
        QVERIFY(qt.ok());
    }

    void aboveMinExcludesTheMinimum() {
        Parsed p({"--rate", "0"});
        OptionReader r(p.parser);
        QVERIFY(!r.number(p.rate, {.min = 0, .max = 1, .aboveMin = true}, QStringLiteral("x")));
        OptionReader inclusive(p.parser);
        QCOMPARE(inclusive.number(p.rate, {.min = 0, .max = 1}, QStringLiteral("x")),
                 std::optional<double>(0.0));
    }

    void choicesClashesAndNeedsKeepTheFirstProblem() {
        Parsed p({"--theme", "blue", "--replay", "a", "--follow", "b"});
        OptionReader r(p.parser);
        QVERIFY(!r.choice(p.theme, {QStringLiteral("light"), QStringLiteral("dark")},
                          QStringLiteral("{option}: got '{value}'")));
        QVERIFY(!r.atMostOne({&p.replay, &p.follow}, QStringLiteral("{first} and {second}")));
        QVERIFY(!r.needs(p.replay, false, QStringLiteral("{option} needs more")));
        QCOMPARE(r.error(), QStringLiteral("--theme: got 'blue'"));
        QCOMPARE(r.given({&p.follow, &p.rate, &p.replay}),
                 QStringList({QStringLiteral("--follow"), QStringLiteral("--replay")}));
        OptionReader second(p.parser);
        QVERIFY(!second.atMostOne({&p.replay, &p.follow}, QStringLiteral("{first} and {second}")));
        QCOMPARE(second.error(), QStringLiteral("--replay and --follow"));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestOptionReader)
#include "tst_option_reader.moc"
