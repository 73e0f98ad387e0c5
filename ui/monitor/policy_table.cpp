#include "ui/monitor/policy_table.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QResizeEvent>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include "core/engine/engine.h"
#include "ui/common/column_fit.h"
#include "ui/common/number_text.h"
#include "ui/common/theme.h"
#include "ui/monitor/policy_cost_text.h"
#include "ui/plot/plot_layout.h"

namespace hitcounter::ui {

namespace {

enum PolicyColumn {
    ColPolicy,
    ColCount,
    ColError,
    ColErrorPct,
    ColMemory,
    ColNsPerHit,
    ColNsPerGetHits,
    PolicyColumnCount
};
// Pixels on each side of a cell's text beyond the style's margins: neighbouring figures stand
// apart ("0.00" and "16.5 kB" touched at 1280x720).
constexpr int kTextPadding = 2;

}  // namespace

PolicyTable::PolicyTable(QWidget* parent) : QWidget(parent) {
    m_table = new QTableWidget(0, PolicyColumnCount, this);
    m_table->setObjectName(QStringLiteral("policyTable"));
    // The cost headers on two lines: "ns per hit" and "ns per getHits" on one would take the
    // width the numbers need at 1280 px.
    m_table->setHorizontalHeaderLabels({tr("policy"), tr("count"), tr("error"), tr("error %"),
                                        tr("memory"), tr("ns per\nhit"), tr("ns per\ngetHits")});
    m_table->horizontalHeaderItem(ColCount)->setToolTip(
        tr("window count: hits in the window by this policy"));
    m_table->horizontalHeaderItem(ColError)->setToolTip(tr("count minus the exact count (ring)"));
    m_table->horizontalHeaderItem(ColMemory)->setToolTip(
        tr("bytes the policy holds now; a policy over the memory cap is stopped"));
    showCostMethod(PolicyCosts{});  // the header tooltips say how the figures will be measured
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(kRowHeight);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Never a vertical scroll bar: the table is never shorter than its rows (setPolicies), so
    // its width goes to the columns (ColumnFit::room).
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    // Every column sized to its content, so numbers are never cut, plus an equal share of the
    // spare width (fitColumns: the stretched last column took 300 px at 1920x1080).
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_columnFit =
        std::make_unique<ColumnFit>(*m_table, kTextPadding, ColumnFit::Widths::NeverShrink);
    fitColumns();
    m_table->installEventFilter(this);  // resizes: fitColumns
    m_table->setToolTip(
        tr("Current values of every policy at the newest second. Click a policy's name to "
           "hide or show it in the charts."));
    // The table is the legend: a click on a policy's name hides or shows it, as a click on a
    // legend entry does (no check box: its width would cut the numbers at 1280 px).
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int column) {
        if (QTableWidgetItem* item = m_table->item(row, ColPolicy); item && column == ColPolicy) {
            Q_EMIT policyClicked(item->text());
        }
    });

    const QString longNote =
        (tr("Exact: ring, deque, sorted, naive, scanring. <b>coarse</b> (60 s buckets) "
            "over-counts by up to a bucket; <b>estimate</b> errs when traffic is uneven. "
            "<b>naive</b> keeps 16 B per hit call, so a policy over %1 MiB is stopped "
            "(<i>stopped at cap</i>).")
             .arg(EngineOptions{}.policyMemoryCap >> 20));
    // Under the table, the whole note wrapped where the pane is taller than the rows need
    // (1920x1080 left an empty block there), else one line elided with "…" at the pane's edge,
    // never widening it; the whole note always in its tooltip. Every policy's row keeps its
    // room on a short screen (a note wrapped whatever its height took the last row's).
    m_noteText =
        tr("Exact: ring, deque, sorted, naive, scanring; coarse and estimate are "
           "approximate (hover for why).");
    m_noteWhole = QTextDocumentFragment::fromHtml(longNote).toPlainText();
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("policyNote"));
    m_note->setToolTip(QStringLiteral("<p>%1</p>").arg(longNote));
    m_note->setTextFormat(Qt::PlainText);
    m_note->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // Its width ignored (the pane's, never widened by the text); one line tall at least, and
    // what the table's rows leave when they are at their tallest.
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_note->installEventFilter(this);
    showNoteMark(QString());

    // The rows grow up to kTallestRow where the pane is tall; the note takes what is left.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_note, 0);
}

