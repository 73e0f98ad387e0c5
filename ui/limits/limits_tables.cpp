#include "ui/limits/limits_tables.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/common/column_fit.h"
#include "ui/common/number_text.h"
#include "ui/common/theme.h"
#include "ui/limits/limiter_style.h"
#include "ui/plot/plot_layout.h"

namespace hitcounter::ui {

LimitsTables::LimitsTables(QWidget* parent) : QSplitter(Qt::Horizontal, parent) {
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("limitsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);

    m_lanes = new QTableWidget(0, LaneColumnCount);
    m_lanes->setObjectName(QStringLiteral("limitsLanes"));
    m_lanes->setHorizontalHeaderLabels({tr("algorithm"), tr("accepted"), tr("rejected"),
                                        tr("rej. %"), tr("max in W"), tr("s over L"), tr("memory"),
                                        tr("keys")});
    m_lanes->horizontalHeaderItem(ColMaxWindow)
        ->setToolTip(tr("max_in_any_window: the most accepted requests of one key in any (t - W, "
                        "t]; above L (red) the algorithm let a burst through"));
    m_lanes->horizontalHeaderItem(ColBursts)->setToolTip(
        tr("seconds in which some key went over L in its window"));
    m_lanes->horizontalHeaderItem(ColMemory)->setToolTip(
        tr("bytes the limiter holds now (idle keys are evicted)"));
    m_lanes->verticalHeader()->setVisible(false);
    m_lanes->verticalHeader()->setDefaultSectionSize(22);
    m_lanes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_lanes->setSelectionMode(QAbstractItemView::NoSelection);
    // Every figure sized to its content (never cut); the algorithm's name takes the rest. When
    // narrow, keys, memory, s over L and rej. % give way in that order (named in the algorithm
    // header's tooltip) rather than cut a name or a number or scroll sideways.
    fitColumns(*m_lanes, ColAlgorithm);
    m_lanes->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_lanesFit = std::make_unique<ColumnFit>(*m_lanes);
    m_lanes->installEventFilter(this);  // resizes: fitLanesColumns

    auto* keysTitle = new QLabel(tr("<b>Keys rejected most</b> (since the lab started)"));
    keysTitle->setObjectName(QStringLiteral("limitsKeysTitle"));
    m_keys = new QTableWidget(0, 0);
    m_keys->setObjectName(QStringLiteral("limitsKeys"));
    m_keys->verticalHeader()->setDefaultSectionSize(22);
    m_keys->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_keys->setSelectionMode(QAbstractItemView::NoSelection);
    m_keys->verticalHeader()->setVisible(false);
    m_keys->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_keys->setTextElideMode(Qt::ElideMiddle);
    m_keys->setToolTip(
        tr("The keys with the most rejected requests, per algorithm (a "
           "space-saving sketch of 64 keys per algorithm: exact while fewer keys "
           "are rejected; – : not among that algorithm's most rejected)"));

    auto* lanesBox = new QWidget;
    auto* lanesLayout = new QVBoxLayout(lanesBox);
    lanesLayout->setContentsMargins(0, 0, 0, 0);
    lanesLayout->addWidget(m_summary);
    lanesLayout->addWidget(m_lanes, 1);
    auto* keysBox = new QWidget;
    auto* keysLayout = new QVBoxLayout(keysBox);
    keysLayout->setContentsMargins(0, 0, 0, 0);
    keysLayout->addWidget(keysTitle);
    keysLayout->addWidget(m_keys, 1);
    addWidget(lanesBox);
    addWidget(keysBox);
    setStretchFactor(0, 3);
    setStretchFactor(1, 2);
}

LimitsTables::~LimitsTables() = default;

bool LimitsTables::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_lanes && (event->type() == QEvent::Resize || event->type() == QEvent::Show)) {
        fitLanesColumns();
    }
    return QWidget::eventFilter(watched, event);
}

void LimitsTables::fitLanesColumns() {
    const int reserved = m_lanesFit->need(ColAlgorithm) + m_lanesFit->need(ColAccepted) +
                         m_lanesFit->need(ColRejected) + m_lanesFit->need(ColMaxWindow);
    const QStringList hidden =
        m_lanesFit->apply(reserved, {ColKeys, ColMemory, ColBursts, ColRejectedPct});
    QTableWidgetItem* header = m_lanes->horizontalHeaderItem(ColAlgorithm);
    const QString tip =
        tr("The rate limiters, in their colours in the charts") +
        (hidden.isEmpty() ? QString()
                          : tr(". Hidden for lack of room: %1; widen the table to show them.")
                                .arg(hidden.join(QStringLiteral(", "))));
    if (header->toolTip() != tip) {
        header->setToolTip(tip);
    }
}

