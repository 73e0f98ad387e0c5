// ListenerSpec: the socket listener kind (core/net/: statsd over UDP or TCP, Graphite over
// TCP) on an address. Its module: this value, its stored keys ("address"; the protocol is the
// kind's name: "statsd-udp", "statsd-tcp", "graphite-tcp"), build(), and its controls
// (listener_controls.h: protocol, address, port, Start/Stop) with what the running listener
// received (its figures: lines, hits, bad and ignored lines, the kinds of problems).
//
// Plain value, GUI thread.
#pragma once

#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <memory>

class QSettings;

namespace hitcounter::ui {

class KindControls;
class RunningSource;
class SettingsReader;
struct BuildContext;

struct ListenerSpec {
    enum class Protocol { StatsdUdp, StatsdTcp, GraphiteTcp };  // in kindNames()' order
    Protocol protocol = Protocol::StatsdUdp;
    QString address = QStringLiteral("127.0.0.1:8125");  // HOST:PORT, [IPv6]:PORT
    int receivers = 0;  // receiver threads (ListenerOptions::receivers); 0: one per core

    static QStringList kindNames() {
        return {QStringLiteral("statsd-udp"), QStringLiteral("statsd-tcp"),
                QStringLiteral("graphite-tcp")};
    }
    QString kindName() const { return kindNames().at(int(protocol)); }
    void save(QSettings& settings) const;
    // The protocol from `kind` when it is one of kindNames().
    static ListenerSpec load(SettingsReader& settings, const QString& kind);
    std::unique_ptr<RunningSource> build(const BuildContext& context) const;
    QVariantMap settingsUsed() const { return {}; }
    static KindControls* makeControls();
    friend bool operator==(const ListenerSpec&, const ListenerSpec&) = default;
};

}  // namespace hitcounter::ui
