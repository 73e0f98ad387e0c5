#include <QFile>
#include <cstdio>
#include <limits>
#include <memory>
#include <sstream>
#include <variant>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/stop_signals.h"
#include "app/cli/traffic_cli_options.h"
#include "core/io/output_file.h"
#include "core/io/trace_writer.h"
#include "core/sim/traffic_model.h"

namespace hitcounter::cli {

namespace {

constexpr long long kDefaultMaxBytes = 1LL << 30;
// Bytes generated before they are handed to the output (and checked against the cap).
constexpr std::streamoff kChunkBytes = 1 << 20;
// Seconds generated between two polls for a stop signal.
constexpr Timestamp kSignalPollSeconds = 64;

// Where the trace goes: stdout, or an OutputFile (FILE.partial, or a device or FIFO).
class GenOutput {
public:
    explicit GenOutput(std::unique_ptr<OutputFile> file) : m_file(std::move(file)) {}

    bool write(std::string_view data) {
        m_bytes += data.size();
        if (m_file)
            return m_file->write(data);
        return std::fwrite(data.data(), 1, data.size(), stdout) == data.size();
    }
    std::uint64_t bytes() const { return m_bytes; }
    OutputFile* file() const { return m_file.get(); }

private:
    std::unique_ptr<OutputFile> m_file;
    std::uint64_t m_bytes = 0;
};

enum class GenEnd { Complete, WriteFailed, OverCap, Interrupted };

struct GenResult {
    GenEnd end = GenEnd::Complete;
    Timestamp second = 0;  // the second it stopped at
    int signal = 0;        // Interrupted
};

// Writes seconds [start, start + duration) of the model after a comment naming the options
// (and not --out, so stdout and FILE get the same bytes), in chunks, stopping at a stop signal
// or before the first second that would take the output past maxBytes (0: no cap).
GenResult generate(const TrafficModel& model, Timestamp start, Timestamp duration,
                   std::uint64_t maxBytes, const sigset_t& stopSignals, GenOutput& output) {
    std::ostringstream buffer;
    TraceWriter writer(buffer);
    const TrafficOptions& o = model.options();
    writer.writeComment(
        "hitcounter-cli gen --pattern " + std::string(trafficPatternName(o.pattern)) + " --rate " +
        QString::number(o.rate).toStdString() + " --duration " + std::to_string(duration) +
        " --keys " + std::to_string(o.keys) + " --visitors " + std::to_string(o.visitors) +
        " --seed " + std::to_string(o.seed) + " --start " + std::to_string(start) + " --jitter " +
        std::to_string(o.jitter.count()));
    const auto drain = [&](Timestamp second) -> std::optional<GenResult> {
        const std::string data = buffer.str();
        buffer.str({});
        if (!output.write(data))
            return GenResult{GenEnd::WriteFailed, second, 0};
        return std::nullopt;
    };
    HitBatch batch;
    for (Timestamp t = start; t < start + duration; ++t) {
        if ((t - start) % kSignalPollSeconds == 0) {
            if (const int signal = stopSignalArrived(stopSignals))
                return {GenEnd::Interrupted, t, signal};
        }
        batch.clear();
        model.appendEventsAt(t, batch);
        writer.write(batch);
        // Checked per second, before the chunk holding it is written: nothing past the cap.
        if (maxBytes > 0 && output.bytes() + static_cast<std::uint64_t>(buffer.tellp()) > maxBytes)
            return {GenEnd::OverCap, t, 0};
        if (buffer.tellp() >= kChunkBytes) {
            if (auto stopped = drain(t))
                return *stopped;
        }
    }
    if (auto stopped = drain(start + duration - 1))
        return *stopped;
    return {};
}

// Every option of `gen`, added to one parser.
struct GenCliOptions {
    TrafficCliOptions traffic;
    QCommandLineOption out{
        QStringLiteral("out"),
        QStringLiteral("Write to FILE (complete or not at all; a FIFO or device is written "
                       "through) instead of stdout."),
        QStringLiteral("FILE")};
    QCommandLineOption maxBytes{
        QStringLiteral("max-bytes"),
        QStringLiteral("Stop with exit code 2 rather than write more than N bytes (default %1, "
                       "1 GiB; 0: no limit).")
            .arg(kDefaultMaxBytes),
        QStringLiteral("N"), QString::number(kDefaultMaxBytes)};

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Writes a deterministic trace CSV (timestamp,key,visitor,count) of simulated "
            "traffic: the same options and seed always give the same file."));
        parser.addOptions(traffic.all() << out << maxBytes);
    }
};

