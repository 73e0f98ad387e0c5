// The simulated-traffic options `gen` and `simulate` share: --pattern --rate --duration
// --keys --visitors --seed --start --jitter, with one help text and one set of checks.
//
// Threading: main thread only. trafficValuesFrom() returns std::nullopt after writing the
// problem (the option, the value, the allowed range) to stderr.
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <optional>

#include "core/sim/traffic_model.h"

namespace hitcounter::cli {

struct TrafficCliOptions {
    TrafficCliOptions();
    QList<QCommandLineOption> all() const;

    QCommandLineOption pattern;
    QCommandLineOption rate;
    QCommandLineOption duration;
    QCommandLineOption keys;
    QCommandLineOption visitors;
    QCommandLineOption seed;
    QCommandLineOption start;
    QCommandLineOption jitter;
};

struct TrafficCliValues {
    TrafficOptions traffic;
    Timestamp start = 1;
    std::optional<Timestamp> seconds;  // --duration; absent only when not required
};

// "steady|poisson|burst|diurnal|viral".
QString joinedPatternNames();

// `command` names the command in messages ("gen needs --rate").
std::optional<TrafficCliValues> trafficValuesFrom(const QCommandLineParser& parser,
                                                  const TrafficCliOptions& options,
                                                  const QString& command, bool durationRequired);

}  // namespace hitcounter::cli
