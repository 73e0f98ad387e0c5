#include "ui/monitor/items_panel.h"

#include <QButtonGroup>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRadioButton>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/engine/engine_worker.h"
#include "ui/common/column_fit.h"
#include "ui/common/number_text.h"
#include "ui/common/settings_reader.h"
#include "ui/common/theme.h"
#include "ui/plot/axis_tickers.h"
#include "ui/plot/plot_export.h"
#include "ui/plot/plot_layout.h"
#include "ui/plot/qcp.h"
#include "ui/plot/series_legend.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {
// Whole minutes, "hh:mm", at most tickCount() ticks: the key plot is narrow (fitTickCount
// lowers the count until the labels stand apart).
constexpr int kMostKeyTimeTicks = 5;
constexpr int kMostKeyCountTicks = 3;  // labels on the key plot's count axis, at most

void setKeyTimeAxis(QCPAxis& axis, TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    // Short title: the plot is narrow.
    setShortTimeAxis(axis, mode, wrap, mode == TimeAxisMode::Clock ? 60.0 : 1.0);
    if (mode == TimeAxisMode::Trace) {
        axis.ticker()->setTickCount(3);
    }
}

enum ItemColumn { ColKey, ColWindow, ColLevel, ColAllTime, ColUniques, ItemColumnCount };
const char* const kLevelNames[] = {"1 min", "5 min", "1 h"};
}  // namespace