// What the command line asks for; the output FILE is opened (checked) before any work.
struct GenPlan {
    TrafficCliValues values;
    long long cap = 0;
    std::unique_ptr<OutputFile> file;  // null: stdout
};

// The plan, or the exit code after naming what is wrong (a bad FILE, a directory or an empty
// name, is exit code 2 now, not after the work).
std::variant<GenPlan, int> parseGen(QCommandLineParser& parser, const GenCliOptions& options,
                                    const QStringList& arguments) {
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("gen takes no FILE argument (use --out); got '%1'")
                       .arg(parser.positionalArguments().first()));
        return kExitBadInput;
    }
    const auto values = trafficValuesFrom(parser, options.traffic, QStringLiteral("gen"), true);
    if (!values)
        return kExitBadInput;
    const auto cap =
        wholeNumberFrom(parser, options.maxBytes, 0, std::numeric_limits<long long>::max());
    if (!cap)
        return kExitBadInput;
    GenPlan plan{.values = *values, .cap = *cap, .file = nullptr};
    if (parser.isSet(options.out)) {
        try {
            plan.file = std::make_unique<OutputFile>(
                QFile::encodeName(parser.value(options.out)).toStdString());
        } catch (const OutputFileError& e) {
            printError(QString::fromStdString(e.what()));
            return kExitBadInput;
        }
    }
    return plan;
}

// Names how the run ended and returns the exit code: a file is committed only when complete.
int reportGen(const GenResult& result, OutputFile* target, long long cap) {
    const QString written =
        target ? QString::fromStdString(target->writePath().string()) : QStringLiteral("stdout");
    const auto dropped = [&] {
        if (!target || target->writesThrough())
            return QString();
        target->discard();
        return QStringLiteral("; removed %1").arg(written);
    };
    switch (result.end) {
        case GenEnd::Complete:
            break;
        case GenEnd::WriteFailed: {
            const QString why = target ? QString::fromStdString(target->error())
                                       : QStringLiteral("cannot write to stdout");
            printError(why + dropped());
            return kExitFailure;
        }
        case GenEnd::OverCap:
            printError(QStringLiteral("the trace would pass --max-bytes %1 at second %2; give a "
                                      "shorter --duration or a larger --max-bytes (0: no limit)%3")
                           .arg(cap)
                           .arg(result.second)
                           .arg(dropped()));
            return target ? kExitBadInput : checkedStdout(kExitBadInput);
        case GenEnd::Interrupted:
            printError(QStringLiteral("interrupted by %1 at second %2%3")
                           .arg(QString::fromStdString(signalName(result.signal)))
                           .arg(result.second)
                           .arg(dropped()));
            if (!target)
                (void)checkedStdout();
            return 128 + result.signal;
    }
    if (!target)
        return checkedStdout();
    try {
        target->commit();
    } catch (const std::runtime_error& e) {
        printError(QString::fromStdString(e.what()));
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace

int runGen(const QStringList& arguments) {
    QCommandLineParser parser;
    const GenCliOptions options;
    options.addTo(parser);
    auto parsed = parseGen(parser, options, arguments);
    if (const int* exit = std::get_if<int>(&parsed))
        return *exit;
    GenPlan& plan = std::get<GenPlan>(parsed);
    const TrafficModel model(plan.values.traffic);
    const sigset_t stopSignals = blockStopSignals();
    GenOutput output(std::move(plan.file));
    const GenResult result = generate(model, plan.values.start, *plan.values.seconds,
                                      static_cast<std::uint64_t>(plan.cap), stopSignals, output);
    return reportGen(result, output.file(), plan.cap);
}

}  // namespace hitcounter::cli
