// ThemeChoice: the light or dark theme, applied everywhere it shows: the application palette,
// every frame view, the Fleet tab, the clock-skew banner and the toolbar's Dark button.
// Remembered as "view/theme" (light or dark; default light).
//
// GUI thread only. Example: ThemeChoice theme(views, fleet, banner, toolBar); theme.set("dark");
#pragma once

#include <QString>

class QSettings;

namespace hitcounter::ui {

class ClockSkewBanner;
class FleetView;
class MainToolBar;
class SettingsReader;
class ViewFanOut;

class ThemeChoice {
public:
    ThemeChoice(ViewFanOut& views, FleetView& fleet, ClockSkewBanner& banner, MainToolBar& toolBar);

    // "light" or "dark".
    QString name() const { return m_name; }
    // Applies "dark", or the light theme for any other name.
    void set(const QString& name);

    void saveSettings(QSettings& settings) const;
    void restoreSettings(SettingsReader& settings);

private:
    ViewFanOut& m_views;
    FleetView& m_fleet;
    ClockSkewBanner& m_banner;
    MainToolBar& m_toolBar;
    QString m_name = QStringLiteral("light");
};

}  // namespace hitcounter::ui
