// The GUI's command line: options that clash are an error naming both (exit 2 from the real
// `hitcounter`, offscreen), explicit options win over the remembered source (a real QSettings
// file), and numbers are printed as people write them.
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/gui_options.h"

using hitcounter::app::formatNumber;
using hitcounter::app::GuiOptions;
using hitcounter::app::parseGuiOptions;
using hitcounter::app::sourceSpecFromOptions;
using hitcounter::ui::SourceSpec;

namespace {

std::optional<GuiOptions> parse(QStringList args, QString* error) {
    args.prepend(QStringLiteral("hitcounter"));
    return parseGuiOptions(args, error);
}

struct Run {
    int exitCode = -1;
    QString errors;
};

// Runs the built GUI offscreen; a bad command line ends before any window opens.
Run runGui(const QStringList& args) {
    QProcess gui;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(HITCOUNTER_GUI), args);
    if (!gui.waitForFinished(20000)) {
        gui.kill();
        gui.waitForFinished();
        return {};
    }
    return {gui.exitStatus() == QProcess::NormalExit ? gui.exitCode() : -1,
            QString::fromUtf8(gui.readAllStandardError())};
}

// The remembered source, written to and read back from a real settings file.
SourceSpec remembered(const SourceSpec& spec, const QString& dir) {
    QSettings out(dir + QStringLiteral("/remembered.conf"), QSettings::IniFormat);
    spec.save(out);
    out.sync();
    QSettings in(dir + QStringLiteral("/remembered.conf"), QSettings::IniFormat);
    return SourceSpec::load(in);
}

}  // namespace

class TestGuiOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clashingOptionsAreAnErrorNamingBoth_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::newRow("replay and rate")
            << QStringList{"--replay", "t.csv", "--rate", "100"} << "--rate"
            << "--replay";
        QTest::newRow("follow and rate")
            << QStringList{"--follow", "a.log", "--rate", "5"} << "--rate"
            << "--follow";
        QTest::newRow("udp and rate")
            << QStringList{"--listen-udp", "127.0.0.1:8125", "--rate", "5"} << "--rate"
            << "--listen-udp";
        QTest::newRow("simulate and replay")
            << QStringList{"--simulate", "burst", "--replay", "t.csv"} << "--simulate"
            << "--replay";
        QTest::newRow("udp and tcp")
            << QStringList{"--listen-udp", "127.0.0.1:1", "--listen-tcp", "127.0.0.1:2"}
            << "--listen-udp"
            << "--listen-tcp";
        QTest::newRow("screenshot and bench")
            << QStringList{"--screenshot", "a.png", "--bench-frames", "3"} << "--screenshot"
            << "--bench-frames";
        QTest::newRow("teach and rate") << QStringList{"--teach", "--rate", "5"} << "--teach"
                                        << "--rate";
        QTest::newRow("teach and view") << QStringList{"--teach", "--view", "limits"} << "--teach"
                                        << "--view";
        QTest::newRow("after without screenshot") << QStringList{"--after", "3"} << "--after"
                                                  << "--screenshot";
        QTest::newRow("build without teach") << QStringList{"--build", "compare=>="} << "--build"
                                             << "--teach";
        QTest::newRow("build with a bad spec")
            << QStringList{"--teach", "--build", "compare=<"} << "--build"
            << "compare is > or >=";
    }
    void clashingOptionsAreAnErrorNamingBoth() {
        QFETCH(QStringList, args);
        QFETCH(QString, first);
        QFETCH(QString, second);
        QString error;
        QVERIFY(!parse(args, &error));
        QVERIFY2(error.contains(first) && error.contains(second), qPrintable(error));
        // The real program: exit 2, the same message, nothing started.
        const Run run = runGui(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(QStringLiteral("hitcounter: ") + error),
                 qPrintable(run.errors));
    }

    void compatibleOptionsParse_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("simulate at a rate") << QStringList{"--simulate", "burst", "--rate", "100"};
        QTest::newRow("rate alone") << QStringList{"--rate", "1e7"};
        QTest::newRow("replay, seek, state")
            << QStringList{"--replay", "t.csv", "--seek", "3", "--state-json", "o.json"};
        QTest::newRow("teach screenshot")
            << QStringList{"--teach", "--screenshot", "t.png", "--after", "1"};
        QTest::newRow("teach build at a size in dark")
            << QStringList{"--teach", "--lesson", "boundary", "--build", "compare=>=",
                           "--size",  "1280x720", "--theme",  "dark"};
        QTest::newRow("screenshot at a size")
            << QStringList{"--screenshot", "s.png", "--after", "2", "--size", "1280x720"};
    }
    void compatibleOptionsParse() {
        QFETCH(QStringList, args);
        QString error;
        QVERIFY2(parse(args, &error), qPrintable(error));
    }

    void aRateOutOfRangeIsEchoedAsWritten() {
        QString error;
        QVERIFY(!parse({QStringLiteral("--rate"), QStringLiteral("1e9")}, &error));
        QVERIFY2(error.contains(QStringLiteral("'1e9'")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("at most 10000000,")), qPrintable(error));
        QVERIFY2(!error.contains(QStringLiteral(".000000")), qPrintable(error));
        const Run run = runGui({QStringLiteral("--rate"), QStringLiteral("1e9")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(QStringLiteral("'1e9'")), qPrintable(run.errors));
        for (const char* bad : {"0", "-5", "nan", "inf", "fast"}) {
            QVERIFY2(!parse({QStringLiteral("--rate"), QString::fromLatin1(bad)}, &error), bad);
        }
    }

    void numbersPrintAsPeopleWriteThem() {
        QCOMPARE(formatNumber(1e9), QStringLiteral("1000000000"));
        QCOMPARE(formatNumber(1e7), QStringLiteral("10000000"));
        QCOMPARE(formatNumber(2.5), QStringLiteral("2.5"));
        QCOMPARE(formatNumber(0.1), QStringLiteral("0.1"));
    }

    void aSourceOnTheCommandLineDoesNotInheritTheRememberedOne() {
        QTemporaryDir dir;
        SourceSpec last;
        last.kind = SourceSpec::Kind::Simulator;
        last.pattern = hitcounter::TrafficPattern::Steady;
        last.rate = 1e7;
        last.keys = 5000;
        last.speed = 10;
        const SourceSpec memory = remembered(last, dir.path());
        QCOMPARE(memory.rate, 1e7);  // the settings file really holds the fast rate

        QString error;
        const auto burst = parse({QStringLiteral("--simulate"), QStringLiteral("burst")}, &error);
        QVERIFY(burst);
        const auto spec = sourceSpecFromOptions(*burst, memory, &error);
        QVERIFY(spec);
        QCOMPARE(spec->kind, SourceSpec::Kind::Simulator);
        QCOMPARE(spec->pattern, hitcounter::TrafficPattern::Burst);
        QCOMPARE(spec->rate, SourceSpec{}.rate);
        QCOMPARE(spec->keys, SourceSpec{}.keys);
        QCOMPARE(spec->speed, SourceSpec{}.speed);

        const auto rate = parse({QStringLiteral("--rate"), QStringLiteral("50")}, &error);
        const auto atRate = sourceSpecFromOptions(*rate, memory, &error);
        QVERIFY(atRate);
        QCOMPARE(atRate->rate, 50.0);
        QCOMPARE(atRate->pattern, SourceSpec{}.pattern);

        // No source option: the remembered source as it was.
        const auto none = parse({}, &error);
        QVERIFY(none);
        QCOMPARE(*sourceSpecFromOptions(*none, memory, &error), memory);
    }

    void aReplayOnTheCommandLineStartsAtNormalSpeedWithoutLoop() {
        QTemporaryDir dir;
        SourceSpec last;
        last.kind = SourceSpec::Kind::Replay;
        last.file = QStringLiteral("/old/trace.csv");
        last.loop = true;
        last.speed = 8;
        last.key = QStringLiteral("status");
        const SourceSpec memory = remembered(last, dir.path());
        QVERIFY(memory.loop);
        QString error;
        const auto options = parse({QStringLiteral("--replay"), QStringLiteral("new.csv")}, &error);
        QVERIFY(options);
        const auto spec = sourceSpecFromOptions(*options, memory, &error);
        QVERIFY(spec);
        QCOMPARE(spec->kind, SourceSpec::Kind::Replay);
        QCOMPARE(spec->file, QStringLiteral("new.csv"));
        QVERIFY(!spec->loop);
        QCOMPARE(spec->speed, 1.0);
        QCOMPARE(spec->key, QStringLiteral("path"));
    }

    void anUnknownPatternIsAnError() {
        QString error;
        const auto options =
            parse({QStringLiteral("--simulate"), QStringLiteral("sideways")}, &error);
        QVERIFY(options);
        QVERIFY(!sourceSpecFromOptions(*options, SourceSpec{}, &error));
        QVERIFY2(error.contains(QStringLiteral("'sideways'")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestGuiOptions)
#include "tst_gui_options.moc"