PolicyTable::~PolicyTable() = default;

void PolicyTable::setPolicies(const std::vector<std::string>& names) {
    m_table->setRowCount(static_cast<int>(names.size()));
    m_columnFit->forgetWidths();
    // Every policy's row shows, whatever the window's height: the table is never shorter than
    // its rows (the splitter above leaves the live plot and the ring what is left).
    const int chrome = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    m_table->setMinimumHeight(m_table->rowCount() * kRowHeight + chrome);
    m_table->setMaximumHeight(m_table->rowCount() * kTallestRow + chrome);
    for (std::size_t p = 0; p < names.size(); ++p) {
        const QString name = QString::fromStdString(names[p]);
        auto* item = new QTableWidgetItem(name);
        item->setForeground(policyColor(name));
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
        m_table->setItem(static_cast<int>(p), ColPolicy, item);
        for (int c = ColCount; c < PolicyColumnCount; ++c) {
            auto* cell = new QTableWidgetItem;
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(static_cast<int>(p), c, cell);
        }
    }
}

void PolicyTable::showHidden(const QString& name, bool hidden) {
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem* item = m_table->item(row, ColPolicy);
        if (item == nullptr || item->text() != name) {
            continue;
        }
        // Greyed and struck through, as a hidden series' legend entry (series_legend.h).
        QFont font = item->font();
        font.setStrikeOut(hidden);
        QColor color = policyColor(name);
        if (hidden) {
            color.setAlpha(110);
        }
        item->setFont(font);
        item->setForeground(color);
    }
}

void PolicyTable::showCostMethod(const PolicyCosts& costs) {
    const QString method = costMethodText(costs);
    const QString perHit = tr("ns per hit: what one hit(t, n) call costs. ") + method;
    const QString perGetHits = tr("ns per getHits: what one count(t) call costs. ") + method;
    if (m_table->horizontalHeaderItem(ColNsPerHit)->toolTip() != perHit) {
        m_table->horizontalHeaderItem(ColNsPerHit)->setToolTip(perHit);
        m_table->horizontalHeaderItem(ColNsPerGetHits)->setToolTip(perGetHits);
    }
}

void PolicyTable::showValues(const EngineSnapshot& snapshot, const PolicyCosts& costs) {
    showCostMethod(costs);
    const QLocale locale;
    for (std::size_t p = 0; p < snapshot.policies.size(); ++p) {
        const PolicyState& s = snapshot.policies[p];
        const int row = static_cast<int>(p);
        auto set = [&](int column, const QString& text) {
            if (QTableWidgetItem* item = m_table->item(row, column); item && item->text() != text) {
                item->setText(text);
            }
        };
        // Counts from a million up in compact units, the exact value in the tooltip.
        const QString signedError =
            (s.error < 0 ? QStringLiteral("-") : QString()) +
            compactCount(s.error < 0 ? std::uint64_t(-(s.error + 1)) + 1 : std::uint64_t(s.error));
        const QString exact[PolicyColumnCount] = {
            QString(), locale.toString(qulonglong(s.count)),
            s.stopped ? QString() : locale.toString(qlonglong(s.error))};
        set(ColCount, compactCount(s.count));
        set(ColError, s.stopped ? QStringLiteral("–") : signedError);
        set(ColErrorPct,
            s.stopped ? QStringLiteral("–") : QStringLiteral("%1").arg(s.errorPercent, 0, 'f', 2));
        set(ColMemory, s.stopped ? tr("stopped at cap") : memoryText(s.memoryBytes));
        const PolicyCost* cost = costOf(costs, s.name);
        set(ColNsPerHit, cost ? nsText(cost->nsPerHit.median) : QStringLiteral("\u2013"));
        set(ColNsPerGetHits, cost ? nsText(cost->nsPerGetHits.median) : QStringLiteral("\u2013"));
        const QString costTip =
            cost == nullptr
                ? costMethodText(costs)
                : tr("The median of %1 samples; spread %2 to %3 ns per hit, %4 to %5 ns per "
                     "getHits (hover the bars for how they were measured).")
                      .arg(cost->samples)
                      .arg(nsText(cost->nsPerHit.low), nsText(cost->nsPerHit.high),
                           nsText(cost->nsPerGetHits.low), nsText(cost->nsPerGetHits.high));
        QString why;
        if (s.stopped) {
            why = tr("%1 was stopped when it held %2, over the memory cap of %3 per policy. "
                     "It keeps 16 B for every hit() call and never forgets one, so it grows "
                     "with every call (one per second of each run of hits: a replay or "
                     "warm-up whose batches span many seconds makes the most). It is no "
                     "longer fed: its count and memory are those of that moment (its costs "
                     "are measured on fresh instances, so they go on).")
                      .arg(QString::fromStdString(s.name))
                      .arg(formatBytes(s.memoryBytes), formatBytes(snapshot.policyMemoryCap));
        }
        for (int c = ColPolicy; c < PolicyColumnCount; ++c) {
            if (QTableWidgetItem* item = m_table->item(row, c)) {
                QString tip = s.stopped ? why : QString();
                if (c == ColNsPerHit || c == ColNsPerGetHits) {
                    tip = tip.isEmpty() ? costTip : costTip + QStringLiteral("\n\n") + tip;
                }
                if (c < ColErrorPct && !exact[c].isEmpty() && exact[c] != item->text()) {
                    tip = tip.isEmpty() ? exact[c] : exact[c] + QStringLiteral("\n\n") + tip;
                }
                if (item->toolTip() != tip) {
                    item->setToolTip(tip);
                }
            }
        }
    }
    fitColumns();
}

