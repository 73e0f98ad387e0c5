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
// Whole minutes, "hh:mm": the key plot is narrow and shows two minutes.
class MinuteTicker : public QCPAxisTickerDateTime {
protected:
    double getTickStep(const QCPRange&) override { return 60.0; }
};

void setKeyTimeAxis(QCPAxis& axis, TimeAxisMode mode) {
    setTimeAxis(axis, mode);
    if (mode == TimeAxisMode::Clock) {
        auto ticker = QSharedPointer<MinuteTicker>::create();
        ticker->setDateTimeFormat(QStringLiteral("hh:mm"));
        axis.setTicker(ticker);
    } else {
        axis.ticker()->setTickCount(3);
    }
}

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
    setKeyTimeAxis(*m_plot->xAxis, TimeAxisMode::Clock);
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
    setKeyTimeAxis(*m_plot->xAxis, mode);
}

void ItemsPanel::clear() {
    m_graph->data()->clear();
    m_top.clear();
    m_uniques.clear();
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

std::chrono::seconds ItemsPanel::levelSeconds() const {
    static constexpr std::chrono::seconds kLevels[] = {
        std::chrono::seconds(60), std::chrono::seconds(300), std::chrono::seconds(3600)};
    return kLevels[m_level];
}

void ItemsPanel::backfill(Engine& engine) {
    KeyedCounter& keys = engine.keyed().keys();
    const Timestamp head = engine.history().back().second;
    const Timestamp from = std::max(head - kBackfillSeconds, engine.history().front().second);
    QVector<double> times;
    QVector<double> values;
    for (Timestamp t = from; t <= head; ++t) {
        times.push_back(double(t));
        values.push_back(double(keys.countLast(m_key, t, levelSeconds())));
    }
    m_graph->setData(times, values, true);
    m_lastPlotted = head;
    m_needsBackfill = false;
}

void ItemsPanel::refresh(Engine& engine) {
    if (engine.history().empty()) {
        return;
    }
    const Timestamp head = engine.history().back().second;
    KeyedCounter& keys = engine.keyed().keys();
    const QLocale locale;
    // Spread the costly unique-visitor estimates (sketch merges) over frames: one step per
    // call, the table every kSteps calls, one row's uniques at each other step.
    const int step = m_step++ % kSteps;
    if (step == 0 || m_top.empty()) {
        m_top = keys.top(kTopK, head);
        m_table->setRowCount(int(m_top.size()));
        for (int row = 0; row < int(m_top.size()); ++row) {
            const std::string& key = m_top[std::size_t(row)].key;
            const QString values[] = {
                QString::fromStdString(key),
                locale.toString(qulonglong(keys.countLast(key, head, levelSeconds()))),
                locale.toString(qulonglong(keys.allTime(key))),
                m_uniques.value(QString::fromStdString(key), QStringLiteral("…"))};
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
            if (key == m_key) {
                m_table->selectRow(row);
            }
        }
    } else if (step == 1) {
        const KeyStats all = engine.keyed().overall(head);
        m_summary->setText(tr("all keys: %1 hits, about %2 distinct visitors in the window")
                               .arg(locale.toString(qulonglong(all.window)))
                               .arg(locale.toString(qulonglong(all.uniques))));
    } else if (std::size_t(step - 2) < m_top.size()) {
        const int row = step - 2;
        const std::string& key = m_top[std::size_t(row)].key;
        const QString uniques = locale.toString(qulonglong(keys.uniques(key, head)));
        m_uniques.insert(QString::fromStdString(key), uniques);
        if (QTableWidgetItem* item = m_table->item(row, ColUniques)) {
            item->setText(uniques);
        }
    }
    if (m_key.empty() && !m_top.empty()) {
        m_key = m_top.front().key;
        m_needsBackfill = true;
        m_table->selectRow(0);
    }
    if (m_key.empty()) {
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    if (m_needsBackfill) {
        backfill(engine);
    } else if (head > m_lastPlotted) {
        for (Timestamp t = std::max(m_lastPlotted + 1, head - kBackfillSeconds); t <= head; ++t) {
            m_graph->addData(double(t), double(keys.countLast(m_key, t, levelSeconds())));
        }
        m_graph->data()->removeBefore(double(head - kBackfillSeconds * 2));
        m_lastPlotted = head;
    }
    m_keyTitle->setText(
        tr("%1: hits in the last %2").arg(QString::fromStdString(m_key), tr(kLevelNames[m_level])));
    m_plot->xAxis->setRange(double(head) - double(kBackfillSeconds), double(head) + 1);
    bool found = false;
    const QCPRange range = m_graph->getValueRange(found, QCP::sdBoth, m_plot->xAxis->range());
    m_plot->yAxis->setRange(0, found ? std::max(1.0, range.upper * 1.2) : 1.0);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace hitcounter::ui
