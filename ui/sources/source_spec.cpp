#include "ui/sources/source_spec.h"

#include <QFileInfo>
#include <QSettings>
#include <QStringList>
#include <stdexcept>

#include "core/fleet/redis_url.h"
#include "core/io/hit_file.h"
#include "core/io/hit_file_probe.h"
#include "core/net/tcp_listener.h"
#include "core/net/udp_listener.h"
#include "core/sim/traffic_model.h"
#include "core/sources/follow_source.h"
#include "core/sources/replay_source.h"
#include "core/sources/simulator_source.h"
#include "core/time/clock.h"
#include "ui/common/settings_reader.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {
constexpr SourceSpec::Kind kKinds[] = {SourceSpec::Kind::Simulator,   SourceSpec::Kind::Replay,
                                       SourceSpec::Kind::StatsdUdp,   SourceSpec::Kind::StatsdTcp,
                                       SourceSpec::Kind::GraphiteTcp, SourceSpec::Kind::Follow,
                                       SourceSpec::Kind::Redis};

std::filesystem::path replayPath(const SourceSpec& spec) {
    return std::filesystem::path(spec.file.toStdString());
}

HitFileOptions fileOptions(const SourceSpec& spec) {
    HitFileOptions options;
    const auto key = accessLogKeyFromName(spec.key.toStdString());
    if (!key) {
        throw std::invalid_argument("unknown key '" + spec.key.toStdString() + "' (choose " +
                                    accessLogKeyNames().join(QStringLiteral(", ")).toStdString() +
                                    ")");
    }
    options.key = *key;
    options.logFormat = spec.logFormat.toStdString();
    return options;
}

void adoptListener(BuiltSource& built, std::unique_ptr<SocketListener> listener) {
    built.listener = listener.get();
    built.source = std::move(listener);
}
}  // namespace

QStringList accessLogKeyNames() {
    QStringList names;
    for (AccessLogKey key : {AccessLogKey::Path, AccessLogKey::PathQuery, AccessLogKey::Status,
                             AccessLogKey::Method, AccessLogKey::Vhost, AccessLogKey::Client}) {
        const std::string_view name = accessLogKeyName(key);
        names << QString::fromUtf8(name.data(), qsizetype(name.size()));
    }
    return names;
}

QString kindName(SourceSpec::Kind kind) {
    switch (kind) {
        case SourceSpec::Kind::Simulator:
            return QStringLiteral("simulator");
        case SourceSpec::Kind::Replay:
            return QStringLiteral("replay");
        case SourceSpec::Kind::StatsdUdp:
            return QStringLiteral("statsd-udp");
        case SourceSpec::Kind::StatsdTcp:
            return QStringLiteral("statsd-tcp");
        case SourceSpec::Kind::GraphiteTcp:
            return QStringLiteral("graphite-tcp");
        case SourceSpec::Kind::Follow:
            return QStringLiteral("follow");
        case SourceSpec::Kind::Redis:
            return QStringLiteral("redis");
    }
    return {};
}

void SourceSpec::save(QSettings& settings) const {
    settings.beginGroup(QStringLiteral("source"));
    settings.setValue(QStringLiteral("kind"), kindName(kind));
    settings.setValue(QStringLiteral("pattern"),
                      QString::fromUtf8(trafficPatternName(pattern).data(),
                                        qsizetype(trafficPatternName(pattern).size())));
    settings.setValue(QStringLiteral("rate"), rate);
    settings.setValue(QStringLiteral("keys"), keys);
    settings.setValue(QStringLiteral("speed"), speed);
    settings.setValue(QStringLiteral("file"),
                      file.isEmpty() ? file : QFileInfo(file).absoluteFilePath());
    settings.setValue(QStringLiteral("loop"), loop);
    settings.setValue(QStringLiteral("address"), address);
    settings.setValue(QStringLiteral("key"), key);
    settings.setValue(QStringLiteral("fromStart"), fromStart);
    settings.setValue(QStringLiteral("logFormat"), logFormat);
    // Never the password (it comes from HITCOUNTER_REDIS_PASSWORD, or is typed again).
    settings.setValue(
        QStringLiteral("redisUrl"),
        QString::fromStdString(fleet::redisUrlWithoutPassword(redisUrl.toStdString())));
    settings.endGroup();
}

