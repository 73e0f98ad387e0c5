#include <QFile>
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/traffic_cli_options.h"
#include "core/io/trace_writer.h"
#include "core/sim/traffic_model.h"

namespace hitcounter::cli {

namespace {

// Writes seconds [start, start + duration) of the model after a comment naming the options
// (and not --out, so stdout and FILE get the same bytes); false if the stream failed.
bool generate(const TrafficModel& model, Timestamp start, Timestamp duration, TraceWriter& writer) {
    const TrafficOptions& o = model.options();
    writer.writeComment(
        "hitcounter-cli gen --pattern " + std::string(trafficPatternName(o.pattern)) + " --rate " +
        QString::number(o.rate).toStdString() + " --duration " + std::to_string(duration) +
        " --keys " + std::to_string(o.keys) + " --visitors " + std::to_string(o.visitors) +
        " --seed " + std::to_string(o.seed) + " --start " + std::to_string(start) + " --jitter " +
        std::to_string(o.jitter.count()));
    HitBatch batch;
    for (Timestamp t = start; t < start + duration && writer.good(); ++t) {
        batch.clear();
        model.appendEventsAt(t, batch);
        writer.write(batch);
    }
    writer.flush();
    return writer.good();
}

}  // namespace

int runGen(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Writes a deterministic trace CSV (timestamp,key,visitor,count) of simulated traffic: "
        "the same options and seed always give the same file."));
    const TrafficCliOptions traffic;
    const QCommandLineOption out(QStringLiteral("out"),
                                 QStringLiteral("Write to FILE (complete or not at all) instead "
                                                "of stdout."),
                                 QStringLiteral("FILE"));
    parser.addOptions(traffic.all() << out);
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("gen takes no FILE argument (use --out); got '%1'")
                       .arg(parser.positionalArguments().first()));
        return kExitBadInput;
    }
    const auto values = trafficValuesFrom(parser, traffic, QStringLiteral("gen"), true);
    if (!values)
        return kExitBadInput;
    const TrafficModel model(values->traffic);
    const Timestamp first = values->start;
    const Timestamp seconds = *values->seconds;

    if (!parser.isSet(out)) {
        std::ios::sync_with_stdio(false);
        TraceWriter writer(std::cout);
        if (generate(model, first, seconds, writer))
            return kExitOk;
        printError(QStringLiteral("cannot write to stdout"));
        return kExitFailure;
    }
    // Written beside the target and renamed when complete, so FILE is never half-written.
    const std::filesystem::path target = QFile::encodeName(parser.value(out)).toStdString();
    std::filesystem::path partial = target;
    partial += ".partial";
    std::unique_ptr<TraceWriter> writer;
    try {
        writer = std::make_unique<TraceWriter>(partial);
    } catch (const std::runtime_error& e) {
        printError(QString::fromStdString(e.what()));
        return kExitBadInput;
    }
    if (!generate(model, first, seconds, *writer)) {
        writer.reset();
        std::error_code ignored;
        std::filesystem::remove(partial, ignored);
        printError(QStringLiteral("cannot write '%1' (disk full?); nothing written")
                       .arg(QString::fromStdString(partial.string())));
        return kExitFailure;
    }
    writer.reset();
    std::error_code error;
    std::filesystem::rename(partial, target, error);
    if (error) {
        std::filesystem::remove(partial, error);
        printError(QStringLiteral("cannot create '%1'").arg(parser.value(out)));
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace hitcounter::cli
