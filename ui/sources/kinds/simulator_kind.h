// SimulatorSpec: the simulator kind: simulated traffic (core/sources/simulator_source.h) of a
// pattern, a rate and a number of keys, at a speed, after a warm-up. Its module: this value,
// its stored keys ("pattern", "rate", "keys", "speed"), build(), its snapshot settings, and
// its controls (simulator_controls.h: the rate, pattern and speed apply at once to a running
// simulator, the keys when it is (re)started).
//
// The simulator starts `warmup` seconds in the past (at least the views' window W plus a
// minute) at full speed, as fast as the engine drains it, and runs at the spec's speed from the
// clock's now (SimulatorSource switches itself), so the window is full within a second of
// starting and then runs live. A W raised later beyond the seconds seen is marked "filling" in
// the views until it is full.
//
// Plain value, GUI thread.
#pragma once

#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <chrono>
#include <memory>

#include "core/sim/traffic_pattern.h"

class QSettings;

namespace hitcounter::ui {

class KindControls;
class RunningSource;
class SettingsReader;
struct BuildContext;

struct SimulatorSpec {
    TrafficPattern pattern = TrafficPattern::Poisson;
    double rate = 2000.0;  // hits per second
    int keys = 100;
    double speed = 1.0;  // one of kSpeeds (speeds.h)
    // Ten minutes: the default 5 min window is full within a second.
    std::chrono::seconds warmup{600};

    static QStringList kindNames() { return {QStringLiteral("simulator")}; }
    QString kindName() const { return kindNames().front(); }
    void save(QSettings& settings) const;
    static SimulatorSpec load(SettingsReader& settings, const QString& kind);
    // Throws std::invalid_argument for a bad rate or number of keys.
    std::unique_ptr<RunningSource> build(const BuildContext& context) const;
    // "pattern", "rate", "keys".
    QVariantMap settingsUsed() const;
    static KindControls* makeControls();
    friend bool operator==(const SimulatorSpec&, const SimulatorSpec&) = default;
};

}  // namespace hitcounter::ui
