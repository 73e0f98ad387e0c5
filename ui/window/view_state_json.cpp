#include "ui/window/view_state_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "ui/fleet/fleet_view.h"

namespace hitcounter::ui {

namespace {

QByteArray compact(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

}  // namespace

QByteArray costsJson(const PolicyCosts& costs) {
    QJsonObject policies;
    for (const PolicyCost& cost : costs.policies) {
        policies.insert(QString::fromStdString(cost.name),
                        QJsonObject{{QStringLiteral("ns_per_hit"), cost.nsPerHit.median},
                                    {QStringLiteral("ns_per_get_hits"), cost.nsPerGetHits.median},
                                    {QStringLiteral("samples"), qint64(cost.samples)}});
    }
    return compact(policies);
}

QByteArray fleetJson(const FleetView& fleet) {
    const auto snapshot = fleet.shown();
    QJsonArray instances;
    QJsonArray outages;
    QJsonValue loss;  // null
    if (snapshot) {
        for (const fleet::InstanceHeartbeat& h : snapshot->instances) {
            instances.append(
                QJsonObject{{QStringLiteral("name"), QString::fromStdString(h.name)},
                            {QStringLiteral("alive"),
                             fleet.instancesKnown() ? QJsonValue(true) : QJsonValue()}});
        }
        for (const fleet::FleetOutage& o : snapshot->outages) {
            outages.append(
                QJsonObject{{QStringLiteral("from"), o.from},
                            {QStringLiteral("to"), o.to > 0 ? QJsonValue(o.to) : QJsonValue()},
                            {QStringLiteral("restarted"), o.restarted}});
        }
        if (snapshot->loss) {
            const fleet::FleetLoss& l = *snapshot->loss;
            loss = QJsonObject{{QStringLiteral("at"), l.at},
                               {QStringLiteral("before"), qint64(l.before)},
                               {QStringLiteral("after"), qint64(l.after)},
                               {QStringLiteral("lost_hits"), qint64(l.lostHits)},
                               {QStringLiteral("logs_left"), l.logsLeft}};
        }
    }
    return compact(QJsonObject{
        {QStringLiteral("state"), fleet.state()},
        {QStringLiteral("count"), snapshot ? qint64(snapshot->totalWindow) : qint64(0)},
        {QStringLiteral("instances"), instances},
        {QStringLiteral("outages"), outages},
        {QStringLiteral("loss"), loss},
    });
}

}  // namespace hitcounter::ui
