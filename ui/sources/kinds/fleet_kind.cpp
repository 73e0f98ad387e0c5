#include "ui/sources/kinds/fleet_kind.h"

#include <QSettings>
#include <stdexcept>

#include "core/fleet/redis_url.h"
#include "ui/common/settings_reader.h"
#include "ui/sources/running_source.h"

namespace hitcounter::ui {

void FleetSpec::save(QSettings& settings) const {
    settings.setValue(
        QStringLiteral("redisUrl"),
        QString::fromStdString(fleet::redisUrlWithoutPassword(redisUrl.toStdString())));
}

FleetSpec FleetSpec::load(SettingsReader& settings, const QString& /*kind*/) {
    FleetSpec spec;
    spec.redisUrl = settings.text(QStringLiteral("redisUrl"), spec.redisUrl);
    return spec;
}

std::unique_ptr<RunningSource> FleetSpec::build(const BuildContext& /*context*/) const {
    throw std::invalid_argument(
        "the fleet's Redis is read by the Fleet tab, not counted as a hit source");
}

}  // namespace hitcounter::ui