ItemsPanel::ItemsPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("itemsPanel"));
    auto* title = new QLabel(tr("<b>Items</b>: hottest keys in the window"));
    title->setWordWrap(true);  // a narrow panel keeps its level switch in sight
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("itemsSummary"));
    m_summary->setToolTip(tr("All keys together: hits and distinct visitors in the window"));

    m_levels = new QButtonGroup(this);
    auto* levelRow = new QHBoxLayout;
    levelRow->addWidget(title, 1);  // the spare width: it wraps only when narrow
    for (int i = 0; i < 3; ++i) {
        auto* button = new QRadioButton(tr(kLevelNames[i]));
        button->setObjectName(QStringLiteral("level%1").arg(i));
        button->setToolTip(
            tr("Show and plot each key's hits in the last %1").arg(tr(kLevelNames[i])));
        m_levels->addButton(button, i);
        levelRow->addWidget(button);
    }
    m_levels->button(m_level)->setChecked(true);
    connect(m_levels, &QButtonGroup::idClicked, this, &ItemsPanel::setLevel);

    m_table = new QTableWidget(0, ItemColumnCount);
    m_table->setObjectName(QStringLiteral("topKTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("key"), tr("window"), tr("5 min"), tr("all time"), tr("uniques")});
    m_table->horizontalHeaderItem(ColWindow)->setToolTip(
        tr("hits in the window W; the table is sorted by this column (most "
           "first, ties by key). The level column (1 min / 1 h) is hidden when "
           "the level equals W."));
    m_table->horizontalHeaderItem(ColLevel)->setToolTip(
        tr("hits in the last 1 min / 5 min / 1 h (the switch above)"));
    m_table->horizontalHeaderItem(ColAllTime)->setToolTip(tr("hits since the counters started"));
    m_table->horizontalHeaderItem(ColUniques)
        ->setToolTip(
            tr("distinct visitors in the window (HyperLogLog estimate, about 0.8% error)"));
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Keys elide in the middle (full name in the tooltip); counts are never cut. A narrow table
    // hides the all-time, then the uniques column rather than squeezing the keys
    // (fitColumnsToWidth).
    fitColumns(*m_table, ColKey);
    m_table->installEventFilter(this);
    // The engine sorts (by window count): the header only shows it, a click does not re-sort.
    m_table->horizontalHeader()->setSortIndicatorShown(true);
    m_table->horizontalHeader()->setSortIndicator(ColWindow, Qt::DescendingOrder);
    m_table->horizontalHeader()->setSectionsClickable(false);
    m_columnFit = std::make_unique<ColumnFit>(*m_table);  // the headers with the sort indicator
    // Never narrower than the key's room and the window column (its header with the sort
    // indicator, or counts up to 999,999: from a million they are compact).
    m_table->setMinimumWidth(
        keyColumnMinimum() +
        std::max(m_table->horizontalHeader()->sectionSizeHint(ColWindow),
                 m_table->fontMetrics().horizontalAdvance(QStringLiteral("888,888")) + 8) +
        2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width());
    m_table->setToolTip(tr("The %1 keys with the most hits in the window W (ties by key), "
                           "exact; select one to plot it")
                            .arg(EngineWorker::kTopKeys));
    // A row the user picks (click or arrow keys) is plotted; refresh() moves the highlight to
    // the plotted key's row, or clears it when that key is not in the table.
    // Ctrl+click or Shift+click selects several rows: all of them are plotted.
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ItemsPanel::pickSelectedRows);
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("keyFilter"));
    m_filter->setPlaceholderText(tr("filter keys…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMinimumWidth(130);
    m_summary->setWordWrap(true);
    m_filter->setToolTip(
        tr("List only the keys containing this text (any case): the top "
           "keys among the matching ones"));
    connect(m_filter, &QLineEdit::textChanged, this, &ItemsPanel::keyFilterChanged);

    m_plot = new QCustomPlot;
    // QCustomPlot's minimum size grows with its labels (title, tick labels) without telling the
    // layout, which then kept a stale minimum until the next style change: switching to dark
    // moved the layout by 28 px (tst_window_fit underAWindowManagerEveryPolicyRowShows).
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        const QSize minimum = static_cast<const QWidget*>(m_plot)->minimumSizeHint();
        if (minimum != m_plotMinimum) {
            m_plotMinimum = minimum;
            m_plot->updateGeometry();
        }
    });
    m_plot->setObjectName(QStringLiteral("keyPlot"));
    // A sparkline of one key: 40 px of plot (QCustomPlot's default minimum is 50) leave the
    // policy comparison below its room at 1280x720 (tst_policy_comparison).
    m_plot->axisRect()->setMinimumSize(50, 40);
    m_plot->setToolTip(
        tr("The selected key's hits in the chosen window over time. "
           "Right-click to export as PNG."));
    m_graph = m_plot->addGraph();
    m_graph->setPen(QPen(QColor("#e8710a"), 2));
    fitCountLabel();
    m_plot->yAxis->setTicker(
        QSharedPointer<PlainNumberTicker>::create(PlainNumberTicker::Values::Whole));
    m_plot->yAxis->ticker()->setTickCount(kMostKeyCountTicks);
    setKeyTimeAxis(*m_plot->xAxis, TimeAxisMode::Clock, std::nullopt);
    m_plot->plotLayout()->insertRow(0);
    m_keyTitle =
        new QCPTextElement(m_plot, tr("no key selected"), QFont(font().family(), 10, QFont::Bold));
    m_plot->plotLayout()->addElement(0, 0, m_keyTitle);
    installExportMenu(*m_plot);
    m_plot->legend->setFont(QFont(font().family(), 8));
    m_plot->legend->setIconSize(12, 8);
    m_plot->legend->setVisible(false);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    installLegendToggle(*m_plot);
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        // The rotated label's length does not change the margins: no second pass for it.
        fitCountLabel();
        // The count axis first: its labels' width sets the room left for the time axis.
        if (fitTickCount(*m_plot->yAxis, kMostKeyCountTicks)) {
            relayout(*m_plot);
        }
        if (fitTickCount(*m_plot->xAxis, kMostKeyTimeTicks)) {
            relayout(*m_plot);
        }
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(levelRow);
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(m_filter);
    layout->addLayout(summaryRow);
    auto* row = new QHBoxLayout;
    row->addWidget(m_table, 3);
    row->addWidget(m_plot, 2);
    layout->addLayout(row, 1);
}

ItemsPanel::~ItemsPanel() = default;

void ItemsPanel::fitCountLabel() {
    // QCustomPlot centres the rotated label on the axis rect and lets a longer one run past
    // its ends: at 1024x768 "hits in last 5 min" ran into the key's title above the plot.
    const QString level = tr(kLevelNames[m_level]);
    const QStringList labels = {tr("hits in last %1").arg(level), tr("hits / %1").arg(level),
                                tr("hits")};
    const QFontMetrics metrics(m_plot->yAxis->labelFont());
    const int room = m_plot->axisRect()->height();
    QString label = labels.back();
    for (const QString& candidate : labels) {
        if (room <= 0 || metrics.horizontalAdvance(candidate) <= room) {
            label = candidate;
            break;
        }
    }
    if (m_plot->yAxis->label() != label) {
        m_plot->yAxis->setLabel(label);
    }
}

