#include "ui/threshold_alerts.h"

#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QSystemTrayIcon>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/data_export.h"
#include "ui/live_plot.h"
#include "ui/theme.h"

namespace hitcounter::ui {

namespace {
const QColor kUp(0xd9, 0x30, 0x25);
const QColor kDown(0x2e, 0xa0, 0x43);

QCPGraph* markerGraph(LivePlot& plot, const QString& name, QCPScatterStyle::ScatterShape shape,
                      const QColor& color) {
    QCPGraph* g = plot.addGraph(plot.xAxis, plot.yAxis2);
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(shape, color, color, 11));
    g->setProperty(kMarkerProperty, true);
    g->removeFromLegend();
    return g;
}
}  // namespace

ThresholdAlerts::ThresholdAlerts(LivePlot& plot, QWidget* parent) : QWidget(parent), m_plot(plot) {
    setObjectName(QStringLiteral("thresholdAlerts"));
    m_thresholdBox = new QSpinBox;
    m_thresholdBox->setObjectName(QStringLiteral("thresholdBox"));
    m_thresholdBox->setRange(0, 2'000'000'000);
    m_thresholdBox->setSpecialValueText(tr("off"));
    m_thresholdBox->setGroupSeparatorShown(true);
    m_thresholdBox->setToolTip(
        tr("A window count: a dashed line on the live plot; crossing it "
           "upwards or back down is marked, listed and (if ticked) "
           "announced. 0 turns alerts off."));
    m_keysBox = new QCheckBox(tr("keys too (while in the items table)"));
    m_keysBox->setObjectName(QStringLiteral("thresholdKeys"));
    m_keysBox->setToolTip(
        tr("Also alert when a key's window count crosses the threshold; a key "
           "is followed while it is one of the items table's top keys"));
    m_notifyBox = new QCheckBox(tr("desktop notification"));
    m_notifyBox->setObjectName(QStringLiteral("thresholdNotify"));
    if (!QSystemTrayIcon::isSystemTrayAvailable()) {
        m_notifyBox->setEnabled(false);
        m_notifyBox->setToolTip(tr("No system tray here: notifications are not available"));
    } else {
        m_notifyBox->setToolTip(tr("Announce each crossing with a desktop notification"));
    }
    m_table = new QTableWidget(0, 4);
    m_table->setObjectName(QStringLiteral("crossingsTable"));
    m_table->setHorizontalHeaderLabels({tr("time"), tr("series"), tr("direction"), tr("value")});
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* clearButton = new QPushButton(tr("Clear list"));
    connect(clearButton, &QPushButton::clicked, this, &ThresholdAlerts::clear);

    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Threshold (window count):")));
    row->addWidget(m_thresholdBox, 1);
    layout->addLayout(row);
    layout->addWidget(m_keysBox);
    layout->addWidget(m_notifyBox);
    layout->addWidget(new QLabel(tr("Crossings (newest first):")));
    layout->addWidget(m_table, 1);
    layout->addWidget(clearButton, 0, Qt::AlignRight);

    m_line = new QCPItemStraightLine(&m_plot);
    m_line->setObjectName(QStringLiteral("thresholdLine"));
    m_line->setSelectable(false);
    // Across the whole rect (x as a ratio of it) at the threshold on the window axis.
    for (QCPItemPosition* p : {m_line->point1, m_line->point2}) {
        p->setAxes(m_plot.xAxis, m_plot.yAxis2);
        p->setAxisRect(m_plot.axisRect());
        p->setTypeX(QCPItemPosition::ptAxisRectRatio);
        p->setTypeY(QCPItemPosition::ptPlotCoords);
    }
    m_line->setPen(QPen(kUp, 1.5, Qt::DashLine));
    m_line->setVisible(false);
    m_up = markerGraph(m_plot, tr("crossed up"), QCPScatterStyle::ssTriangle, kUp);
    m_down = markerGraph(m_plot, tr("crossed down"), QCPScatterStyle::ssTriangleInverted, kDown);

    connect(m_thresholdBox, &QSpinBox::valueChanged, this,
            [this](int value) { setThreshold(Count(value)); });
}

void ThresholdAlerts::setThreshold(Count threshold) {
    if (m_thresholdBox->value() != int(threshold)) {
        m_thresholdBox->setValue(int(std::min<Count>(threshold, 2'000'000'000)));
        return;  // back here through valueChanged
    }
    m_detector.setThreshold(threshold);
    const bool on = threshold > 0;
    m_line->setVisible(on);
    m_line->point1->setCoords(0, double(threshold));
    m_line->point2->setCoords(1, double(threshold));
    m_plot.setWindowAxisInclude(on ? std::optional<double>(double(threshold)) : std::nullopt);
    m_up->data()->clear();
    m_down->data()->clear();
}

Count ThresholdAlerts::threshold() const {
    return Count(m_thresholdBox->value());
}

void ThresholdAlerts::setWatchKeys(bool on) {
    m_keysBox->setChecked(on);
}

void ThresholdAlerts::setNotify(bool on) {
    m_notifyBox->setChecked(on && m_notifyBox->isEnabled());
}

bool ThresholdAlerts::notify() const {
    return m_notifyBox->isChecked();
}

void ThresholdAlerts::clear() {
    m_list.clear();
    m_table->setRowCount(0);
    m_up->data()->clear();
    m_down->data()->clear();
    m_plot.replot(QCustomPlot::rpQueuedReplot);
}

void ThresholdAlerts::applyTheme(const Theme&) {
    // The line and marks keep their alert colours in both themes (red up, green down).
}

void ThresholdAlerts::observe(const HistoryUpdate& update, const EngineFrame& frame,
                              TimeAxisMode mode) {
    if (update.rebuild) {
        m_detector.reset();
        clear();
    }
    if (threshold() == 0 || frame.snapshot.empty) {
        return;
    }
    static const std::string kTotal = "total";
    for (auto it = update.begin(); it != update.history.end(); ++it) {
        const Count value = it->counts.empty() ? 0 : it->counts[0];
        if (auto c = m_detector.observe(kTotal, it->second, value)) {
            record(*c, mode);
        }
    }
    if (m_keysBox->isChecked()) {
        for (const KeyRow& row : frame.top) {
            if (auto c = m_detector.observe("key " + row.key, frame.snapshot.head, row.window)) {
                record(*c, mode);
            }
        }
    }
}

void ThresholdAlerts::record(const ThresholdCrossing& c, TimeAxisMode mode) {
    m_list.push_back(c);
    const bool up = c.direction == CrossingDirection::Up;
    (up ? m_up : m_down)->addData(double(c.second), double(c.value));
    const QString time =
        mode == TimeAxisMode::Clock
            ? QDateTime::fromSecsSinceEpoch(c.second).toString(QStringLiteral("hh:mm:ss"))
            : tr("%1 s").arg(c.second);
    const QString series = QString::fromStdString(c.series);
    const QString direction = up ? tr("up ↑") : tr("down ↓");
    const QString value = QLocale().toString(qulonglong(c.value));
    m_table->insertRow(0);
    const QStringList cells{time, series, direction, value};
    for (int i = 0; i < cells.size(); ++i) {
        auto* item = new QTableWidgetItem(cells[i]);
        if (i == 2) {
            item->setForeground(up ? kUp : kDown);
        }
        if (i == 3) {
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        }
        m_table->setItem(0, i, item);
    }
    const QString text = tr("%1 crossed %2 %3 at %4 (window count %5)")
                             .arg(series, up ? tr("above") : tr("below"),
                                  QLocale().toString(qulonglong(c.threshold)), time, value);
    if (m_notifyBox->isChecked() && QSystemTrayIcon::isSystemTrayAvailable()) {
        if (m_tray == nullptr) {
            m_tray = new QSystemTrayIcon(QApplication::windowIcon(), this);
            m_tray->setToolTip(tr("hitcounter threshold alerts"));
        }
        m_tray->show();
        m_tray->showMessage(tr("hitcounter: threshold crossed"), text, QSystemTrayIcon::Information,
                            8000);
    }
    Q_EMIT crossed(c, text);
}

}  // namespace hitcounter::ui
