#include "ui/monitor/plot_tools.h"

#include <QActionGroup>
#include <QSettings>

#include "ui/common/settings_reader.h"
#include "ui/monitor/live_plot.h"
#include "ui/plot/data_export.h"
#include "ui/plot/plot_crosshair.h"
#include "ui/plot/series_legend.h"

namespace hitcounter::ui {

PlotToolBar::PlotToolBar(LivePlot& plot, QWidget* parent)
    : QToolBar(tr("Plot tools"), parent), m_plot(plot) {
    setObjectName(QStringLiteral("plotToolBar"));
    setMovable(false);
    setToolButtonStyle(Qt::ToolButtonTextOnly);

    m_logY = addAction(tr("Log y"));
    m_logY->setObjectName(QStringLiteral("logYAction"));
    m_logY->setCheckable(true);
    m_logY->setShortcut(QKeySequence(Qt::Key_L));
    m_logY->setToolTip(tr("Logarithmic value axes on the live plot (L)"));
    connect(m_logY, &QAction::toggled, &m_plot, &LivePlot::setLogY);

    m_boxZoom = addAction(tr("Box zoom"));
    m_boxZoom->setObjectName(QStringLiteral("boxZoomAction"));
    m_boxZoom->setCheckable(true);
    m_boxZoom->setShortcut(QKeySequence(Qt::Key_B));
    m_boxZoom->setToolTip(
        tr("Drag a box on the live plot to zoom into it (time and values); leaves follow. "
           "F, a preset or a double-click returns (B)"));
    connect(m_boxZoom, &QAction::toggled, &m_plot, &LivePlot::setBoxZoom);
    addSeparator();

    auto* group = new QActionGroup(this);
    group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    for (int seconds : {60, 300, 900, 3600}) {
        QAction* preset = addAction(seconds < 3600 ? tr("%1 min").arg(seconds / 60) : tr("1 h"));
        preset->setObjectName(QStringLiteral("preset%1").arg(seconds));
        preset->setCheckable(true);
        preset->setData(seconds);
        preset->setToolTip(
            tr("Show the last %1 and follow live")
                .arg(seconds < 3600 ? tr("%1 minutes").arg(seconds / 60) : tr("hour")));
        group->addAction(preset);
        m_presets << preset;
        connect(preset, &QAction::triggered, this, [this, seconds] {
            m_plot.setFollowSpan(double(seconds));
            presetAction(seconds)->setChecked(true);
        });
    }
    // Any other zoom or pan: no preset is what is shown any more.
    connect(m_plot.xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        const double span = m_plot.following() ? m_plot.followSpan() : -1.0;
        for (QAction* preset : m_presets) {
            if (preset->isChecked() && preset->data().toDouble() != span) {
                preset->setChecked(false);
            }
        }
    });
    addSeparator();

    m_export = addAction(tr("Export…"));
    m_export->setObjectName(QStringLiteral("exportAction"));
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_export->setToolTip(
        tr("Export the live plot's visible data as CSV, or the plot as PNG or "
           "PDF at its size on screen or a chosen size (Ctrl+E)"));
    connect(m_export, &QAction::triggered, this, [this] { exportInteractive(m_plot, window()); });
}

QAction* PlotToolBar::presetAction(int seconds) const {
    for (QAction* preset : m_presets) {
        if (preset->data().toInt() == seconds) {
            return preset;
        }
    }
    return nullptr;
}

void PlotToolBar::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("view/logY"), m_logY->isChecked());
}

void PlotToolBar::restoreSettings(SettingsReader& settings) {
    m_logY->setChecked(settings.flag(QStringLiteral("view/logY"), false));
}

void installPlotTools(QCustomPlot& plot) {
    new PlotCrosshair(plot);
    installLegendToggle(plot);
}

}  // namespace hitcounter::ui
