#include "app/cli/traffic_cli_options.h"

#include <QStringList>
#include <cstdint>

#include "app/cli/cli_options.h"
#include "core/io/trace_format.h"

namespace hitcounter::cli {

QString joinedPatternNames() {
    QStringList names;
    for (const auto name : trafficPatternNames())
        names << QString::fromUtf8(name.data(), name.size());
    return names.join(QLatin1Char('|'));
}

TrafficCliOptions::TrafficCliOptions()
    : pattern(QStringLiteral("pattern"),
              QStringLiteral("Traffic shape: %1.").arg(joinedPatternNames()), QStringLiteral("P")),
      rate(QStringLiteral("rate"),
           QStringLiteral("Base rate in hits per second, 0 to %1.").arg(TrafficModel::kMaxRate),
           QStringLiteral("R")),
      duration(QStringLiteral("duration"), QStringLiteral("Seconds of traffic, >= 1."),
               QStringLiteral("S")),
      keys(QStringLiteral("keys"),
           QStringLiteral("Keys (/page/1 ... /page/K), Zipf popularity, 1 to %1 (default 100).")
               .arg(TrafficModel::kMaxKeys),
           QStringLiteral("K"), QStringLiteral("100")),
      visitors(QStringLiteral("visitors"), QStringLiteral("Visitors (v1 ... vV), default 1000."),
               QStringLiteral("V"), QStringLiteral("1000")),
      seed(QStringLiteral("seed"), QStringLiteral("Random seed (default 1)."), QStringLiteral("N"),
           QStringLiteral("1")),
      start(QStringLiteral("start"), QStringLiteral("Timestamp of the first second (default 1)."),
            QStringLiteral("T"), QStringLiteral("1")),
      jitter(QStringLiteral("jitter"),
             QStringLiteral(
                 "Make 10% of the hits arrive up to J seconds late (default 0; J <= start)."),
             QStringLiteral("J"), QStringLiteral("0")) {}

QList<QCommandLineOption> TrafficCliOptions::all() const {
    return {pattern, rate, duration, keys, visitors, seed, start, jitter};
}

std::optional<TrafficCliValues> trafficValuesFrom(const QCommandLineParser& parser,
                                                  const TrafficCliOptions& o,
                                                  const QString& command, bool durationRequired) {
    for (const auto* required : {&o.pattern, &o.rate, &o.duration}) {
        if (required == &o.duration && !durationRequired)
            continue;
        if (!parser.isSet(*required)) {
            printError(QStringLiteral("%1 needs --%2 (see --help)")
                           .arg(command, required->names().first()));
            return std::nullopt;
        }
    }
    const auto shape = trafficPatternFromName(parser.value(o.pattern).toStdString());
    if (!shape) {
        printError(QStringLiteral("unknown pattern '%1'; expected one of %2")
                       .arg(parser.value(o.pattern), joinedPatternNames()));
        return std::nullopt;
    }
    const auto hitsPerSecond = numberFrom(parser, o.rate, 0, TrafficModel::kMaxRate);
    const auto keyCount = wholeNumberFrom(parser, o.keys, 1, TrafficModel::kMaxKeys);
    const auto visitorCount = wholeNumberFrom(parser, o.visitors, 1, UINT32_MAX);
    const auto seedValue = wholeNumberFrom(parser, o.seed, 0, INT64_MAX);
    const auto first = wholeNumberFrom(parser, o.start, 0, kTraceMaxTimestamp);
    if (!hitsPerSecond || !keyCount || !visitorCount || !seedValue || !first)
        return std::nullopt;
    std::optional<long long> seconds;
    if (parser.isSet(o.duration)) {
        seconds = wholeNumberFrom(parser, o.duration, 1, kTraceMaxTimestamp - *first + 1);
        if (!seconds)
            return std::nullopt;
    }
    const auto lateness = wholeNumberFrom(parser, o.jitter, 0, *first);
    if (!lateness)
        return std::nullopt;

    TrafficCliValues values;
    values.traffic.pattern = *shape;
    values.traffic.rate = *hitsPerSecond;
    values.traffic.keys = static_cast<std::uint32_t>(*keyCount);
    values.traffic.visitors = static_cast<std::uint32_t>(*visitorCount);
    values.traffic.seed = static_cast<std::uint64_t>(*seedValue);
    values.traffic.jitter = std::chrono::seconds{*lateness};
    values.start = *first;
    values.seconds = seconds;
    return values;
}

}  // namespace hitcounter::cli
