#include "ui/sources/kinds/listener_kind.h"

#include <QObject>
#include <QSettings>
#include <algorithm>

#include "core/net/tcp_listener.h"
#include "core/net/udp_listener.h"
#include "ui/common/number_text.h"
#include "ui/common/settings_reader.h"
#include "ui/sources/running_source.h"

namespace hitcounter::ui {

namespace {

// The running listener and its figures in the sources dock: what it received and how many
// lines were refused, by kind, so a user whose sender is misconfigured sees it in the monitor;
// the lines themselves, with their sender, are in the bad lines table (bad_lines_view.h). The
// CLI's `listen` prints the same problems. Example:
//     "lines 12 · hits 9 · bad 2 · ignored 1
//      problems: unknown type 2 (the Bad lines tab lists the lines)"
class ListenerRun final : public RunningSourceOf<SocketListener> {
public:
    explicit ListenerRun(std::unique_ptr<SocketListener> listener)
        : RunningSourceOf(std::move(listener)) {}

    // Every kind of problem is named (at most LineIngest::kMaxProblemKinds), the most frequent
    // first. Reads only the listener's thread-safe stats() and problems().
    QString figures() const override {
        const SocketListener& listener = typedSource();
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
        std::stable_sort(
            problems.begin(), problems.end(),
            [](const ProblemCount& a, const ProblemCount& b) { return a.count > b.count; });
        QStringList kinds;
        for (const ProblemCount& p : problems) {
            kinds << QStringLiteral("%1 %2").arg(QString::fromStdString(p.kind),
                                                 exactCount(p.count));
        }
        return text + QObject::tr("\nproblems: %1 (the Bad lines tab lists the lines)")
                          .arg(kinds.join(QStringLiteral(" · ")));
    }
};

std::unique_ptr<SocketListener> makeListener(ListenerSpec::Protocol protocol,
                                             const ListenerOptions& options) {
    switch (protocol) {
        case ListenerSpec::Protocol::StatsdUdp:
            return std::make_unique<UdpStatsdListener>(options);
        case ListenerSpec::Protocol::StatsdTcp:
            return std::make_unique<TcpListener>(options, WireProtocol::Statsd);
        case ListenerSpec::Protocol::GraphiteTcp:
            break;
    }
    return std::make_unique<TcpListener>(options, WireProtocol::Graphite);
}

}  // namespace

void ListenerSpec::save(QSettings& settings) const {
    settings.setValue(QStringLiteral("address"), address);
}

ListenerSpec ListenerSpec::load(SettingsReader& settings, const QString& kind) {
    ListenerSpec spec;
    if (const qsizetype named = kindNames().indexOf(kind); named >= 0) {
        spec.protocol = Protocol(named);
    }
    spec.address = settings.text(QStringLiteral("address"), spec.address);
    return spec;
}

std::unique_ptr<RunningSource> ListenerSpec::build(const BuildContext& /*context*/) const {
    ListenerOptions options;
    options.address = address.toStdString();
    options.receivers = static_cast<std::size_t>(std::max(0, receivers));
    return std::make_unique<ListenerRun>(makeListener(protocol, options));
}

}  // namespace hitcounter::ui
