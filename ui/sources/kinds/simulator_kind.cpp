#include "ui/sources/kinds/simulator_kind.h"

#include <QSettings>
#include <algorithm>

#include "core/sim/traffic_model.h"
#include "core/sources/simulator_source.h"
#include "core/time/clock.h"
#include "ui/common/settings_reader.h"
#include "ui/sources/kinds/speeds.h"
#include "ui/sources/running_source.h"
#include "ui/sources/source_spec.h"

namespace hitcounter::ui {

namespace {

QString patternName(TrafficPattern pattern) {
    const std::string_view name = trafficPatternName(pattern);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

// The running simulator: its own time, its warm-up, and the rate, pattern and speed it takes
// while it runs (each when it changed).
class SimulatorRun final : public RunningSourceOf<SimulatorSource> {
public:
    SimulatorRun(std::unique_ptr<SimulatorSource> simulator, const SimulatorSpec& spec)
        : RunningSourceOf(std::move(simulator)), m_applied(spec) {}

    bool ownTime() const override { return true; }
    bool warmingUp() const override { return typedSource().catchingUp(); }
    bool apply(const SourceSpec& spec) override {
        const auto* next = std::get_if<SimulatorSpec>(&spec);
        if (next == nullptr) {
            return false;
        }
        SimulatorSource& simulator = typedSource();
        if (next->rate != m_applied.rate) {
            simulator.setRate(next->rate);
        }
        if (next->pattern != m_applied.pattern) {
            simulator.setPattern(next->pattern);
        }
        if (next->speed != m_applied.speed) {
            simulator.setSpeed(next->speed);  // while warming up: the speed after it
        }
        m_applied = *next;
        return true;
    }

private:
    SimulatorSpec m_applied;  // what the simulator runs with
};

}  // namespace

void SimulatorSpec::save(QSettings& settings) const {
    settings.setValue(QStringLiteral("pattern"), patternName(pattern));
    settings.setValue(QStringLiteral("rate"), rate);
    settings.setValue(QStringLiteral("keys"), keys);
    settings.setValue(QStringLiteral("speed"), speed);
}

SimulatorSpec SimulatorSpec::load(SettingsReader& settings, const QString& /*kind*/) {
    SimulatorSpec spec;
    QStringList patterns;
    for (const std::string_view name : trafficPatternNames()) {
        patterns << QString::fromUtf8(name.data(), qsizetype(name.size()));
    }
    const QString pattern =
        settings.oneOf(QStringLiteral("pattern"), patternName(spec.pattern), patterns);
    spec.pattern = trafficPatternFromName(pattern.toStdString()).value_or(spec.pattern);
    spec.rate = settings.number(QStringLiteral("rate"), spec.rate, 0, TrafficModel::kMaxRate, true);
    spec.keys = int(settings.wholeNumber(QStringLiteral("keys"), spec.keys, 1, 1'000'000));
    spec.speed = loadSpeed(settings, spec.speed);
    return spec;
}

std::unique_ptr<RunningSource> SimulatorSpec::build(const BuildContext& context) const {
    SimulatorOptions options;
    options.traffic.pattern = pattern;
    options.traffic.rate = rate;
    options.traffic.keys = static_cast<std::uint32_t>(std::max(1, keys));
    // Warm-up: from `warmup` seconds ago (W and a minute at least, however long W is) as fast
    // as the engine takes it, then at the spec's speed from the clock's now (the simulator
    // switches itself).
    const std::chrono::seconds past =
        warmup.count() > 0 ? std::max(warmup, context.window + std::chrono::seconds(60)) : warmup;
    options.speed = speed;
    options.catchUp = past.count() > 0;
    options.start = context.clock.now() - past.count();
    return std::make_unique<SimulatorRun>(std::make_unique<SimulatorSource>(context.clock, options),
                                          *this);
}

QVariantMap SimulatorSpec::settingsUsed() const {
    return {{QStringLiteral("pattern"), patternName(pattern)},
            {QStringLiteral("rate"), rate},
            {QStringLiteral("keys"), keys}};
}

}  // namespace hitcounter::ui
