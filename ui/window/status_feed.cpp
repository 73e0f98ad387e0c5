#include "ui/window/status_feed.h"

#include <QFileInfo>
#include <algorithm>

#include "core/engine/engine_worker.h"
#include "core/sources/batch_queue.h"
#include "ui/fleet/fleet_view.h"
#include "ui/monitor/bad_lines_view.h"
#include "ui/monitor/clock_skew_banner.h"
#include "ui/monitor/overload_banner.h"
#include "ui/sources/running_source.h"
#include "ui/sources/source_session.h"
#include "ui/sources/sources_dock.h"
#include "ui/window/view_fan_out.h"
#include "ui/window/window_status.h"

namespace hitcounter::ui {

StatusFeed::StatusFeed(StatusInputs in, StatusOutputs out) : m_in(in), m_out(out) {
    m_uptime.start();
}

void StatusFeed::update(bool pausedShown) {
    const SourceSession& session = m_in.session;
    const BatchQueue& queue = m_in.queue;
    const EngineSnapshot& shown = m_in.views.snapshot();
    const RunningSource* running = session.running();
    const Source* source = session.source();
    const SourceStats stats = source ? source->stats() : SourceStats{};
    const Count dropped = std::max<Count>(queue.droppedHits(), stats.dropped);
    StatusFigures figures;
    figures.source = running                    ? running->statusText()
                     : m_in.fleet.isConnected() ? WindowStatus::tr("fleet %1").arg(m_in.fleet.url())
                                                : WindowStatus::tr("no source");
    figures.paused = pausedShown;
    figures.ingestRate = m_in.views.ingestRate();
    figures.windowCount = shown.windowCount;
    figures.totalHits = shown.totalHits;
    figures.badLines = stats.badLines;
    figures.dropped = dropped;
    figures.lateHits = shown.lateHits;
    figures.droppedLate = shown.droppedLate;
    m_out.status.show(figures);

    m_out.sourcesDock.showRunningFigures();
    if (source && stats.badLines != m_out.badLines.shownTotal()) {
        m_out.badLines.showLines(source->recentBadLines(), stats.badLines);
    }
    const double fill =
        std::max(double(queue.queuedBytes()) / double(std::max<std::size_t>(1, queue.maxBytes())),
                 double(queue.size()) / double(std::max<std::size_t>(1, queue.capacity())));
    // The queue stands full by design while the simulator warms up or a replay fast-forwards
    // (they wait for room): only a live pace that cannot be met is lag.
    const bool livePace = source != nullptr && !session.warmingUp() && !session.seekable();
    m_out.overload.observe(dropped, livePace ? fill : 0.0, m_uptime.elapsed());
    m_out.clockSkew.observe(QFileInfo(sourceFile(session.spec())).fileName(),
                            running ? running->newestTime() : std::nullopt, session.clock().now(),
                            m_in.worker.options().window.count());
}

}  // namespace hitcounter::ui
