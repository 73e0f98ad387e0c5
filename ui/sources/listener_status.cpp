#include "ui/sources/listener_status.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

#include "core/net/socket_listener.h"
#include "ui/common/number_text.h"

namespace hitcounter::ui {

QString listenerStatsText(const SocketListener& listener) {
    const SourceStats stats = listener.stats();
    QString text = QObject::tr("lines %1 · hits %2 · bad %3 · ignored %4")
                       .arg(exactCount(stats.lines), exactCount(stats.hits),
                            exactCount(stats.badLines), exactCount(stats.ignoredLines));
    if (stats.dropped > 0) {
        text += QObject::tr(" · dropped %1").arg(exactCount(stats.dropped));
    }
    std::vector<ProblemCount> problems = listener.problems();
    if (problems.empty()) {
        return text;
    }
    // Every kind with its count, the most frequent first; the lines themselves are in the bad
    // lines table (bad_lines_view.h).
    std::stable_sort(
        problems.begin(), problems.end(),
        [](const ProblemCount& a, const ProblemCount& b) { return a.count > b.count; });
    QStringList kinds;
    for (const ProblemCount& p : problems) {
        kinds << QStringLiteral("%1 %2").arg(QString::fromStdString(p.kind), exactCount(p.count));
    }
    return text + QObject::tr("\nproblems: %1 (the Bad lines tab lists the lines)")
                      .arg(kinds.join(QStringLiteral(" · ")));
}

}  // namespace hitcounter::ui
