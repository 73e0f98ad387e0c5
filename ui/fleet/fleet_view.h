// FleetView: the Fleet tab: what a fleet of instances flushing to one Redis (or Redis
// Cluster) counts together: the live window (the fleet's hits per second and the selected
// item's) as a time plot, the fleet's top items with uniques, one row per alive instance
// (hit rate, last flush, lag, dropped) and the cluster's nodes (role, slots, commands per
// second, memory, state). docs/redis.md#the-fleet-view.
//
// GUI thread only. Every Redis read happens on a FleetPoller's thread (core/fleet/
// fleet_poll.h); the view only takes its newest snapshot (values) on a 10 Hz timer and draws it
// when it is new, so the GUI thread never waits on the network, however slow or dead Redis is.
// A connection that is changed or closed is handed to a poller that ends on its own (bounded
// by its timeouts) and is deleted once it has; only the view's destructor joins.
// States shown in the status line: connecting (and for how long nothing answered); live;
// degraded (a node failing over or unreachable: "node X failing over / unreachable,
// retrying", counts still read through the others); unreachable (counts kept from the last
// good read, marked stale, retried every second; the instances listed are the last known and
// marked unknown). It recovers by itself. What happened meanwhile stays on screen: each outage
// as a band on the timeline and in the notice under the status line, and counts Redis lost
// (a restart without persistence: fleet_watch.h) named there ("Redis lost its data at 21:14:
// the fleet count fell from 6,846 to 3,423; `rebuild` restores it from the instances' logs")
// until the lost seconds have left the window.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/fleet/fleet_poll.h"

class QCustomPlot;
class QCPAbstractItem;
class QCPGraph;
class QLabel;
class QTableWidget;

namespace hitcounter::ui {

struct Theme;

class FleetView : public QWidget {
    Q_OBJECT
public:
    explicit FleetView(QWidget* parent = nullptr);
    ~FleetView() override;

    // Starts reading `url` (redis://HOST:PORT[/DB], any node of a cluster). Returns at once;
    // false (and the reason in the status line) for a malformed URL.
    bool connectTo(const QString& url,
                   std::chrono::milliseconds interval = std::chrono::milliseconds(1000));
    void disconnectFromRedis();
    // Empty if `url` is a well-formed Redis URL, else what is wrong with it (no I/O).
    static QString urlProblem(const QString& url);
    bool isConnected() const { return m_poller != nullptr; }
    QString url() const { return m_url; }
    // Plots `item` beside the fleet's total (empty: the top item).
    void selectItem(const QString& item);

    // Takes the poller's newest snapshot and draws it if it is new (the timer calls this).
    void refresh();
    // The snapshot drawn last (null before the first).
    std::shared_ptr<const fleet::FleetSnapshot> shown() const { return m_shown; }
    QString statusText() const;
    // "connecting", "live", "degraded", "unreachable", "off".
    QString state() const { return m_state; }
    // The instances listed are known to be alive: the last poll reached Redis and read their
    // heartbeats. False while Redis is unreachable: they are the last ones known, marked
    // unknown.
    bool instancesKnown() const;

    QCustomPlot* plot() const { return m_plot; }
    // The notice of outages and lost counts (empty when there is none to tell).
    QString noticeText() const;
    QTableWidget* topTable() const { return m_top; }
    QTableWidget* instancesTable() const { return m_instances; }
    QTableWidget* nodesTable() const { return m_nodes; }
    void applyTheme(const Theme& theme);

Q_SIGNALS:
    void snapshotShown();

private:
    void draw(const fleet::FleetSnapshot& snapshot);
    void drawInstances(const fleet::FleetSnapshot& snapshot);
    // The outages and the loss: bands and a line on the timeline, the notice's text.
    void drawHistory(const fleet::FleetSnapshot& snapshot, double end);
    void showState(const QString& state, const QString& text);
    void reapRetired();

    QString m_url;  // the URL watched, its password shown as ***
    std::unique_ptr<fleet::FleetPoller> m_poller;
    std::vector<std::unique_ptr<fleet::FleetPoller>> m_retired;  // stopping on their own
    std::shared_ptr<const fleet::FleetSnapshot> m_shown;
    QElapsedTimer m_sinceAnswer;  // since the last new snapshot (or the connect)
    QTimer m_timer;
    QString m_state = QStringLiteral("off");
    bool m_dark = false;
    bool m_updating = false;

    QLabel* m_status;
    QLabel* m_notice;  // outages and lost counts, under the status line; hidden when none
    QLabel* m_summary;
    QLabel* m_instancesTitle;
    QList<QCPAbstractItem*> m_marks;  // the timeline's outage bands and loss line
    QCustomPlot* m_plot;
    QCPGraph* m_totalGraph;
    QCPGraph* m_itemGraph;
    QTableWidget* m_top;
    QTableWidget* m_instances;
    QTableWidget* m_nodes;
};

}  // namespace hitcounter::ui
