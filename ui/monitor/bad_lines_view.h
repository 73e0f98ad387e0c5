// BadLinesView: the running source's bad lines as one table, the same for every source (a
// statsd or Graphite listener, a followed access log, a replayed file): time (in the zone
// shown), source, sender or FILE:LINE, problem and the line, escaped (core/sources/bad_lines.h),
// newest first, with how many there were in all.
//
// GUI thread only. showLines() is given Source::recentBadLines() and the source's bad-line
// count; the owner asks for the lines only when the count differs from shownTotal(), so a
// frame costs nothing while no bad line arrives.
#pragma once

#include <QWidget>
#include <cstdint>
#include <vector>

#include "core/sources/bad_lines.h"

class QLabel;
class QTableWidget;

namespace hitcounter::ui {

class BadLinesView : public QWidget {
    Q_OBJECT
public:
    enum Column { ColTime, ColSource, ColOrigin, ColProblem, ColLine, ColumnCount };

    explicit BadLinesView(QWidget* parent = nullptr);

    // `lines`: the kept ones, oldest first; `total`: every bad line the source counted (more
    // than kept, or than it could name, e.g. lines over the length cap).
    void showLines(const std::vector<BadLine>& lines, std::uint64_t total);
    // No source: an empty table.
    void clear();

    std::uint64_t shownTotal() const { return m_shownTotal; }
    QTableWidget* table() const { return m_table; }
    QString summary() const;

private:
    QTableWidget* m_table;
    QLabel* m_summary;
    std::uint64_t m_shownTotal = 0;
};

}  // namespace hitcounter::ui
