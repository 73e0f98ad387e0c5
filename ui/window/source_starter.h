// SourceStarter: starts what a SourceSpec describes, and stops it. A Redis spec watches the
// fleet's Redis in the Fleet tab (the local source stopped; no hits reach the engine
// meanwhile); any other spec starts in the SourceSession and lets the fleet go. A simulator's
// warm-up is stretched to fill the current window W; a replayed or followed file that opened
// goes first in the recent files.
//
// GUI thread only. Errors are signalled (errorOccurred), never thrown; what ran runs on when a
// spec cannot start. Example: SourceStarter starter(session, worker, fleet, recent);
// starter.start(spec);
#pragma once

#include <QObject>

namespace hitcounter {
class EngineWorker;
}  // namespace hitcounter

namespace hitcounter::ui {

class FleetView;
class RecentFiles;
class SourceSession;
struct SourceSpec;

class SourceStarter : public QObject {
    Q_OBJECT
public:
    SourceStarter(SourceSession& session, const EngineWorker& worker, FleetView& fleet,
                  RecentFiles& recent, QObject* parent = nullptr);

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
    bool watchFleet(const SourceSpec& spec);

    SourceSession& m_session;
    const EngineWorker& m_worker;
    FleetView& m_fleet;
    RecentFiles& m_recent;
    bool m_remembersFiles = true;
};

}  // namespace hitcounter::ui
