#include "ui/monitor/monitor_page.h"

#include <QSettings>

#include "ui/common/settings_reader.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/monitor/policy_comparison.h"
#include "ui/monitor/ring_histogram.h"
#include "ui/plot/plot_export.h"

namespace hitcounter::ui {

namespace {
const QString kMainKey = QStringLiteral("window/mainSplitter");
const QString kMiddleKey = QStringLiteral("window/middleSplitter");
}  // namespace

MonitorPage::MonitorPage(QWidget* parent)
    : QSplitter(Qt::Vertical, parent),
      m_live(new LivePlot),
      m_ring(new RingHistogram),
      m_comparison(new PolicyComparison),
      m_items(new ItemsPanel),
      m_middle(new QSplitter(Qt::Horizontal)) {
    setObjectName(QStringLiteral("mainSplitter"));
    for (QCustomPlot* plot : {static_cast<QCustomPlot*>(m_live), static_cast<QCustomPlot*>(m_ring),
                              m_comparison->plot(), m_items->plot()}) {
        if (plot != m_items->plot()) {
            installExportMenu(*plot);
        }
        plot->setNotAntialiasedElements(QCP::aeFills | QCP::aePlottables | QCP::aeGrid |
                                        QCP::aeSubGrid | QCP::aeAxes);
    }
    // Below the plots' natural minimums (their legends and titles in one row).
    m_ring->setMinimumSize(260, 120);
    m_comparison->plot()->setMinimumSize(320, 160);

    m_middle->setObjectName(QStringLiteral("middleSplitter"));
    m_middle->addWidget(m_ring);
    m_middle->addWidget(m_items);
    m_middle->setStretchFactor(0, 1);
    m_middle->setStretchFactor(1, 1);
    m_middle->setSizes({560, 720});  // the items table's numbers need the room
    addWidget(m_live);
    addWidget(m_middle);
    addWidget(m_comparison);
    setStretchFactor(0, 3);
    setStretchFactor(1, 3);
    setStretchFactor(2, 4);
    setSizes({320, 290, 390});

    connect(m_live->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_comparison,
            &PolicyComparison::setTimeRange);
}

void MonitorPage::saveLayout(QSettings& settings) const {
    settings.setValue(kMainKey, saveState());
    settings.setValue(kMiddleKey, m_middle->saveState());
}

void MonitorPage::restoreLayout(SettingsReader& settings) {
    settings.layout(kMainKey, [this](const QByteArray& b) { return restoreState(b); });
    settings.layout(kMiddleKey, [this](const QByteArray& b) { return m_middle->restoreState(b); });
}

}  // namespace hitcounter::ui