void PolicyTable::fitColumns() {
    const int reserved = m_columnFit->need(ColPolicy) + m_columnFit->need(ColCount) +
                         m_columnFit->need(ColMemory) + m_columnFit->need(ColNsPerHit) +
                         m_columnFit->need(ColNsPerGetHits);
    const QStringList hidden = m_columnFit->apply(reserved, {ColError, ColErrorPct});
    m_columnFit->spread();
    // Never narrower than the columns that always show (a policy stopped at the cap widens the
    // memory column): the charts beside it give way, the table never scrolls sideways.
    const int least = reserved + 2 * m_table->frameWidth();
    if (m_table->minimumWidth() != least) {
        m_table->setMinimumWidth(least);
    }
    QTableWidgetItem* header = m_table->horizontalHeaderItem(ColPolicy);
    const QString tip =
        tr("The policies in their colours in the charts: click one to hide or show its lines "
           "and bar") +
        (hidden.isEmpty() ? QString()
                          : tr(". Hidden for lack of room: %1; widen the table to show them.")
                                .arg(hidden.join(QStringLiteral(", "))));
    if (header->toolTip() != tip) {
        header->setToolTip(tip);
    }
}

bool PolicyTable::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_table && (event->type() == QEvent::Resize || event->type() == QEvent::Show)) {
        // A new width is fitted to the figures shown now; between such changes columns only
        // grow (Widths::NeverShrink).
        if (event->type() == QEvent::Resize) {
            const auto* resize = static_cast<QResizeEvent*>(event);
            if (resize->size().width() != resize->oldSize().width()) {
                m_columnFit->forgetWidths();
            }
        }
        fitColumns();
    }
    if (watched == m_note && event->type() == QEvent::Resize) {
        fitNote();
    }
    return QWidget::eventFilter(watched, event);
}

void PolicyTable::showNoteMark(const QString& mark) {
    m_noteMark = mark;
    fitNote();
}

void PolicyTable::fitNote() {
    const QFontMetrics metrics = m_note->fontMetrics();
    const QString whole = m_noteMark + m_noteWhole;
    // A line to spare: QLabel's own wrapping may break a word earlier than the metrics do.
    const bool wrap =
        metrics.boundingRect(QRect(0, 0, m_note->width(), 1 << 20), Qt::TextWordWrap, whole)
                .height() +
            metrics.lineSpacing() <=
        m_note->height();
    const QString text =
        wrap ? whole : metrics.elidedText(m_noteMark + m_noteText, Qt::ElideRight, m_note->width());
    if (m_note->wordWrap() != wrap) {
        m_note->setWordWrap(wrap);
    }
    if (m_note->text() != text) {
        m_note->setText(text);
    }
}

}  // namespace hitcounter::ui
