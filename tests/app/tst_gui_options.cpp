// The GUI's command line: options that clash are an error naming both (exit 2 from the real
// `hitcounter`, offscreen), explicit options win over the remembered source (a real QSettings
// file), and numbers are printed as people write them.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/gui_options.h"
#include "core/io/trace_format.h"
#include "tests/io/special_files.h"
#include "tests/test_main.h"
#include "tests/ui/known_inputs.h"
#include "ui/common/settings_reader.h"

using hitcounter::app::formatNumber;
using hitcounter::app::GuiOptions;
using hitcounter::app::parseGuiOptions;
using hitcounter::app::sourceSpecFromOptions;
using hitcounter::ui::FleetSpec;
using hitcounter::ui::FollowSpec;
using hitcounter::ui::ListenerSpec;
using hitcounter::ui::ReplaySpec;
using hitcounter::ui::SimulatorSpec;
using hitcounter::ui::SourceSpec;

namespace {

std::optional<GuiOptions> parse(QStringList args, QString* error) {
    args.prepend(QStringLiteral("hitcounter"));
    return parseGuiOptions(args, error);
}

struct Run {
    int exitCode = -1;  // -1: crashed, or killed after 20 s
    QString errors;
    QString output;
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
            QString::fromUtf8(gui.readAllStandardError()),
            QString::fromUtf8(gui.readAllStandardOutput())};
}

// --replay FILE --seek T --state-json OUT: the run and the JSON written (null if none).
std::pair<Run, QJsonObject> stateAt(const QString& trace, const QString& seek, const QString& out) {
    const Run run = runGui({QStringLiteral("--replay"), trace, QStringLiteral("--seek"), seek,
                            QStringLiteral("--state-json"), out});
    QFile file(out);
    if (!file.open(QIODevice::ReadOnly)) {
        return {run, {}};
    }
    return {run, QJsonDocument::fromJson(file.readAll()).object()};
}

