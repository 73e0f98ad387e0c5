// SourceStarter: starts what a SourceSpec describes, and stops it. The fleet kind, which has no
// Source, watches the fleet's Redis in the Fleet tab (the local source stopped; no hits reach
// the engine meanwhile); any other spec starts in the SourceSession and lets the fleet go. A
// file that opened (a replay's, a followed log's) goes first in the recent files.
//
// GUI thread only. Errors are signalled (errorOccurred), never thrown; what ran runs on when a
// spec cannot start. Example: SourceStarter starter(session, worker, fleet, recent);
// starter.start(spec);
#pragma once

#include <QObject>

namespace hitcounter::ui {

class FleetView;
class RecentFiles;
class SourceSession;
struct FleetSpec;
struct SourceSpec;

class SourceStarter : public QObject {
    Q_OBJECT
public:
    SourceStarter(SourceSession& session, FleetView& fleet, RecentFiles& recent,
                  QObject* parent = nullptr);

    // Starts `spec` (remembered as the last source); false if it did not start.
    bool start(const SourceSpec& spec);
    // Stops the source, or the fleet watched.
    void stop();
    // Files that opened go first in the recent files (default on; off for scripted runs, which
    // must not change the user's list).
    void setRemembersFiles(bool remember) { m_remembersFiles = remember; }

Q_SIGNALS:
    void errorOccurred(const QString& message);
    // A Redis spec was tried: `watching` if the fleet's Redis answered.
    void fleetTried(const SourceSpec& spec, bool watching);

private:
    bool startLocal(const SourceSpec& spec);
    bool watchFleet(const FleetSpec& spec);

    SourceSession& m_session;
    FleetView& m_fleet;
    RecentFiles& m_recent;
    bool m_remembersFiles = true;
};

}  // namespace hitcounter::ui
