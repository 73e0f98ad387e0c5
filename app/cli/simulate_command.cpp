// hitcounter-cli simulate: the simulator live on a worker thread, the window count printed
// once per (wall) second, optionally recorded to a trace.
#include <QFile>
#include <QJsonDocument>
#include <QTextStream>
#include <chrono>
#include <cstdio>
#include <memory>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/redis_cli.h"
#include "app/cli/stop_signals.h"
#include "app/cli/traffic_cli_options.h"
#include "core/sources/recording_source.h"
#include "core/sources/simulator_source.h"
#include "core/time/wall_clock.h"

namespace hitcounter::cli {

namespace {

using namespace std::chrono_literals;

// --speed: a number in [0.1, 1000] or "max" (as fast as possible).
std::optional<double> speedFrom(const QCommandLineParser& parser, const QCommandLineOption& speed) {
    if (parser.value(speed) == QLatin1String("max"))
        return VirtualClock::kAsFastAsPossible;
    return numberFrom(parser, speed, VirtualClock::kMinSpeed, VirtualClock::kMaxSpeed);
}

}  // namespace

int runSimulate(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs the traffic simulator live (same traffic as gen for the same options) and prints "
        "'time,count' once per second: the simulated second and the hits in the window ending "
        "there; a last line when it ends (after --duration, or on SIGINT/SIGTERM)."));
    const TrafficCliOptions traffic;
    const QCommandLineOption speed(
        QStringLiteral("speed"),
        QStringLiteral("Simulated seconds per real second, 0.1 to 1000, or max (default 1)."),
        QStringLiteral("X"), QStringLiteral("1"));
    const QCommandLineOption policy = policyOption(false);
    const QCommandLineOption window = windowOption();
    const QCommandLineOption record(
        QStringLiteral("record"),
        QStringLiteral("Record the hits to trace FILE (FILE.partial until the run ends)."),
        QStringLiteral("FILE"));
    const RedisCliOptions fleetOptions;
    parser.addOptions(traffic.all() << speed << policy << window << record << fleetOptions.all());
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("simulate takes no arguments besides options; got '%1'")
                       .arg(parser.positionalArguments().first()));
        return kExitBadInput;
    }
    const auto values = trafficValuesFrom(parser, traffic, QStringLiteral("simulate"), false);
    const auto pace = speedFrom(parser, speed);
    const auto policies = policiesFrom(parser, policy, false);
    const auto counterOptions = counterOptionsFrom(parser, window);
    if (!values || !pace || !policies || !counterOptions)
        return kExitBadInput;

    WallClock wall;
    const SimulatorOptions options{
        .traffic = values->traffic,
        .start = values->start,
        .duration =
            values->seconds ? std::optional(std::chrono::seconds(*values->seconds)) : std::nullopt,
        .speed = *pace};
    auto simulator = std::make_unique<SimulatorSource>(wall, options);
    SimulatorSource& sim = *simulator;
    std::unique_ptr<Source> source = std::move(simulator);
    if (parser.isSet(record))
        source = std::make_unique<RecordingSource>(
            std::move(source), QFile::encodeName(parser.value(record)).toStdString(), wall);

    const sigset_t stopSignals = blockStopSignals();  // before any worker thread starts
    const FleetSink fleet = startFleetSink(parser, fleetOptions);
    if (fleet.exit)
        return *fleet.exit;
    BatchQueue queue(4096);
    try {
        source->start(queue);
    } catch (const SourceError& e) {
        printError(QString::fromStdString(e.what()));
        return kExitBadInput;
    }
    printError(QStringLiteral("running %1").arg(QString::fromStdString(source->describe())));

    auto counter = makeCounter(policies->front(), *counterOptions);
    const auto consume = [&](const HitBatch& batch) {
        for (const HitEvent& e : batch)
            counter->hit(e.time, e.count);
        if (fleet.sink)
            fleet.sink->add(batch);
    };
    QTextStream out(stdout);
    const auto print = [&](Timestamp t) {
        out << t << ',' << counter->count(t) << '\n';
        out.flush();
    };
    out << "time,count\n";
    auto nextPrint = wall.time() + 1s;
    // A stdout that fails (a closed pipe, a full disk) ends the run like a stop signal.
    while (!stopSignalArrived(stopSignals) && !std::ferror(stdout)) {
        const bool ended = !source->running();
        if (auto batch = queue.popFor(20ms))
            consume(*batch);
        else if (ended)
            break;
        if (wall.time() >= nextPrint) {
            print(sim.now());
            nextPrint = wall.time() + 1s;
        }
    }
    source->stop();
    for (const HitBatch& batch : queue.drain())
        consume(batch);
    print(sim.position() - 1);

    out.flush();
    if (fleet.sink)
        printError(
            QStringLiteral("redis: %1")
                .arg(QString::fromUtf8(
                    QJsonDocument(stopFleetSink(*fleet.sink)).toJson(QJsonDocument::Compact))));
    const SourceStats stats = source->stats();
    printError(QStringLiteral("%1 hits, %2 late, %3 dropped")
                   .arg(stats.hits)
                   .arg(stats.lateHits)
                   .arg(stats.dropped));
    if (auto* recording = dynamic_cast<RecordingSource*>(source.get())) {
        const RecordingStatus status = recording->recording();
        if (!status.error.empty()) {
            printError(QString::fromStdString(status.error));
            return checkedStdout(kExitFailure);
        }
        printError(QStringLiteral("recorded %1 hits to %2")
                       .arg(status.hits)
                       .arg(QString::fromStdString(status.file.string())));
    }
    return checkedStdout();
}

}  // namespace hitcounter::cli
