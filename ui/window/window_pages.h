// WindowPages: the main window's central area: the error, overload and clock-skew banners above
// the Monitor, Rate limits and Fleet tabs. It owns the three pages and remembers which one is
// open ("view/tab": monitor or limits; the Fleet tab opens with a fleet watched, not at start).
//
// GUI thread only. The tab widget's object name is "viewTabs" (tests find it by it).
//   showLimits(): opens the Rate limits tab; limitsOpened() whenever it becomes the current tab
//     (the lab starts itself then, limits_lab.h).
//   showFleet(): opens the Fleet tab.
#pragma once

#include <QWidget>

class QSettings;
class QTabWidget;

namespace hitcounter::ui {

class ClockSkewBanner;
class ErrorBanner;
class FleetView;
class LimitsView;
class MonitorPage;
class OverloadBanner;
class SettingsReader;

class WindowPages : public QWidget {
    Q_OBJECT
public:
    explicit WindowPages(QWidget* parent = nullptr);

    MonitorPage* monitor() const { return m_monitor; }
    LimitsView* limitsView() const { return m_limitsView; }
    FleetView* fleetView() const { return m_fleetView; }
    ErrorBanner* errorBanner() const { return m_errorBanner; }
    OverloadBanner* overloadBanner() const { return m_overload; }
    ClockSkewBanner* clockSkewBanner() const { return m_clockSkew; }

    void showLimits();
    void showFleet();

    void saveSettings(QSettings& settings) const;
    void restoreSettings(SettingsReader& settings);

Q_SIGNALS:
    void limitsOpened();

private:
    ErrorBanner* m_errorBanner;
    OverloadBanner* m_overload;
    ClockSkewBanner* m_clockSkew;
    QTabWidget* m_tabs;
    MonitorPage* m_monitor;
    LimitsView* m_limitsView;
    FleetView* m_fleetView;
};

}  // namespace hitcounter::ui
