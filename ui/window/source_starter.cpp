#include "ui/window/source_starter.h"

#include "ui/fleet/fleet_view.h"
#include "ui/sources/recent_files.h"
#include "ui/sources/source_session.h"
#include "ui/sources/source_spec.h"

namespace hitcounter::ui {

SourceStarter::SourceStarter(SourceSession& session, FleetView& fleet, RecentFiles& recent,
                             QObject* parent)
    : QObject(parent), m_session(session), m_fleet(fleet), m_recent(recent) {}

bool SourceStarter::start(const SourceSpec& spec) {
    const auto* fleet = std::get_if<FleetSpec>(&spec);
    return fleet != nullptr ? watchFleet(*fleet) : startLocal(spec);
}

void SourceStarter::stop() {
    m_fleet.disconnectFromRedis();
    m_session.stop();
}

bool SourceStarter::startLocal(const SourceSpec& spec) {
    if (!m_session.startSpec(spec)) {
        return false;  // what ran runs on (a fleet watched stays watched)
    }
    m_fleet.disconnectFromRedis();
    if (const QString file = sourceFile(spec); !file.isEmpty() && m_remembersFiles) {
        m_recent.add(file);  // only files that opened
    }
    return true;
}

bool SourceStarter::watchFleet(const FleetSpec& spec) {
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
