#include <QFile>
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "core/io/trace_writer.h"
#include "core/sim/traffic_model.h"

namespace hitcounter::cli {

namespace {

QString joinedPatternNames() {
    QStringList names;
    for (const auto name : trafficPatternNames())
        names << QString::fromUtf8(name.data(), name.size());
    return names.join(QLatin1Char('|'));
}

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
    const QCommandLineOption pattern(QStringLiteral("pattern"),
                                     QStringLiteral("Traffic shape: %1.").arg(joinedPatternNames()),
                                     QStringLiteral("P"));
    const QCommandLineOption rate(
        QStringLiteral("rate"),
        QStringLiteral("Base rate in hits per second, 0 to %1.").arg(TrafficModel::kMaxRate),
        QStringLiteral("R"));
    const QCommandLineOption duration(QStringLiteral("duration"),
                                      QStringLiteral("Seconds of traffic, >= 1."),
                                      QStringLiteral("S"));
    const QCommandLineOption keys(QStringLiteral("keys"),
                                  QStringLiteral("Keys (/page/1 ... /page/K), Zipf popularity, "
                                                 "1 to %1 (default 100).")
                                      .arg(TrafficModel::kMaxKeys),
                                  QStringLiteral("K"), QStringLiteral("100"));
    const QCommandLineOption visitors(QStringLiteral("visitors"),
                                      QStringLiteral("Visitors (v1 ... vV), default 1000."),
                                      QStringLiteral("V"), QStringLiteral("1000"));
    const QCommandLineOption seed(QStringLiteral("seed"),
                                  QStringLiteral("Random seed (default 1)."), QStringLiteral("N"),
                                  QStringLiteral("1"));
    const QCommandLineOption start(QStringLiteral("start"),
                                   QStringLiteral("Timestamp of the first second (default 1)."),
                                   QStringLiteral("T"), QStringLiteral("1"));
    const QCommandLineOption jitter(
        QStringLiteral("jitter"),
        QStringLiteral("Make 10% of the hits arrive up to J seconds late (default 0; J <= start)."),
        QStringLiteral("J"), QStringLiteral("0"));
    const QCommandLineOption out(QStringLiteral("out"),
                                 QStringLiteral("Write to FILE (complete or not at all) instead "
                                                "of stdout."),
                                 QStringLiteral("FILE"));
    parser.addOptions({pattern, rate, duration, keys, visitors, seed, start, jitter, out});
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    for (const auto& required : {pattern, rate, duration}) {
        if (!parser.isSet(required)) {
            printError(QStringLiteral("gen needs --%1 (see --help)").arg(required.names().first()));
            return kExitBadInput;
        }
    }
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("gen takes no FILE argument (use --out); got '%1'")
                       .arg(parser.positionalArguments().first()));
        return kExitBadInput;
    }
    const auto shape = trafficPatternFromName(parser.value(pattern).toStdString());
    if (!shape) {
        printError(QStringLiteral("unknown pattern '%1'; expected one of %2")
                       .arg(parser.value(pattern), joinedPatternNames()));
        return kExitBadInput;
    }
    const auto hitsPerSecond = numberFrom(parser, rate, 0, TrafficModel::kMaxRate);
    const auto keyCount = wholeNumberFrom(parser, keys, 1, TrafficModel::kMaxKeys);
    const auto visitorCount = wholeNumberFrom(parser, visitors, 1, UINT32_MAX);
    const auto seedValue = wholeNumberFrom(parser, seed, 0, INT64_MAX);
    const auto first = wholeNumberFrom(parser, start, 0, kTraceMaxTimestamp);
    if (!hitsPerSecond || !keyCount || !visitorCount || !seedValue || !first)
        return kExitBadInput;
    const auto seconds = wholeNumberFrom(parser, duration, 1, kTraceMaxTimestamp - *first + 1);
    const auto lateness = wholeNumberFrom(parser, jitter, 0, *first);
    if (!seconds || !lateness)
        return kExitBadInput;

    TrafficOptions options;
    options.pattern = *shape;
    options.rate = *hitsPerSecond;
    options.keys = static_cast<std::uint32_t>(*keyCount);
    options.visitors = static_cast<std::uint32_t>(*visitorCount);
    options.seed = static_cast<std::uint64_t>(*seedValue);
    options.jitter = std::chrono::seconds{*lateness};
    const TrafficModel model(options);

    if (!parser.isSet(out)) {
        std::ios::sync_with_stdio(false);
        TraceWriter writer(std::cout);
        if (generate(model, *first, *seconds, writer))
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
    if (!generate(model, *first, *seconds, *writer)) {
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