void ItemsPanel::applyTheme(const Theme& theme) {
    stylePlot(*m_plot, theme);
    m_keyTitle->setTextColor(theme.text);
    m_graph->setPen(QPen(theme.accent2, 2));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ItemsPanel::setTimeAxisMode(TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    setKeyTimeAxis(*m_plot->xAxis, mode, wrap);
}

void ItemsPanel::clear() {
    m_graph->data()->clear();
    for (QCPGraph* g : m_moreGraphs) {
        g->data()->clear();
    }
    m_table->setRowCount(0);
    m_summary->clear();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ItemsPanel::setLevel(int level) {
    m_level = std::clamp(level, 0, 2);
    m_levels->button(m_level)->setChecked(true);
    m_table->horizontalHeaderItem(ColLevel)->setText(tr(kLevelNames[m_level]));
    fitCountLabel();
    emitKeyView();
}

void ItemsPanel::selectKey(const QString& key) {
    selectKeys(key, {});
}

void ItemsPanel::selectKeys(const QString& key, const QStringList& more) {
    m_key = key.toStdString();
    m_moreKeys.clear();
    for (const QString& k : more) {
        if (k != key && m_moreKeys.size() < EngineWorker::kMoreKeys) {
            m_moreKeys.push_back(k.toStdString());
        }
    }
    emitKeyView();
}

void ItemsPanel::setKeyFilter(const QString& text) {
    m_filter->setText(text);
}

void ItemsPanel::pickSelectedRows() {
    if (m_refreshing) {
        return;
    }
    QList<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows(ColKey)) {
        rows << index.row();
    }
    if (rows.isEmpty()) {
        return;
    }
    std::sort(rows.begin(), rows.end());
    const auto keyOf = [this](int row) {
        QTableWidgetItem* item = m_table->item(row, ColKey);
        return item ? item->data(Qt::UserRole).toString() : QString();
    };
    // The plotted key stays primary while its row is selected (Ctrl+click adds keys to it);
    // otherwise the current row's key, or the first selected.
    int primary = -1;
    for (int row : rows) {
        if (keyOf(row).toStdString() == m_key) {
            primary = row;
        }
    }
    if (primary < 0) {
        const int current = m_table->currentRow();
        primary = rows.contains(current) ? current : rows.first();
    }
    QStringList more;
    for (int row : rows) {
        if (row != primary) {
            more << keyOf(row);
        }
    }
    selectKeys(keyOf(primary), more);
}

void ItemsPanel::emitKeyView() {
    Q_EMIT keyViewChanged(m_key, levelSeconds());
}

bool ItemsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_table && event->type() == QEvent::Resize) {
        fitColumnsToWidth();
    }
    return QWidget::eventFilter(watched, event);
}

int ItemsPanel::keyColumnMinimum() const {
    const QFontMetrics metrics(m_table->font());
    const int margin =
        2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1);
    return metrics.horizontalAdvance(QString(kKeyCharacters, QLatin1Char('x'))) + margin;
}

void ItemsPanel::fitColumnsToWidth() {
    // The level column shows only when it differs from the window (refresh()); then it gives
    // way last: after all time and the (estimated) uniques.
    if (!m_levelColumnShown && !m_table->isColumnHidden(ColLevel)) {
        m_table->setColumnHidden(ColLevel, true);
    }
    const int reserved = keyColumnMinimum() + m_columnFit->need(ColWindow);
    const QStringList hidden =
        m_levelColumnShown ? m_columnFit->apply(reserved, {ColAllTime, ColUniques, ColLevel})
                           : m_columnFit->apply(reserved, {ColAllTime, ColUniques});
    const QString tip =
        hidden.isEmpty()
            ? tr("The key (elided in the middle: the full key is in each cell's tooltip)")
            : tr("The key (elided in the middle: the full key is in each cell's tooltip). Hidden "
                 "for lack of room: %1; widen the panel to show them.")
                  .arg(hidden.join(QStringLiteral(", ")));
    if (m_table->horizontalHeaderItem(ColKey)->toolTip() != tip) {
        m_table->horizontalHeaderItem(ColKey)->setToolTip(tip);
    }
}

void ItemsPanel::setVisitorNote(const QString& note) {
    m_visitorNote = note;
}

