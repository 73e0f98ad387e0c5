#include "ui/items_panel.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QRadioButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/plot_export.h"
#include "ui/qcp.h"
#include "ui/theme.h"
#include "ui/time_axis.h"

namespace hitcounter::ui {

namespace {
enum Column { ColKey, ColLevel, ColAllTime, ColUniques, ColumnCount };
constexpr Timestamp kBackfillSeconds = 120;
const char* const kLevelNames[] = {"1 min", "5 min", "1 h"};
}  // namespace

ItemsPanel::ItemsPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("itemsPanel"));
    auto* title = new QLabel(tr("<b>Items</b>: hottest keys in the window"));
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("itemsSummary"));
    m_summary->setToolTip(tr("All keys together: hits and distinct visitors in the window"));

    m_levels = new QButtonGroup(this);
    auto* levelRow = new QHBoxLayout;
    levelRow->addWidget(title);
    levelRow->addStretch(1);
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

    m_table = new QTableWidget(0, ColumnCount);
    m_table->setObjectName(QStringLiteral("topKTable"));
    m_table->setHorizontalHeaderLabels({tr("key"), tr("5 min"), tr("all time"), tr("uniques")});
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
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(ColKey, QHeaderView::Stretch);
    m_table->setToolTip(tr("The %1 keys with the most hits in the window W (ties by key), "
                           "exact; select one to plot it")
                            .arg(kTopK));
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (QTableWidgetItem* item = m_table->item(row, ColKey)) {
            m_userSelected = true;
            selectKey(item->text());
        }
    });

    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("keyPlot"));
    m_plot->setToolTip(
        tr("The selected key's hits in the chosen window over time. "
           "Right-click to export as PNG."));
    m_graph = m_plot->addGraph();
    m_graph->setPen(QPen(QColor("#e8710a"), 2));
    m_plot->yAxis->setLabel(tr("hits in last 5 min"));
    setTimeAxis(*m_plot->xAxis, TimeAxisMode::Clock);
    m_plot->xAxis->ticker()->setTickCount(3);
    m_plot->plotLayout()->insertRow(0);
    m_keyTitle =
        new QCPTextElement(m_plot, tr("no key selected"), QFont(font().family(), 10, QFont::Bold));
    m_plot->plotLayout()->addElement(0, 0, m_keyTitle);
    installExportMenu(*m_plot);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(levelRow);
    layout->addWidget(m_summary);
    auto* row = new QHBoxLayout;
    row->addWidget(m_table, 5);
    row->addWidget(m_plot, 4);
    layout->addLayout(row, 1);
}

void ItemsPanel::applyTheme(const Theme& theme) {
    stylePlot(*m_plot, theme);
    m_keyTitle->setTextColor(theme.text);
    m_graph->setPen(QPen(theme.accent2, 2));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ItemsPanel::setTimeAxisMode(TimeAxisMode mode) {
    setTimeAxis(*m_plot->xAxis, mode);
    m_plot->xAxis->ticker()->setTickCount(3);
}

void ItemsPanel::clear() {
    m_graph->data()->clear();
    m_needsBackfill = true;
    m_lastPlotted = 0;
    if (!m_userSelected) {
        m_key.clear();
    }
}

void ItemsPanel::setLevel(int level) {
    m_level = std::clamp(level, 0, 2);
    m_levels->button(m_level)->setChecked(true);
    m_table->horizontalHeaderItem(ColLevel)->setText(tr(kLevelNames[m_level]));
    m_plot->yAxis->setLabel(tr("hits in last %1").arg(tr(kLevelNames[m_level])));
    clear();
}

void ItemsPanel::selectKey(const QString& key) {
    m_key = key.toStdString();
    clear();
}

void ItemsPanel::backfill(Engine& engine) {
    m_graph->data()->clear();
    const Timestamp head = engine.history().empty() ? 0 : engine.history().back().second;
    const Timestamp from = std::max(head - kBackfillSeconds, engine.history().front().second);
    QVector<double> keys;
    QVector<double> values;
    for (Timestamp t = from; t <= head; ++t) {
        const KeyStats s = engine.keyed().stats(m_key, t);
        keys.push_back(double(t));
        values.push_back(std::size_t(m_level) < s.levels.size() ? double(s.levels[m_level].count)
                                                                : 0.0);
    }
    m_graph->setData(keys, values, true);
    m_lastPlotted = head;
    m_needsBackfill = false;
}

void ItemsPanel::refresh(Engine& engine) {
    if (engine.history().empty()) {
        return;
    }
    const Timestamp head = engine.history().back().second;
    KeyedMonitor& keyed = engine.keyed();
    const std::vector<KeyCount> top = keyed.top(kTopK, head);
    const KeyStats all = keyed.overall(head);
    const QLocale locale;
    m_summary->setText(tr("%1 keys in the top list · all keys: %2 hits, about %3 distinct "
                          "visitors in the window")
                           .arg(top.size())
                           .arg(locale.toString(qulonglong(all.window)))
                           .arg(locale.toString(qulonglong(all.uniques))));
    m_table->setRowCount(int(top.size()));
    for (int row = 0; row < int(top.size()); ++row) {
        const KeyCount& k = top[std::size_t(row)];
        const KeyStats s = keyed.stats(k.key, head);
        const QString values[] = {
            QString::fromStdString(k.key),
            locale.toString(qulonglong(
                std::size_t(m_level) < s.levels.size() ? s.levels[std::size_t(m_level)].count : 0)),
            locale.toString(qulonglong(s.allTime)), locale.toString(qulonglong(s.uniques))};
        for (int c = 0; c < ColumnCount; ++c) {
            QTableWidgetItem* item = m_table->item(row, c);
            if (item == nullptr) {
                item = new QTableWidgetItem;
                item->setTextAlignment(c == ColKey ? Qt::AlignLeft | Qt::AlignVCenter
                                                   : Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(row, c, item);
            }
            if (item->text() != values[c]) {
                item->setText(values[c]);
            }
        }
        if (k.key == m_key) {
            m_table->selectRow(row);
        }
    }
    if (m_key.empty() && !top.empty()) {
        m_key = top.front().key;
        m_needsBackfill = true;
        m_table->selectRow(0);
    }
    if (m_key.empty()) {
        return;
    }
    if (m_needsBackfill) {
        backfill(engine);
    } else if (head > m_lastPlotted) {
        const KeyStats s = keyed.stats(m_key, head);
        m_graph->addData(double(head), std::size_t(m_level) < s.levels.size()
                                           ? double(s.levels[std::size_t(m_level)].count)
                                           : 0.0);
        m_graph->data()->removeBefore(double(head - engine.options().window.count() * 2));
        m_lastPlotted = head;
    }
    m_keyTitle->setText(
        tr("%1: last %2").arg(QString::fromStdString(m_key), tr(kLevelNames[m_level])));
    m_plot->xAxis->setRange(double(head) - double(kBackfillSeconds), double(head) + 1);
    bool found = false;
    const QCPRange range = m_graph->getValueRange(found, QCP::sdBoth, m_plot->xAxis->range());
    m_plot->yAxis->setRange(0, found ? std::max(1.0, range.upper * 1.2) : 1.0);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace hitcounter::ui
