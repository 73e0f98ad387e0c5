#include "ui/listener_status.h"

#include <QObject>
#include <algorithm>

#include "core/net/socket_listener.h"
#include "ui/number_text.h"

namespace hitcounter::ui {

QString listenerStatsText(const Source& source) {
    const auto* listener = dynamic_cast<const SocketListener*>(&source);
    if (listener == nullptr) {
        return {};
    }
    const SourceStats stats = listener->stats();
    QString text = QObject::tr("lines %1 · hits %2 · bad %3 · ignored %4")
                       .arg(exactCount(stats.lines), exactCount(stats.hits),
                            exactCount(stats.badLines), exactCount(stats.ignoredLines));
    if (stats.dropped > 0) {
        text += QObject::tr(" · dropped %1").arg(exactCount(stats.dropped));
    }
    std::vector<ProblemCount> problems = listener->problems();
    if (problems.empty()) {
        return text;
    }
    std::stable_sort(
        problems.begin(), problems.end(),
        [](const ProblemCount& a, const ProblemCount& b) { return a.count > b.count; });
    text += QObject::tr("\nlast bad lines:");
    const int shown = std::min<int>(kMaxProblemLines, int(problems.size()));
    for (int i = 0; i < shown; ++i) {
        const ProblemCount& p = problems[std::size_t(i)];
        text += QStringLiteral("\n%1 (%2): %3")
                    .arg(QString::fromStdString(p.kind), exactCount(p.count),
                         QString::fromStdString(p.last));
    }
    if (int(problems.size()) > shown) {
        text += QObject::tr("\n… and %1 other kinds").arg(int(problems.size()) - shown);
    }
    return text;
}

}  // namespace hitcounter::ui
