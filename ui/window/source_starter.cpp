#include "ui/window/source_starter.h"

#include "core/engine/engine_worker.h"
#include "ui/fleet/fleet_view.h"
#include "ui/sources/recent_files.h"
#include "ui/sources/source_session.h"
#include "ui/sources/source_spec.h"

namespace hitcounter::ui {

SourceStarter::SourceStarter(SourceSession& session, const EngineWorker& worker, FleetView& fleet,
                             RecentFiles& recent, QObject* parent)
    : QObject(parent), m_session(session), m_worker(worker), m_fleet(fleet), m_recent(recent) {}

bool SourceStarter::start(const SourceSpec& spec) {
    return spec.kind == SourceSpec::Kind::Redis ? watchFleet(spec) : startLocal(spec);
}

void SourceStarter::stop() {
    m_fleet.disconnectFromRedis();
    m_session.stop();
}

bool SourceStarter::startLocal(const SourceSpec& spec) {
    SourceSpec started = spec;
    if (spec.kind == SourceSpec::Kind::Simulator && spec.warmup.count() > 0) {
        // The warm-up fills the current window W, however long (1 h: a few seconds).
        started.warmup =
            std::max(spec.warmup, m_worker.options().window + std::chrono::seconds(60));
    }
    if (!m_session.startSpec(started)) {
        return false;  // what ran runs on (a fleet watched stays watched)
    }
    m_fleet.disconnectFromRedis();
    const bool file =
        spec.kind == SourceSpec::Kind::Replay || spec.kind == SourceSpec::Kind::Follow;
    if (file && m_remembersFiles) {
        m_recent.add(spec.file);  // only files that opened
    }
    return true;
}

bool SourceStarter::watchFleet(const SourceSpec& spec) {
    // The fleet view reads Redis on its own thread.
    if (const QString problem = FleetView::urlProblem(spec.redisUrl); !problem.isEmpty()) {
        Q_EMIT errorOccurred(tr("Fleet: %1").arg(problem));  // a typo does not stop what runs
        return false;
    }
    m_session.stop();
    m_session.setSpec(spec);
    const bool watching = m_fleet.connectTo(spec.redisUrl);
    if (!watching) {
        Q_EMIT errorOccurred(tr("Fleet: %1").arg(m_fleet.statusText()));
    }
    Q_EMIT fleetTried(spec, watching);
    return watching;
}

}  // namespace hitcounter::ui