void LimitsTables::setLimiters(const std::vector<std::string>& names) {
    m_lanes->setRowCount(int(names.size()));
    for (std::size_t i = 0; i < names.size(); ++i) {
        auto* item = new QTableWidgetItem(limiterTitle(names[i]));
        item->setForeground(limiterColor(names[i]));
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
        m_lanes->setItem(int(i), ColAlgorithm, item);
        for (int c = ColAccepted; c < LaneColumnCount; ++c) {
            auto* cell = new QTableWidgetItem;
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_lanes->setItem(int(i), c, cell);
        }
    }
    m_keys->clear();
    m_keys->setColumnCount(int(names.size()) + 1);
    m_keys->setRowCount(0);
    QStringList headers{tr("key")};
    for (const std::string& name : names) {
        headers << limiterName(name);
    }
    m_keys->setHorizontalHeaderLabels(headers);
    m_keys->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (std::size_t i = 0; i < names.size(); ++i) {
        m_keys->horizontalHeaderItem(int(i) + 1)->setForeground(limiterColor(names[i]));
    }
}

void LimitsTables::showFrame(const LimitsFrame& frame) {
    const QLocale locale;
    const LimitsOptions& o = frame.options;
    if (!o.enabled) {
        m_summary->setText(tr("<i>The lab is off.</i>"));
    } else {
        m_summary->setText(
            tr("<b>%1 requests per %2 s</b> %3 · %4 requests decided by every algorithm")
                .arg(locale.toString(qulonglong(o.limit.limit)))
                .arg(o.limit.per.count())
                .arg(o.perKey ? tr("for each key") : tr("for all traffic together"))
                .arg(locale.toString(qulonglong(frame.requests))));
    }
    for (std::size_t i = 0; i < frame.lanes.size() && int(i) < m_lanes->rowCount(); ++i) {
        const LimitLaneState& lane = frame.lanes[i];
        const int row = int(i);
        auto set = [&](int column, const QString& text) {
            if (QTableWidgetItem* item = m_lanes->item(row, column); item && item->text() != text) {
                item->setText(text);
            }
        };
        const Count decided = lane.accepted + lane.rejected;
        set(ColAccepted, compactCount(lane.accepted));
        set(ColRejected, compactCount(lane.rejected));
        for (const auto& [column, n] : {std::pair{int(ColAccepted), lane.accepted},
                                        std::pair{int(ColRejected), lane.rejected}}) {
            if (QTableWidgetItem* item = m_lanes->item(row, column)) {
                setCountCell(*item, n);  // the exact value in the tooltip
            }
        }
        set(ColRejectedPct,
            decided == 0
                ? QStringLiteral("–")
                : QString::number(100.0 * double(lane.rejected) / double(decided), 'f', 1));
        set(ColMaxWindow, compactCount(lane.maxInAnyWindow));
        set(ColBursts, locale.toString(qulonglong(lane.burstSeconds)));
        set(ColMemory, formatBytes(lane.memoryBytes));
        set(ColKeys, locale.toString(qulonglong(lane.liveKeys)));
        if (QTableWidgetItem* item = m_lanes->item(row, ColMaxWindow)) {
            const bool over = lane.maxInAnyWindow > o.limit.limit;
            item->setForeground(over ? alarmColor() : palette().color(QPalette::Text));
            QFont font = item->font();
            font.setBold(over);
            item->setFont(font);
            item->setToolTip(lane.maxInAnyWindow == 0
                                 ? QString()
                                 : tr("key %1, window ending at %2")
                                       .arg(QString::fromStdString(lane.maxWindowKey))
                                       .arg(lane.maxWindowEnd));
        }
    }
    const std::size_t shownKeys =
        std::min(frame.rejectedKeys.size(), std::max<std::size_t>(frame.options.topKeys, 1));
    m_keys->setRowCount(int(shownKeys));
    for (std::size_t r = 0; r < shownKeys; ++r) {
        const RejectedKey& key = frame.rejectedKeys[r];
        for (int c = 0; c < m_keys->columnCount(); ++c) {
            QString text;
            if (c == 0) {
                text = QString::fromStdString(key.key);
            } else if (std::size_t(c - 1) < key.rejected.size()) {
                const Count n = key.rejected[std::size_t(c - 1)];
                text = n == 0 ? QStringLiteral("–") : locale.toString(qulonglong(n));
            }
            QTableWidgetItem* item = m_keys->item(int(r), c);
            if (item == nullptr) {
                item = new QTableWidgetItem;
                item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter
                                              : Qt::AlignRight | Qt::AlignVCenter);
                m_keys->setItem(int(r), c, item);
            }
            if (c == 0) {
                setNameCell(*item, text);  // elided in the middle, the full key in the tooltip
            } else if (std::size_t(c - 1) < key.rejected.size() &&
                       key.rejected[std::size_t(c - 1)] > 0) {
                setCountCell(*item, key.rejected[std::size_t(c - 1)]);
            } else if (item->text() != text) {
                item->setText(text);
            }
        }
    }
    fitLanesColumns();  // the figures' widths may have changed
}

}  // namespace hitcounter::ui
