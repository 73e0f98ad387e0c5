#include "ui/sources/kinds/speeds.h"

#include <QStringList>

#include "ui/common/settings_reader.h"

namespace hitcounter::ui {

double loadSpeed(SettingsReader& settings, double fallback) {
    QStringList speeds;
    for (double s : kSpeeds) {
        speeds << QString::number(s);
    }
    return settings.oneOf(QStringLiteral("speed"), QString::number(fallback), speeds).toDouble();
}

}  // namespace hitcounter::ui
