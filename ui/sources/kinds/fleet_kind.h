// FleetSpec: the fleet kind: the Fleet tab reads what many instances flushed to a fleet's Redis
// (ui/fleet/fleet_view.h). It has no Source: no hits reach the engine while it is watched, so
// the window starts it in the Fleet tab (SourceStarter) and build() refuses it. Its module:
// this value, its stored key ("redisUrl", never with the password), and its controls
// (fleet_controls.h: the URL and Watch/Stop).
//
// Plain value, GUI thread.
#pragma once

#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <memory>

class QSettings;

namespace hitcounter::ui {

class KindControls;
class RunningSource;
class SettingsReader;
struct BuildContext;

struct FleetSpec {
    // redis://[[USER]:PASSWORD@]HOST:PORT[/DB], any cluster node
    QString redisUrl = QStringLiteral("redis://127.0.0.1:6379");

    static QStringList kindNames() { return {QStringLiteral("redis")}; }
    QString kindName() const { return kindNames().front(); }
    // Never the password (it comes from HITCOUNTER_REDIS_PASSWORD, or is typed again).
    void save(QSettings& settings) const;
    static FleetSpec load(SettingsReader& settings, const QString& kind);
    // Throws std::invalid_argument: the fleet is watched in the Fleet tab, not counted.
    std::unique_ptr<RunningSource> build(const BuildContext& context) const;
    QVariantMap settingsUsed() const { return {}; }
    static KindControls* makeControls();
    friend bool operator==(const FleetSpec&, const FleetSpec&) = default;
};

}  // namespace hitcounter::ui
