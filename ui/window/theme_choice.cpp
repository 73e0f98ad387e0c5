#include "ui/window/theme_choice.h"

#include <QApplication>
#include <QSettings>

#include "ui/common/settings_reader.h"
#include "ui/common/theme.h"
#include "ui/fleet/fleet_view.h"
#include "ui/monitor/clock_skew_banner.h"
#include "ui/window/main_tool_bar.h"
#include "ui/window/view_fan_out.h"

namespace hitcounter::ui {

namespace {
const QString kThemeKey = QStringLiteral("view/theme");
const QString kLight = QStringLiteral("light");
const QString kDark = QStringLiteral("dark");
}  // namespace

ThemeChoice::ThemeChoice(ViewFanOut& views, FleetView& fleet, ClockSkewBanner& banner,
                         MainToolBar& toolBar)
    : m_views(views), m_fleet(fleet), m_banner(banner), m_toolBar(toolBar) {}

void ThemeChoice::set(const QString& name) {
    m_name = name == kDark ? kDark : kLight;
    const Theme theme = themeNamed(m_name);
    if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance())) {
        applyTheme(*app, theme);
    }
    m_fleet.applyTheme(theme);
    m_banner.applyTheme(theme.dark);
    m_views.applyTheme(theme);
    m_toolBar.showDark(theme.dark);
}

void ThemeChoice::saveSettings(QSettings& settings) const {
    settings.setValue(kThemeKey, m_name);
}

void ThemeChoice::restoreSettings(SettingsReader& settings) {
    set(settings.oneOf(kThemeKey, m_name, {kLight, kDark}));
}

}  // namespace hitcounter::ui
