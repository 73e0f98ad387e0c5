#include "ui/window/window_pages.h"

#include <QSettings>
#include <QTabWidget>
#include <QVBoxLayout>

#include "ui/common/settings_reader.h"
#include "ui/fleet/fleet_view.h"
#include "ui/limits/limits_view.h"
#include "ui/monitor/clock_skew_banner.h"
#include "ui/monitor/monitor_page.h"
#include "ui/monitor/overload_banner.h"
#include "ui/window/error_banner.h"

namespace hitcounter::ui {

WindowPages::WindowPages(QWidget* parent)
    : QWidget(parent),
      m_errorBanner(new ErrorBanner),
      m_overload(new OverloadBanner),
      m_clockSkew(new ClockSkewBanner),
      m_tabs(new QTabWidget),
      m_monitor(new MonitorPage),
      m_limitsView(new LimitsView),
      m_fleetView(new FleetView) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    for (QWidget* banner : {static_cast<QWidget*>(m_errorBanner), static_cast<QWidget*>(m_overload),
                            static_cast<QWidget*>(m_clockSkew)}) {
        layout->addWidget(banner);
    }
    m_limitsView->setMinimumWidth(520);  // its natural minimum would widen the whole window
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_monitor, tr("Monitor"));
    m_tabs->addTab(m_limitsView, tr("Rate limits"));
    m_tabs->setTabToolTip(1, tr("Rate limiters (fixed window, sliding log, sliding counter, "
                                "token bucket) deciding the same traffic side by side"));
    m_tabs->addTab(m_fleetView, tr("Fleet"));
    m_tabs->setTabToolTip(2, tr("The whole fleet's counts, instances and Redis nodes, read from "
                                "the fleet's Redis (Fleet (Redis) in the sources dock)"));
    layout->addWidget(m_tabs, 1);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (m_tabs->widget(index) == m_limitsView) {
            Q_EMIT limitsOpened();
        }
    });
}

void WindowPages::showLimits() {
    if (m_tabs->currentWidget() == m_limitsView) {
        Q_EMIT limitsOpened();  // opened again: a lab that was stopped starts
    } else {
        m_tabs->setCurrentWidget(m_limitsView);  // limitsOpened through currentChanged
    }
}

void WindowPages::showFleet() {
    m_tabs->setCurrentWidget(m_fleetView);
}

void WindowPages::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("view/tab"), m_tabs->currentWidget() == m_limitsView
                                                      ? QStringLiteral("limits")
                                                      : QStringLiteral("monitor"));
    m_monitor->saveLayout(settings);
}

void WindowPages::restoreSettings(SettingsReader& settings) {
    m_monitor->restoreLayout(settings);
    if (settings.oneOf(QStringLiteral("view/tab"), QStringLiteral("monitor"),
                       {QStringLiteral("monitor"), QStringLiteral("limits")}) ==
        QLatin1String("limits")) {
        showLimits();
    }
}

}  // namespace hitcounter::ui