// The remembered source, written to and read back from a real settings file.
SourceSpec remembered(const SourceSpec& spec, const QString& dir) {
    QSettings out(dir + QStringLiteral("/remembered.conf"), QSettings::IniFormat);
    hitcounter::ui::saveSpec(spec, out);
    out.sync();
    QSettings in(dir + QStringLiteral("/remembered.conf"), QSettings::IniFormat);
    hitcounter::ui::SettingsReader reader(in);
    return hitcounter::ui::loadSpec(reader);
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
        QTest::newRow("graphite and udp")
            << QStringList{"--listen-udp", "127.0.0.1:1", "--listen-graphite", "127.0.0.1:2"}
            << "--listen-udp"
            << "--listen-graphite";
        QTest::newRow("graphite and rate")
            << QStringList{"--listen-graphite", "127.0.0.1:2003", "--rate", "5"} << "--rate"
            << "--listen-graphite";
        QTest::newRow("teach and graphite")
            << QStringList{"--teach", "--listen-graphite", "127.0.0.1:2003"} << "--teach"
            << "--listen-graphite";
        QTest::newRow("screenshot and bench")
            << QStringList{"--screenshot", "a.png", "--bench-frames", "3"} << "--screenshot"
            << "--bench-frames";
        QTest::newRow("teach and rate") << QStringList{"--teach", "--rate", "5"} << "--teach"
                                        << "--rate";
        QTest::newRow("teach and speed") << QStringList{"--teach", "--speed", "10"} << "--teach"
                                         << "--speed";
        QTest::newRow("teach and view") << QStringList{"--teach", "--view", "limits"} << "--teach"
                                        << "--view";
        QTest::newRow("redis and simulate")
            << QStringList{"--simulate", "burst", "--redis", "redis://127.0.0.1:6379"}
            << "--simulate"
            << "--redis";
        QTest::newRow("replay and redis")
            << QStringList{"--replay", "t.csv", "--redis", "redis://127.0.0.1:6379"} << "--replay"
            << "--redis";
        QTest::newRow("redis and rate")
            << QStringList{"--redis", "redis://127.0.0.1:6379", "--rate", "5"} << "--rate"
            << "--redis";
        QTest::newRow("teach and redis")
            << QStringList{"--teach", "--redis", "redis://127.0.0.1:6379"} << "--teach"
            << "--redis";
        QTest::newRow("after without screenshot") << QStringList{"--after", "3"} << "--after"
                                                  << "--screenshot";
        QTest::newRow("build without teach") << QStringList{"--build", "compare=>="} << "--build"
                                             << "--teach";
        QTest::newRow("build with a bad spec")
            << QStringList{"--teach", "--build", "compare=<"} << "--build"
            << "compare is > or >=";
        QTest::newRow("filter without a log") << QStringList{"--filter", "status=5xx"} << "--filter"
                                              << "--replay FILE";
        QTest::newRow("filter that does not parse")
            << QStringList{"--replay", "t.log", "--filter", "status=5xx and"}
            << "--filter 'status=5xx and': column 15"
            << "expected a field name (status, method, path, vhost, client, name or tag), "
               "found the end";
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
    void aRedisUrlChoosesTheFleetView() {
        QString error;
        const auto options = parse({QStringLiteral("--redis"), QStringLiteral("redis://h:7000/2"),
                                    QStringLiteral("--theme"), QStringLiteral("dark")},
                                   &error);
        QVERIFY2(options, qPrintable(error));
        SourceSpec simulator;
        const auto spec = sourceSpecFromOptions(*options, simulator, &error);
        QVERIFY(spec);
        QVERIFY(std::holds_alternative<FleetSpec>(*spec));
        QCOMPARE(std::get<FleetSpec>(*spec).redisUrl, QStringLiteral("redis://h:7000/2"));
        // Remembered across runs like any source.
        QTemporaryDir dir;
        QCOMPARE(remembered(*spec, dir.path()), *spec);
        // A malformed URL: exit 2 naming the option and the problem.
        QVERIFY(!parse({QStringLiteral("--redis"), QStringLiteral("http://h:1")}, &error));
        QVERIFY2(error.startsWith(QStringLiteral("--redis: ")), qPrintable(error));
        const Run run = runGui({QStringLiteral("--redis"), QStringLiteral("redis://h")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(QStringLiteral("hitcounter: --redis: ")),
                 qPrintable(run.errors));
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
        SimulatorSpec last;
        last.pattern = hitcounter::TrafficPattern::Steady;
        last.rate = 1e7;
        last.keys = 5000;
        last.speed = 10;
        const SourceSpec memory = remembered(last, dir.path());
        // The settings file really holds the fast rate.
        QCOMPARE(std::get<SimulatorSpec>(memory).rate, 1e7);

        QString error;
        const auto burst = parse({QStringLiteral("--simulate"), QStringLiteral("burst")}, &error);
        QVERIFY(burst);
        const auto spec = sourceSpecFromOptions(*burst, memory, &error);
        QVERIFY(spec);
        const auto& burstSpec = std::get<SimulatorSpec>(*spec);
        QCOMPARE(burstSpec.pattern, hitcounter::TrafficPattern::Burst);
        QCOMPARE(burstSpec.rate, SimulatorSpec{}.rate);
        QCOMPARE(burstSpec.keys, SimulatorSpec{}.keys);
        QCOMPARE(burstSpec.speed, SimulatorSpec{}.speed);

        const auto rate = parse({QStringLiteral("--rate"), QStringLiteral("50")}, &error);
        const auto atRate = sourceSpecFromOptions(*rate, memory, &error);
        QVERIFY(atRate);
        QCOMPARE(std::get<SimulatorSpec>(*atRate).rate, 50.0);
        QCOMPARE(std::get<SimulatorSpec>(*atRate).pattern, SimulatorSpec{}.pattern);

        // No source option: the remembered source as it was.
        const auto none = parse({}, &error);
        QVERIFY(none);
        QCOMPARE(*sourceSpecFromOptions(*none, memory, &error), memory);
    }

    void aFilterGoesToTheReplayOrFollowSpec() {
        QString error;
        const auto replay = parse({QStringLiteral("--replay"), QStringLiteral("a.log"),
                                   QStringLiteral("--filter"), QStringLiteral("status=404")},
                                  &error);
        QVERIFY2(replay, qPrintable(error));
        const auto replaySpec = sourceSpecFromOptions(*replay, SourceSpec{}, &error);
        QCOMPARE(std::get<ReplaySpec>(*replaySpec).filter, QStringLiteral("status=404"));
        const auto follow = parse({QStringLiteral("--follow"), QStringLiteral("a.log"),
                                   QStringLiteral("--filter"), QStringLiteral("path~'^/api/'")},
                                  &error);
        QVERIFY2(follow, qPrintable(error));
        const auto followSpec = sourceSpecFromOptions(*follow, SourceSpec{}, &error);
        QCOMPARE(std::get<FollowSpec>(*followSpec).filter, QStringLiteral("path~'^/api/'"));
    }

    void aReplayOnTheCommandLineStartsAtNormalSpeedWithoutLoop() {
        QTemporaryDir dir;
        ReplaySpec last;
        last.file = QStringLiteral("/old/trace.csv");
        last.loop = true;
        last.speed = 8;
        last.key = QStringLiteral("status");
        const SourceSpec memory = remembered(last, dir.path());
        QVERIFY(std::get<ReplaySpec>(memory).loop);
        QString error;
        const auto options = parse({QStringLiteral("--replay"), QStringLiteral("new.csv")}, &error);
        QVERIFY(options);
        const auto spec = sourceSpecFromOptions(*options, memory, &error);
        QVERIFY(spec);
        const auto& replay = std::get<ReplaySpec>(*spec);
        QCOMPARE(replay.file, QStringLiteral("new.csv"));
        QVERIFY(!replay.loop);
        QCOMPARE(replay.speed, 1.0);
        QCOMPARE(replay.key, QStringLiteral("path"));
    }

    void speedSetsTheSimulatorsOrTheReplaysSpeed() {
        QString error;
        const auto simulated = parse(
            {QStringLiteral("--simulate"), QStringLiteral("poisson"), QStringLiteral("--rate"),
             QStringLiteral("1e7"), QStringLiteral("--speed"), QStringLiteral("1000")},
            &error);
        QVERIFY2(simulated, qPrintable(error));
        const auto spec = sourceSpecFromOptions(*simulated, SourceSpec{}, &error);
        QVERIFY(spec);
        QCOMPARE(std::get<SimulatorSpec>(*spec).speed, 1000.0);
        QCOMPARE(std::get<SimulatorSpec>(*spec).rate, 1e7);
        const auto replayed = parse({QStringLiteral("--replay"), QStringLiteral("t.csv"),
                                     QStringLiteral("--speed"), QStringLiteral("0.5")},
                                    &error);
        QVERIFY2(replayed, qPrintable(error));
        QCOMPARE(
            std::get<ReplaySpec>(*sourceSpecFromOptions(*replayed, SourceSpec{}, &error)).speed,
            0.5);

        // A speed the sources panel does not offer, or one without a source that has a speed:
        // exit 2 with the option named.
        for (const QStringList& args :
             {QStringList{"--simulate", "steady", "--speed", "3"},
              QStringList{"--simulate", "steady", "--speed", "fast"},
              QStringList{"--listen-udp", "127.0.0.1:8125", "--speed", "10"},
              QStringList{"--speed", "10"}}) {
            QVERIFY2(!parse(args, &error), qPrintable(args.join(QLatin1Char(' '))));
            QVERIFY2(error.startsWith(QStringLiteral("--speed")), qPrintable(error));
        }
        const Run run = runGui({QStringLiteral("--speed"), QStringLiteral("10")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(QStringLiteral("hitcounter: --speed needs")),
                 qPrintable(run.errors));
    }

    void listenGraphiteStartsTheGraphiteListener() {
        QString error;
        const auto options =
            parse({QStringLiteral("--listen-graphite"), QStringLiteral("127.0.0.1:2003")}, &error);
        QVERIFY2(options, qPrintable(error));
        SimulatorSpec last;
        last.rate = 1e7;
        const auto spec = sourceSpecFromOptions(*options, last, &error);
        QVERIFY(spec);
        QCOMPARE(hitcounter::ui::kindName(*spec), QStringLiteral("graphite-tcp"));
        QCOMPARE(std::get<ListenerSpec>(*spec).protocol, ListenerSpec::Protocol::GraphiteTcp);
        QCOMPARE(std::get<ListenerSpec>(*spec).address, QStringLiteral("127.0.0.1:2003"));
    }

    void aBadSizeExitsTwoWithTheValueTyped_data() {
        QTest::addColumn<QString>("size");
        QTest::newRow("no x") << "1280";
        QTest::newRow("letters") << "wide x720";
        QTest::newRow("too small") << "100x100";
        QTest::newRow("too large") << "10000x720";
        QTest::newRow("negative") << "-1280x720";
    }
    void aBadSizeExitsTwoWithTheValueTyped() {
        QFETCH(QString, size);
        QString error;
        QVERIFY(!parse({QStringLiteral("--size"), size}, &error));
        QVERIFY2(error.contains(QStringLiteral("--size")) &&
                     error.contains(QStringLiteral("'%1'").arg(size)),
                 qPrintable(error));
        const Run run = runGui({QStringLiteral("--size"), size, QStringLiteral("--screenshot"),
                                QStringLiteral("never.png")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(QStringLiteral("hitcounter: ") + error),
                 qPrintable(run.errors));
    }

    // Past the trace's end the replay stands at its end: the JSON says that second, as the
    // replay bar does, with the counts there (docs/gui.md).
    void aSeekPastTheEndWritesTheTracesEnd() {
        QTemporaryDir dir;
        const QString trace =
            hitcounter::testing::writeOneHitTrace(dir, QStringLiteral("t.csv"), 1, 400);
        const auto [endRun, end] =
            stateAt(trace, QStringLiteral("400"), dir.filePath(QStringLiteral("end.json")));
        QVERIFY2(endRun.exitCode == 0, qPrintable(endRun.errors));
        QCOMPARE(end.value(QStringLiteral("time")).toInteger(), 400);
        QCOMPARE(end.value(QStringLiteral("total")).toInteger(), 400);
        const auto [pastRun, past] =
            stateAt(trace, QStringLiteral("99999"), dir.filePath(QStringLiteral("past.json")));
        QVERIFY2(pastRun.exitCode == 0, qPrintable(pastRun.errors));
        QCOMPARE(past.value(QStringLiteral("time")).toInteger(), 400);
        QJsonObject endScreen = end;
        QJsonObject pastScreen = past;
        QVERIFY(endScreen.take(QStringLiteral("seek_ms")).isDouble());  // each seek's own time
        QVERIFY(pastScreen.take(QStringLiteral("seek_ms")).isDouble());
        QCOMPARE(pastScreen, endScreen);
    }

    // A trace without a hit (a header only, or no byte at all) exits 2 at once, saying so.
    void anEmptyTraceExitsTwoNamingTheFile_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("header only") << QByteArray("timestamp,key,visitor\n");
        QTest::newRow("zero bytes") << QByteArray();
        QTest::newRow("only bad rows") << QByteArray("timestamp,key\nabc,k\n");
    }
    void anEmptyTraceExitsTwoNamingTheFile() {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("empty.csv"));
        QFile file(trace);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(content), content.size());
        file.close();
        const QString out = dir.filePath(QStringLiteral("e.json"));
        const auto [run, state] = stateAt(trace, QStringLiteral("10"), out);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(QStringLiteral("hitcounter: ") + trace + ": "),
                 qPrintable(run.errors));
        QVERIFY2(run.errors.contains(QStringLiteral("no hits to replay")), qPrintable(run.errors));
        QVERIFY(!QFile::exists(out));
    }

    // A trace that cannot be opened: the message names the file and why, not "hitcounter: ".
    void aMissingTraceExitsTwoNamingTheFileAndWhy() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("missing.csv"));
        const auto [run, state] =
            stateAt(trace, QStringLiteral("1"), dir.filePath(QStringLiteral("n.json")));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(trace), qPrintable(run.errors));
        QVERIFY2(run.errors.contains(QStringLiteral("No such file")), qPrintable(run.errors));
    }

    // Issue 30 item 9: --replay or --follow of a FIFO blocked in open() before the window
    // (killed after 20 s), /dev/zero was read forever. Refused at once, naming what it is.
    void aFifoOrADeviceExitsTwoNamingWhatItIs_data() {
        hitcounter::testing::addSpecialFileRows(QStringLiteral("--replay"),
                                                QStringLiteral("--follow"));
    }
    void aFifoOrADeviceExitsTwoNamingWhatItIs() {
        QFETCH(QString, source);
        QFETCH(bool, fifo);
        QFETCH(QString, what);
        QTemporaryDir dir;
        const QString path = hitcounter::testing::specialFile(dir, fifo);
        QVERIFY(!path.isEmpty());
        const QString out = dir.filePath(QStringLiteral("s.json"));
        const Run run = runGui({source, path, QStringLiteral("--state-json"), out});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(path + QStringLiteral("': ") + what), qPrintable(run.errors));
        QVERIFY(!QFile::exists(out));
    }

    // --help says what the trace reader accepts: a header naming a timestamp column, the
    // others optional (core/io/trace_reader.cpp), not "(time,key,visitor)".
    void theHelpDescribesTheTraceHeaderTheReaderAccepts() {
        const Run run = runGui({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        const QString help = run.output.simplified();
        const qsizetype at = help.indexOf(QStringLiteral("--replay <FILE>"));
        QVERIFY2(at >= 0, qPrintable(help));
        const QString replay = help.mid(at, help.indexOf(QStringLiteral("--follow"), at) - at);
        QVERIFY2(!replay.contains(QStringLiteral("(time,")), qPrintable(replay));
        for (std::string_view column :
             {hitcounter::kTraceTimestampColumn, hitcounter::kTraceKeyColumn,
              hitcounter::kTraceVisitorColumn, hitcounter::kTraceCountColumn}) {
            QVERIFY2(replay.contains(QString::fromUtf8(column.data(), qsizetype(column.size()))),
                     qPrintable(replay));
        }
        QVERIFY2(replay.contains(QStringLiteral("timestamp required")), qPrintable(replay));
    }

    // Issue 23 item 5: --time-zone utc|local|log; anything else exits 2 echoing the value.
    void aTimeZoneIsChosenOnTheCommandLine() {
        QString error;
        for (const char* zone : {"utc", "local", "log"}) {
            const auto options =
                parse({QStringLiteral("--time-zone"), QString::fromLatin1(zone)}, &error);
            QVERIFY2(options, qPrintable(error));
            QCOMPARE(options->timeZone, QString::fromLatin1(zone));
        }
        QVERIFY(!parse({QStringLiteral("--time-zone"), QStringLiteral("mars")}, &error));
        QVERIFY2(error.contains(QStringLiteral("'mars'")) &&
                     error.contains(QStringLiteral("utc, local or log")),
                 qPrintable(error));
        const Run run = runGui({QStringLiteral("--time-zone"), QStringLiteral("mars")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(QStringLiteral("--time-zone")), qPrintable(run.errors));
    }

    // The state JSON with every source: --after S for a live one, --seek T for a replay;
    // --seek without --replay, and --seek with --after, are errors.
    void theStateJsonTakesAfterOrSeek() {
        QString error;
        for (const QStringList& args :
             {QStringList{"--simulate", "steady", "--state-json", "o.json", "--after", "2"},
              QStringList{"--listen-udp", "127.0.0.1:0", "--state-json", "o.json"},
              QStringList{"--replay", "t.csv", "--state-json", "o.json", "--after", "1"},
              QStringList{"--replay", "t.csv", "--state-json", "o.json", "--seek", "5"}}) {
            const auto options = parse(args, &error);
            QVERIFY2(options, qPrintable(args.join(' ') + QStringLiteral(": ") + error));
        }
        QVERIFY(!parse({QStringLiteral("--seek"), QStringLiteral("5")}, &error));
        QVERIFY2(error.contains(QStringLiteral("--seek needs --replay")), qPrintable(error));
        // Several seeks, in the order given; a list with a bad element names that element.
        const auto several = parse({QStringLiteral("--replay"), QStringLiteral("t.csv"),
                                    QStringLiteral("--seek"), QStringLiteral("50,12,7000")},
                                   &error);
        QVERIFY2(several, qPrintable(error));
        QCOMPARE(several->seeks, (std::vector<std::int64_t>{50, 12, 7000}));
        for (const QString& bad : {QStringLiteral("50,,12"), QStringLiteral("50,x"),
                                   QStringLiteral("50,-3"), QStringLiteral("50,")}) {
            QVERIFY2(!parse({QStringLiteral("--replay"), QStringLiteral("t.csv"),
                             QStringLiteral("--seek"), bad},
                            &error),
                     qPrintable(bad));
            const QString element = bad.section(QLatin1Char(','), 1, 1);
            QVERIFY2(error.contains(QStringLiteral("--seek")) &&
                         error.contains(QStringLiteral("got '%1'").arg(element)),
                     qPrintable(error));
        }
        QVERIFY(
            !parse({QStringLiteral("--replay"), QStringLiteral("t.csv"), QStringLiteral("--seek"),
                    QStringLiteral("5"), QStringLiteral("--after"), QStringLiteral("1"),
                    QStringLiteral("--state-json"), QStringLiteral("o.json")},
                   &error));
        QVERIFY2(
            error.contains(QStringLiteral("--seek")) && error.contains(QStringLiteral("--after")),
            qPrintable(error));
    }

    void aSizeParsesIntoWidthAndHeight() {
        QString error;
        const auto options = parse({QStringLiteral("--size"), QStringLiteral("1024x768")}, &error);
        QVERIFY2(options, qPrintable(error));
        QCOMPARE(options->width, 1024);
        QCOMPARE(options->height, 768);
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

HITCOUNTER_TEST_GUILESS_MAIN(TestGuiOptions)
#include "tst_gui_options.moc"
