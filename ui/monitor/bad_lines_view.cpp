#include "ui/monitor/bad_lines_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/common/number_text.h"
#include "ui/plot/display_zone.h"

namespace hitcounter::ui {

BadLinesView::BadLinesView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("badLinesView"));
    m_summary = new QLabel(tr("No bad lines."));
    m_summary->setObjectName(QStringLiteral("badLinesSummary"));
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, ColumnCount);
    m_table->setObjectName(QStringLiteral("badLinesTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("time"), tr("source"), tr("sender / file:line"), tr("problem"), tr("line")});
    m_table->horizontalHeaderItem(ColOrigin)->setToolTip(
        tr("The sender's address for a listener; FILE:LINE for a file (FILE:+N: the N-th line "
           "since following began)"));
    m_table->horizontalHeaderItem(ColLine)->setToolTip(
        tr("The line as received, quoted: control and non-ASCII bytes as \\xHH, at most %1 "
           "bytes")
            .arg(BadLineLog::kMaxLineBytes));
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
}

void BadLinesView::showLines(const std::vector<BadLine>& lines, std::uint64_t total) {
    m_shownTotal = total;
    m_summary->setText(total == 0 ? tr("No bad lines.")
                       : total > lines.size()
                           ? tr("%1 bad lines; the newest %2 with their place:")
                                 .arg(exactCount(total), exactCount(lines.size()))
                           : tr("%1 bad lines:").arg(exactCount(total)));
    const DisplayZone& zone = shownZone();
    m_table->setRowCount(int(lines.size()));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const BadLine& line = lines[lines.size() - 1 - i];  // newest first
        const QString cells[ColumnCount] = {
            zone.format(line.time, QStringLiteral("hh:mm:ss")), QString::fromStdString(line.source),
            QString::fromStdString(line.origin), QString::fromStdString(line.problem),
            line.line.empty() ? QStringLiteral("–") : QString::fromStdString(line.line)};
        const QString tips[ColumnCount] = {
            zone.format(line.time) + QLatin1Char(' ') + zone.offsetName(line.time), cells[1],
            cells[2], cells[3], line.line.empty() ? tr("the line's text is not kept") : cells[4]};
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(tips[c]);
            m_table->setItem(int(i), c, item);
        }
    }
    m_table->resizeColumnsToContents();
}

void BadLinesView::clear() {
    showLines({}, 0);
}

QString BadLinesView::summary() const {
    return m_summary->text();
}

}  // namespace hitcounter::ui