SourceSpec SourceSpec::load(SettingsReader& settings) {
    SourceSpec spec;
    settings.settings().beginGroup(QStringLiteral("source"));
    QStringList kinds;
    for (Kind k : kKinds) {
        kinds << kindName(k);
    }
    const QString kind = settings.oneOf(QStringLiteral("kind"), kindName(spec.kind), kinds);
    for (Kind k : kKinds) {
        if (kindName(k) == kind) {
            spec.kind = k;
        }
    }
    QStringList patterns;
    for (const std::string_view name : trafficPatternNames()) {
        patterns << QString::fromUtf8(name.data(), qsizetype(name.size()));
    }
    const std::string_view fallbackPattern = trafficPatternName(spec.pattern);
    const QString pattern = settings.oneOf(
        QStringLiteral("pattern"),
        QString::fromUtf8(fallbackPattern.data(), qsizetype(fallbackPattern.size())), patterns);
    spec.pattern = trafficPatternFromName(pattern.toStdString()).value_or(spec.pattern);
    spec.rate = settings.number(QStringLiteral("rate"), spec.rate, 0, TrafficModel::kMaxRate, true);
    spec.keys = int(settings.wholeNumber(QStringLiteral("keys"), spec.keys, 1, 1'000'000));
    QStringList speeds;
    for (double s : kSpeeds) {
        speeds << QString::number(s);
    }
    spec.speed =
        settings.oneOf(QStringLiteral("speed"), QString::number(spec.speed), speeds).toDouble();
    spec.file = settings.text(QStringLiteral("file"));
    spec.loop = settings.flag(QStringLiteral("loop"), spec.loop);
    spec.address = settings.text(QStringLiteral("address"), spec.address);
    const QStringList keys = accessLogKeyNames();
    spec.key = settings.oneOf(QStringLiteral("key"), spec.key, keys);
    spec.fromStart = settings.flag(QStringLiteral("fromStart"), spec.fromStart);
    spec.logFormat = settings.text(QStringLiteral("logFormat"));
    spec.redisUrl = settings.text(QStringLiteral("redisUrl"), spec.redisUrl);
    settings.settings().endGroup();
    return spec;
}

BuiltSource buildSource(const SourceSpec& spec, Clock& clock) {
    BuiltSource built;
    ListenerOptions listen;
    listen.address = spec.address.toStdString();
    listen.receivers = static_cast<std::size_t>(std::max(0, spec.receivers));
    switch (spec.kind) {
        case SourceSpec::Kind::Simulator: {
            SimulatorOptions options;
            options.traffic.pattern = spec.pattern;
            options.traffic.rate = spec.rate;
            options.traffic.keys = static_cast<std::uint32_t>(std::max(1, spec.keys));
            // Warm-up: from `warmup` seconds ago as fast as the engine takes it, then at the
            // spec's speed from the clock's now (the simulator switches itself).
            options.speed = spec.speed;
            options.catchUp = spec.warmup.count() > 0;
            options.start = clock.now() - spec.warmup.count();
            auto simulator = std::make_unique<SimulatorSource>(clock, options);
            built.simulator = simulator.get();
            built.source = std::move(simulator);
            break;
        }
        case SourceSpec::Kind::Replay: {
            ReplayOptions options;
            options.speed = spec.speed;
            options.loop = spec.loop;
            options.file = fileOptions(spec);
            auto replay = std::make_unique<ReplaySource>(clock, replayPath(spec), options);
            built.replay = replay.get();
            built.source = std::move(replay);
            try {
                // A trace CSV of small seconds is drawn in trace time; an access log, or a
                // trace whose times are unix seconds (gen --start, recordings), in clock time.
                const HitFileProbe probe = probeHitFile(replayPath(spec), options.file);
                if (probe.format == HitFileFormat::Trace &&
                    probe.firstTime.value_or(0) < kFirstDateSecond) {
                    built.timeAxis = TimeAxisMode::Trace;
                }
                built.logUtcOffset = probe.utcOffset;
            } catch (const HitFileError&) {
                built.timeAxis = TimeAxisMode::Trace;  // check() names the problem
            }
            break;
        }
        case SourceSpec::Kind::StatsdUdp:
            adoptListener(built, std::make_unique<UdpStatsdListener>(listen));
            break;
        case SourceSpec::Kind::StatsdTcp:
            adoptListener(built, std::make_unique<TcpListener>(listen, WireProtocol::Statsd));
            break;
        case SourceSpec::Kind::GraphiteTcp:
            adoptListener(built, std::make_unique<TcpListener>(listen, WireProtocol::Graphite));
            break;
        case SourceSpec::Kind::Follow: {
            FollowOptions options;
            options.file = std::filesystem::path(spec.file.toStdString());
            options.format = fileOptions(spec);
            options.fromStart = spec.fromStart;
            try {
                built.logUtcOffset = probeHitFile(options.file, options.format).utcOffset;
            } catch (const HitFileError&) {
                // empty so far, or not a log: check() says which
            }
            auto follow = std::make_unique<FollowSource>(std::move(options));
            built.follow = follow.get();
            built.source = std::move(follow);
            break;
        }
        case SourceSpec::Kind::Redis:
            throw std::invalid_argument(
                "the fleet's Redis is read by the Fleet tab, not counted "
                "as a hit source");
    }
    return built;
}

}  // namespace hitcounter::ui
