// hitcounter-cli simulate: the simulator live on a worker thread, the window count printed
// once per (wall) second, optionally recorded to a trace.
#include <QFile>
#include <QJsonDocument>
#include <QTextStream>
#include <chrono>
#include <cstdio>
#include <memory>
#include <variant>

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

// Every option of `simulate`, added to one parser.
struct SimulateCliOptions {
    TrafficCliOptions traffic;
    QCommandLineOption speed{
        QStringLiteral("speed"),
        QStringLiteral("Simulated seconds per real second, 0.1 to 1000, or max (default 1)."),
        QStringLiteral("X"), QStringLiteral("1")};
    QCommandLineOption policy = policyOption(false);
    QCommandLineOption window = windowOption();
    QCommandLineOption record{
        QStringLiteral("record"),
        QStringLiteral("Record the hits to trace FILE (FILE.partial until the run ends)."),
        QStringLiteral("FILE")};
    RedisCliOptions fleet;

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Runs the traffic simulator live (same traffic as gen for the same options) and "
            "prints 'time,count' once per second: the simulated second and the hits in the "
            "window ending there; a last line when it ends (after --duration, or on "
            "SIGINT/SIGTERM)."));
        parser.addOptions(traffic.all() << speed << policy << window << record << fleet.all());
    }
};

// What the command line asks for.
struct SimulatePlan {
    SimulatorOptions simulator;
    std::string policy;
    CounterOptions counter;
    std::optional<QString> recordFile;  // --record FILE (an empty name is an error at start)
};

// The plan, or the exit code after naming what is wrong.
std::variant<SimulatePlan, int> parseSimulate(QCommandLineParser& parser,
                                              const SimulateCliOptions& options,
                                              const QStringList& arguments) {
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("simulate takes no arguments besides options; got '%1'")
                       .arg(parser.positionalArguments().first()));
        return kExitBadInput;
    }
    const auto values =
        trafficValuesFrom(parser, options.traffic, QStringLiteral("simulate"), false);
    const auto pace = speedFrom(parser, options.speed);
    const auto policies = policiesFrom(parser, options.policy, false);
    const auto counter = counterOptionsFrom(parser, options.window);
    if (!values || !pace || !policies || !counter)
        return kExitBadInput;
    return SimulatePlan{
        .simulator = {.traffic = values->traffic,
                      .start = values->start,
                      .duration = values->seconds
                                      ? std::optional(std::chrono::seconds(*values->seconds))
                                      : std::nullopt,
                      .speed = *pace},
        .policy = policies->front(),
        .counter = *counter,
        .recordFile = parser.isSet(options.record) ? std::optional(parser.value(options.record))
                                                   : std::nullopt};
}

// Counts the source's hits, printing 'time,count' once per wall second, until the source
// ends, a stop signal arrives or stdout fails (a closed pipe, a full disk); then stops it and
// prints the last line.
void countWhileRunning(Source& source, const SimulatorSource& sim, BatchQueue& queue,
                       WindowCounter& counter, fleet::RedisSink* sink, WallClock& wall,
                       const sigset_t& stopSignals) {
    const auto consume = [&](const HitBatch& batch) {
        for (const HitEvent& e : batch)
            counter.hit(e.time, e.count);
        if (sink)
            sink->add(batch);
    };
    QTextStream out(stdout);
    const auto print = [&](Timestamp t) {
        out << t << ',' << counter.count(t) << '\n';
        out.flush();
    };
    out << "time,count\n";
    auto nextPrint = wall.time() + 1s;
    while (!stopSignalArrived(stopSignals) && !std::ferror(stdout)) {
        const bool ended = !source.running();
        if (auto batch = queue.popFor(20ms))
            consume(*batch);
        else if (ended)
            break;
        if (wall.time() >= nextPrint) {
            print(sim.now());
            nextPrint = wall.time() + 1s;
        }
    }
    source.stop();
    for (const HitBatch& batch : queue.drain())
        consume(batch);
    print(sim.position() - 1);
    out.flush();
}

// The closing lines on stderr: Redis, the source's totals, the recording.
int reportSimulate(Source& source, fleet::RedisSink* sink) {
    if (sink)
        printError(QStringLiteral("redis: %1")
                       .arg(QString::fromUtf8(
                           QJsonDocument(stopFleetSink(*sink)).toJson(QJsonDocument::Compact))));
    const SourceStats stats = source.stats();
    printError(QStringLiteral("%1 hits, %2 late, %3 dropped")
                   .arg(stats.hits)
                   .arg(stats.lateHits)
                   .arg(stats.dropped));
    if (auto* recording = dynamic_cast<RecordingSource*>(&source)) {
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

}  // namespace

int runSimulate(const QStringList& arguments) {
    QCommandLineParser parser;
    const SimulateCliOptions options;
    options.addTo(parser);
    const auto parsed = parseSimulate(parser, options, arguments);
    if (const int* exit = std::get_if<int>(&parsed))
        return *exit;
    const SimulatePlan& plan = std::get<SimulatePlan>(parsed);

    WallClock wall;
    auto simulator = std::make_unique<SimulatorSource>(wall, plan.simulator);
    SimulatorSource& sim = *simulator;
    std::unique_ptr<Source> source = std::move(simulator);
    if (plan.recordFile)
        source = std::make_unique<RecordingSource>(
            std::move(source), QFile::encodeName(*plan.recordFile).toStdString(), wall);

    const sigset_t stopSignals = blockStopSignals();  // before any worker thread starts
    const FleetSink fleet = startFleetSink(parser, options.fleet);
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
    const auto counter = makeCounter(plan.policy, plan.counter);
    countWhileRunning(*source, sim, queue, *counter, fleet.sink.get(), wall, stopSignals);
    return reportSimulate(*source, fleet.sink.get());
}

}  // namespace hitcounter::cli
