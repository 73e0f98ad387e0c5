#include "ui/monitor/threshold_alerts.h"

#include <algorithm>

#include <QApplication>
#include <QCheckBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStringListModel>
#include <QSystemTrayIcon>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/engine/engine_worker.h"
#include "ui/common/settings_reader.h"
#include "ui/common/theme.h"
#include "ui/monitor/live_plot.h"
#include "ui/plot/display_zone.h"
#include "ui/plot/series_values.h"

namespace hitcounter::ui {

namespace {
const QColor kUp = alarmColor();
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
    m_keysBox = new QCheckBox(tr("top keys too"));
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
    m_watchEdit = new QLineEdit;
    m_watchEdit->setObjectName(QStringLiteral("watchKeyEdit"));
    m_watchEdit->setPlaceholderText(tr("watch a key: type or pick"));
    m_watchEdit->setClearButtonEnabled(true);
    m_watchEdit->setToolTip(
        tr("A key to follow second by second even outside the items table's top keys: type "
           "it, pick one of the top keys from the list that opens as you type, or select a "
           "row of the items table; then Watch (or Enter)"));
    m_topKeys = new QStringListModel(this);
    auto* completer = new QCompleter(m_topKeys, m_watchEdit);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    m_watchEdit->setCompleter(completer);
    m_watchButton = new QPushButton(tr("Watch"));
    m_watchButton->setObjectName(QStringLiteral("watchKeyButton"));
    m_watchButton->setEnabled(false);
    m_watchList = new QListWidget;
    m_watchList->setObjectName(QStringLiteral("watchedKeys"));
    m_watchList->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_watchList->setToolTip(tr("Watched keys: their crossings are found every second"));
    m_watchList->setMaximumHeight(4 * m_watchList->fontMetrics().height() + 8);
    m_unwatchButton = new QPushButton(tr("Unwatch"));
    m_unwatchButton->setObjectName(QStringLiteral("unwatchKeyButton"));
    m_unwatchButton->setEnabled(false);
    const auto watchTyped = [this] {
        watchKey(m_watchEdit->text().trimmed().toStdString());
        m_watchEdit->clear();
    };
    connect(m_watchButton, &QPushButton::clicked, this, watchTyped);
    connect(m_watchEdit, &QLineEdit::returnPressed, this, watchTyped);
    connect(m_watchEdit, &QLineEdit::textChanged, this,
            [this](const QString& text) { m_watchButton->setEnabled(!text.trimmed().isEmpty()); });
    connect(m_watchList, &QListWidget::itemSelectionChanged, this,
            [this] { m_unwatchButton->setEnabled(!m_watchList->selectedItems().isEmpty()); });
    connect(m_unwatchButton, &QPushButton::clicked, this, [this] {
        std::vector<std::string> keep;
        for (int i = 0; i < m_watchList->count(); ++i) {
            if (!m_watchList->item(i)->isSelected()) {
                keep.push_back(m_watchList->item(i)->text().toStdString());
            }
        }
        setWatchedKeys(keep);
    });

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
    auto* watchRow = new QHBoxLayout;
    watchRow->addWidget(m_watchEdit, 1);
    watchRow->addWidget(m_watchButton);
    watchRow->addWidget(m_unwatchButton);
    layout->addLayout(watchRow);
    // The list spans the dock: beside a button its default width hint (256 px) widened the
    // whole left dock area by 60 px.
    layout->addWidget(m_watchList);
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

void ThresholdAlerts::setWatchedKeys(const std::vector<std::string>& keys) {
    std::vector<std::string> watched;
    for (const std::string& key : keys) {
        if (!key.empty() && watched.size() < EngineWorker::kWatchedKeys &&
            std::find(watched.begin(), watched.end(), key) == watched.end()) {
            watched.push_back(key);
        }
    }
    if (watched == m_watched) {
        return;
    }
    m_watched = std::move(watched);
    showWatched();
    Q_EMIT watchedKeysChanged(m_watched);
}

void ThresholdAlerts::watchKey(const std::string& key) {
    std::vector<std::string> keys = m_watched;
    keys.push_back(key);
    setWatchedKeys(keys);
}

void ThresholdAlerts::unwatchKey(const std::string& key) {
    std::vector<std::string> keys = m_watched;
    std::erase(keys, key);
    setWatchedKeys(keys);
}

void ThresholdAlerts::offerKey(const QString& key) {
    if (!key.isEmpty() && !m_watchEdit->hasFocus()) {
        m_watchEdit->setText(key);
    }
}

void ThresholdAlerts::showWatched() {
    m_watchList->clear();
    for (const std::string& key : m_watched) {
        m_watchList->addItem(QString::fromStdString(key));
    }
    m_unwatchButton->setEnabled(false);
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
    // The Watch field offers the top keys (at most kTopKeys strings, replaced only on change).
    QStringList top;
    for (const KeyRow& row : frame.top) {
        top << QString::fromStdString(row.key);
    }
    if (top != m_topKeys->stringList()) {
        m_topKeys->setStringList(top);
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
    // Only the keys watched now: a frame built before an unwatch may still carry a key.
    const auto watched = [this](const std::string& key) {
        return std::find(m_watched.begin(), m_watched.end(), key) != m_watched.end();
    };
    for (const KeySeriesValues& series : frame.watched) {
        if (!watched(series.key)) {
            continue;
        }
        const std::string name = "key " + series.key;
        for (std::size_t i = 0; i < series.values.size(); ++i) {
            const Timestamp second = frame.watchedFrom + Timestamp(i);
            if (auto c = m_detector.observe(name, second, series.values[i])) {
                record(*c, mode);
            }
        }
    }
    if (m_keysBox->isChecked()) {
        for (const KeyRow& row : frame.top) {
            if (watched(row.key)) {
                continue;  // followed every second above
            }
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
    // Clock times in the zone shown, named (time_axis.h's rule for dates).
    const QString time = mode == TimeAxisMode::Clock
                             ? shownZone().format(c.second, QStringLiteral("hh:mm:ss")) +
                                   QLatin1Char(' ') + shownZone().offsetName(c.second)
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

QString ThresholdAlerts::summary(const ThresholdCrossing& crossing) {
    return tr("Alert: %1 %2 %3")
        .arg(
            QString::fromStdString(crossing.series),
            crossing.direction == CrossingDirection::Up ? QStringLiteral("↑") : QStringLiteral("↓"),
            QLocale().toString(qulonglong(crossing.threshold)));
}

void ThresholdAlerts::showFrame(const FrameContext& context) {
    observe(context.update, context.frame, context.mode);
}

void ThresholdAlerts::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("alerts/threshold"), qulonglong(threshold()));
    settings.setValue(QStringLiteral("alerts/notify"), notify());
    QStringList watched;
    for (const std::string& key : watchedKeys()) {
        watched << QString::fromStdString(key);
    }
    settings.setValue(QStringLiteral("alerts/watchedKeys"), watched);
}

void ThresholdAlerts::restoreSettings(SettingsReader& settings) {
    setThreshold(Count(settings.wholeNumber(QStringLiteral("alerts/threshold"), 0, 0,
                                            std::numeric_limits<qlonglong>::max())));
    setNotify(settings.flag(QStringLiteral("alerts/notify"), false));
    std::vector<std::string> watched;
    for (const QString& key : settings.texts(QStringLiteral("alerts/watchedKeys"))) {
        watched.push_back(key.toStdString());
    }
    setWatchedKeys(watched);
}

}  // namespace hitcounter::ui