QString ItemsPanel::noVisitorReason() const {
    return m_visitorNote.isEmpty() ? tr("these hits name no visitor") : m_visitorNote;
}

void ItemsPanel::setNoVisitorCell(QTableWidgetItem& item) const {
    const QString dash = QStringLiteral("–");
    if (item.text() != dash) {
        item.setText(dash);
    }
    const QString tip = tr("No distinct visitors to count: %1").arg(noVisitorReason());
    if (item.toolTip() != tip) {
        item.setToolTip(tip);
    }
}

std::chrono::seconds ItemsPanel::levelSeconds() const {
    static constexpr std::chrono::seconds kLevels[] = {
        std::chrono::seconds(60), std::chrono::seconds(300), std::chrono::seconds(3600)};
    return kLevels[m_level];
}

void ItemsPanel::refresh(const EngineFrame& frame) {
    const QLocale locale;
    const QScopedValueRollback<bool> refreshing(m_refreshing, true);
    m_table->setRowCount(int(frame.top.size()));
    QList<int> plottedRows;
    for (int row = 0; row < int(frame.top.size()); ++row) {
        const KeyRow& key = frame.top[std::size_t(row)];
        const std::uint64_t counts[] = {0, key.window, key.level, key.allTime, key.uniques};
        for (int c = 0; c < ItemColumnCount; ++c) {
            QTableWidgetItem* item = m_table->item(row, c);
            if (item == nullptr) {
                item = new QTableWidgetItem;
                item->setTextAlignment(c == ColKey ? Qt::AlignLeft | Qt::AlignVCenter
                                                   : Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(row, c, item);
            }
            if (c == ColKey) {
                const QString name = QString::fromStdString(key.key);
                setNameCell(*item, name);
                item->setData(Qt::UserRole, name);
            } else if (c == ColUniques && key.uniques == 0 && key.window > 0) {
                setNoVisitorCell(*item);
            } else {
                setCountCell(*item, counts[c]);
            }
        }
        if (key.key == frame.selectedKey) {
            plottedRows.prepend(row);
        } else if (std::find(m_moreKeys.begin(), m_moreKeys.end(), key.key) != m_moreKeys.end()) {
            plottedRows << row;
        }
    }
    // With the level as long as W (5 min, the default) its column would repeat the window's.
    m_levelColumnShown = levelSeconds().count() != frame.snapshot.windowSeconds;
    fitColumnsToWidth();
    QList<int> selectedRows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows(ColKey)) {
        selectedRows << index.row();
    }
    std::sort(selectedRows.begin(), selectedRows.end());
    QList<int> wanted = plottedRows;
    std::sort(wanted.begin(), wanted.end());
    if (plottedRows.isEmpty()) {
        m_table->clearSelection();
        m_table->setCurrentCell(-1, -1);
    } else if (selectedRows != wanted ||
               (frame.moreKeySeries.empty() && m_table->currentRow() != plottedRows.first())) {
        QItemSelection selection;
        for (int row : plottedRows) {
            selection.select(m_table->model()->index(row, 0),
                             m_table->model()->index(row, ItemColumnCount - 1));
        }
        m_table->setCurrentCell(plottedRows.first(), ColKey, QItemSelectionModel::NoUpdate);
        m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    }
    // Hits that name no visitor (statsd, Graphite, a trace without a visitor column) have no
    // distinct visitors to count: "–" and why, never a 0 that reads as a measurement.
    const bool noVisitors = frame.allKeysUniques == 0 && frame.allKeysWindow > 0;
    // Keys forgotten under the key memory cap: said, so that a missing key is not a mystery.
    const QString folded =
        frame.foldedKeys == 0
            ? QString()
            : tr("; %1 %2 (%3 %4) folded: more distinct keys than the key memory cap (%5) "
                 "holds, the least recently hit are forgotten")
                  .arg(
                      compactCount(frame.foldedKeys), noun(frame.foldedKeys, tr("key"), tr("keys")),
                      compactCount(frame.foldedHits), noun(frame.foldedHits, tr("hit"), tr("hits")),
                      formatBytes(frame.keyMemoryCap));
    m_summary->setText(
        frame.snapshot.empty ? QString()
        : noVisitors
            ? tr("all keys: %1 %2 in the window; visitors: – (%3)")
                      .arg(compactCount(frame.allKeysWindow),
                           noun(frame.allKeysWindow, tr("hit"), tr("hits")), noVisitorReason()) +
                  folded
            : tr("all keys: %1 %2, about %3 distinct %4 in the window")
                      .arg(compactCount(frame.allKeysWindow),
                           noun(frame.allKeysWindow, tr("hit"), tr("hits")),
                           compactCount(frame.allKeysUniques),
                           noun(frame.allKeysUniques, tr("visitor"), tr("visitors"))) +
                  folded);
    QVector<double> times;
    QVector<double> values;
    for (std::size_t i = 0; i < frame.keySeries.size(); ++i) {
        times.push_back(double(frame.keySeriesFrom + Timestamp(i)));
        values.push_back(double(frame.keySeries[i]));
    }
    m_graph->setData(times, values, true);
    m_graph->setName(QString::fromStdString(frame.selectedKey));
    static const QColor kMoreColors[] = {QColor("#1a73e8"), QColor("#188038"), QColor("#a142f4"),
                                         QColor("#d93025"), QColor("#00838f"), QColor("#795548"),
                                         QColor("#f9ab00")};
    for (std::size_t i = 0; i < frame.moreKeySeries.size(); ++i) {
        if (i >= m_moreGraphs.size()) {
            QCPGraph* g = m_plot->addGraph();
            g->setPen(QPen(kMoreColors[i % std::size(kMoreColors)], 1.5));
            m_moreGraphs.push_back(g);
        }
        QCPGraph* g = m_moreGraphs[i];
        const KeySeriesValues& series = frame.moreKeySeries[i];
        QVector<double> moreTimes;
        QVector<double> moreValues;
        for (std::size_t j = 0; j < series.values.size(); ++j) {
            moreTimes.push_back(double(frame.keySeriesFrom + Timestamp(j)));
            moreValues.push_back(double(series.values[j]));
        }
        g->setData(moreTimes, moreValues, true);
        g->setName(QString::fromStdString(series.key));
        if (!g->visible() && g->property("shown").toBool() == false) {
            g->setVisible(true);
        }
        g->setProperty("shown", true);
        g->addToLegend();
    }
    for (std::size_t i = frame.moreKeySeries.size(); i < m_moreGraphs.size(); ++i) {
        m_moreGraphs[i]->data()->clear();
        m_moreGraphs[i]->removeFromLegend();
        m_moreGraphs[i]->setProperty("shown", false);
    }
    m_plot->legend->setVisible(!frame.moreKeySeries.empty());
    // One key: its name elided in the middle to the plot's width (the full key is in the table's
    // tooltip), so the title is never cut at its start.
    const QString suffix = tr(" · last %1").arg(tr(kLevelNames[m_level]));
    const QFontMetrics titleMetrics(m_keyTitle->font());
    m_keyTitle->setText(
        frame.selectedKey.empty() ? tr("no key selected")
        : frame.moreKeySeries.empty()
            ? titleMetrics.elidedText(
                  QString::fromStdString(frame.selectedKey), Qt::ElideMiddle,
                  std::max(40, m_plot->width() - 16 - titleMetrics.horizontalAdvance(suffix))) +
                  suffix
            : tr("%1 keys: hits in the last %2")
                  .arg(frame.moreKeySeries.size() + 1)
                  .arg(tr(kLevelNames[m_level])));
    const double head = double(frame.snapshot.head);
    m_plot->xAxis->setRange(head - double(EngineWorker::kKeySeriesSeconds), head + 1);
    bool found = false;
    double top = 0.0;
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        if (!m_plot->graph(i)->visible()) {
            continue;
        }
        const QCPRange range =
            m_plot->graph(i)->getValueRange(found, QCP::sdBoth, m_plot->xAxis->range());
        if (found) {
            top = std::max(top, range.upper);
        }
    }
    m_plot->yAxis->setRange(0, top > 0 ? std::max(1.0, top * 1.2) : 1.0);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ItemsPanel::showFrame(const FrameContext& context) {
    refresh(context.frame);
}

void ItemsPanel::followTimeAxis(TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    setTimeAxisMode(mode, wrap);
}

void ItemsPanel::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("view/itemsLevel"), level());
}

void ItemsPanel::restoreSettings(SettingsReader& settings) {
    setLevel(int(settings.wholeNumber(QStringLiteral("view/itemsLevel"), 1, 0, 2)));
}

}  // namespace hitcounter::ui
