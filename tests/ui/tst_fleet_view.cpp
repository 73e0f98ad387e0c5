// The Fleet tab (ui/fleet/fleet_view.h) offscreen, on a real Redis Cluster (3 masters, 3 replicas,
// tests/fleet/redis_cluster.h) fed by two real RedisSink instances with known counts, on a
// real redis-server killed and restarted (the outage on the timeline, the instances unknown
// meanwhile, the lost counts named after it, the state JSON), and on a server that accepts
// and never answers.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <memory>

#include "core/fleet/redis_sink.h"
#include "core/sources/simulator_source.h"
#include "tests/fleet/redis_cluster.h"
#include "tests/fleet/redis_server.h"
#include "tests/fleet/sink_test_options.h"
#include "tests/test_main.h"
#include "tests/ui/running_as.h"
#include "ui/fleet/fleet_view.h"
#include "ui/plot/qcp.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"
#include "ui/window/state_json.h"

using namespace std::chrono_literals;
using namespace hitcounter;
using namespace hitcounter::fleet;
using hitcounter::fleet::testing::fastSinkOptions;
using hitcounter::fleet::testing::unixNow;
using hitcounter::testing::runningAs;

namespace {

std::unique_ptr<RedisSink> sinkFor(const std::string& url, const std::string& instance) {
    const RedisSinkOptions o = fastSinkOptions(url, instance, {300ms, 2000ms}, 100ms);
    return std::make_unique<RedisSink>(o, std::make_unique<RedisClient>(o.url, o.timeouts));
}

HitBatch hits(const std::string& key, int n, Timestamp second, int visitors) {
    HitBatch batch;
    for (int i = 0; i < n; ++i)
        batch.push_back({second, key, "v" + std::to_string(i % visitors), 1});
    return batch;
}

bool flushedPast(const RedisSink& sink, std::uint64_t flushes) {
    for (int waited = 0; waited < 5000; waited += 10) {
        if (sink.stats().flushes > flushes)
            return true;
        QTest::qWait(10);
    }
    return false;
}

// The digits of a table cell as a number ("16,384" -> 16384), -1 if none.
long long numberIn(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    QString digits;
    for (const QChar c : item ? item->text() : QString())
        if (c.isDigit())
            digits += c;
    return digits.isEmpty() ? -1 : digits.toLongLong();
}

double graphSum(QCPGraph* graph) {
    double sum = 0;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        sum += it->value;
    return sum;
}

// A TCP server on 127.0.0.1 that completes connections (the kernel's backlog) and never reads
// or answers: a hung Redis.
class SilentServer {
public:
    SilentServer() {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (m_fd >= 0 && ::bind(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::listen(m_fd, 16) == 0 &&
            ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            m_port = ntohs(address.sin_port);
    }
    ~SilentServer() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    std::uint16_t port() const { return m_port; }

private:
    int m_fd = -1;
    std::uint16_t m_port = 0;
};

}  // namespace

class FleetViewTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_cluster.start(), m_cluster.error().c_str()); }

    void clusterFleetShowsTheExactCountsInstancesAndNodes() {
        const Timestamp now = unixNow();
        // Two instances entering through different nodes, known counts (5 min window).
        auto web1 = sinkFor(m_cluster.url(0), "web1");
        auto web2 = sinkFor(m_cluster.url(4), "web2");
        web1->add(hits("g.hits", 300, now - 20, 30));
        web1->add(hits("g.other", 50, now - 10, 5));
        web2->add(hits("g.hits", 200, now - 15, 40));  // visitors v0..v29 shared with web1
        web2->add(hits("g.rare", 7, now - 5, 7));
        QVERIFY(flushedPast(*web1, 0));
        QVERIFY(flushedPast(*web2, 0));

        ui::MainWindow window;
        window.resize(1280, 720);
        window.show();
        ui::FleetSpec spec;
        spec.redisUrl = QString::fromStdString(m_cluster.url(2));
        QElapsedTimer opened;
        opened.start();
        QVERIFY(window.startSpec(spec));
        ui::FleetView* view = window.fleetView();
        QVERIFY(view->isVisible());                      // the Fleet tab is open
        QVERIFY(window.session()->source() == nullptr);  // the local source stopped
        const auto complete = [&] {
            const auto s = view->shown();
            return s && s->totalWindow == 557 && s->instances.size() == 2 && s->nodes.size() == 6;
        };
        QVERIFY2(QTest::qWaitFor(complete, 5000), qPrintable(view->statusText()));
        const qint64 readableAfter = opened.elapsed();
        qInfo("fleet view readable %lld ms after opening", readableAfter);
        QVERIFY2(readableAfter < 2000, qPrintable(QString::number(readableAfter)));
        const auto s = view->shown();
        QCOMPARE(view->state(), QStringLiteral("live"));
        QVERIFY(s->cluster);

        // The window: total and the selected (top) item, in the summary and in the plot.
        QCOMPARE(s->selected, std::string("g.hits"));
        QCOMPARE(s->selectedWindow, Count(500));
        QCOMPARE(graphSum(view->plot()->graph(0)), 557.0);
        QCOMPARE(graphSum(view->plot()->graph(1)), 500.0);
        const QString summary = view->findChild<QLabel*>(QStringLiteral("fleetSummary"))->text();
        QVERIFY2(summary.contains(QStringLiteral("<b>557</b>")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("<b>500</b>")), qPrintable(summary));

        // Top-K with uniques.
        QTableWidget* top = view->topTable();
        QCOMPARE(top->rowCount(), 3);
        QCOMPARE(top->item(0, 0)->text(), QStringLiteral("1. g.hits"));
        QCOMPARE(numberIn(top, 0, 1), 500LL);
        QCOMPARE(numberIn(top, 0, 2), 40LL);  // v0..v39 (HyperLogLog is exact this small)
        QCOMPARE(top->item(1, 0)->text(), QStringLiteral("2. g.other"));
        QCOMPARE(numberIn(top, 1, 1), 50LL);
        QCOMPARE(numberIn(top, 1, 2), 5LL);
        QCOMPARE(top->item(2, 0)->text(), QStringLiteral("3. g.rare"));
        QCOMPARE(numberIn(top, 2, 1), 7LL);

        // Instances by name, with their figures.
        QTableWidget* instances = view->instancesTable();
        QCOMPARE(instances->rowCount(), 2);
        QCOMPARE(instances->item(0, 0)->text(), QStringLiteral("web1"));
        QCOMPARE(instances->item(1, 0)->text(), QStringLiteral("web2"));
        QCOMPARE(numberIn(instances, 0, 4), 0LL);  // dropped

        // The cluster panel: 6 nodes, 3 masters holding all 16384 slots, every node answering.
        QTableWidget* nodes = view->nodesTable();
        QCOMPARE(nodes->rowCount(), 6);
        int masters = 0;
        long long slots = 0;
        for (int r = 0; r < nodes->rowCount(); ++r) {
            QCOMPARE(nodes->item(r, 5)->text(), QStringLiteral("ok"));
            QVERIFY(numberIn(nodes, r, 4) > 0);  // memory
            if (nodes->item(r, 1)->text() == QLatin1String("master")) {
                ++masters;
                slots += numberIn(nodes, r, 2);
            } else {
                QVERIFY(nodes->item(r, 1)->text().startsWith(QStringLiteral("replica of ")));
            }
        }
        QCOMPARE(masters, 3);
        QCOMPARE(slots, 16384LL);

        // Selecting another item plots it.
        view->selectItem(QStringLiteral("g.other"));
        QVERIFY(QTest::qWaitFor(
            [&] {
                const auto latest = view->shown();
                return latest->selected == "g.other" && latest->selectedWindow == 50;
            },
            5000));
        QCOMPARE(graphSum(view->plot()->graph(1)), 50.0);
        QCOMPARE(graphSum(view->plot()->graph(0)), 557.0);

        // Stopping the instances: their heartbeats expire (5 s) and they leave the list.
        web1->stop();
        web2->stop();
        QVERIFY(QTest::qWaitFor([&] { return view->shown()->instances.empty(); }, 10000));
        QCOMPARE(instances->rowCount(), 0);
        QCOMPARE(view->shown()->totalWindow, Count(557));  // the counts stay
    }

    void aHungServerNeverBlocksTheGuiThread() {
        SilentServer silent;
        QVERIFY(silent.port() != 0);
        auto view = std::make_unique<ui::FleetView>();
        view->resize(1280, 720);
        view->show();
        QElapsedTimer clock;
        clock.start();
        QVERIFY(view->connectTo(QStringLiteral("redis://127.0.0.1:%1").arg(silent.port())));
        QVERIFY2(clock.elapsed() < 100, "connectTo waited");
        QCOMPARE(view->state(), QStringLiteral("connecting"));
        // The event loop keeps turning while the poller waits on the silent server.
        qint64 longestGap = 0;
        qint64 last = clock.elapsed();
        QTimer tick;
        tick.setInterval(10);
        connect(&tick, &QTimer::timeout, [&] {
            longestGap = std::max(longestGap, clock.elapsed() - last);
            last = clock.elapsed();
        });
        tick.start();
        QVERIFY2(
            QTest::qWaitFor([&] { return view->state() == QLatin1String("unreachable"); }, 4000),
            qPrintable(view->statusText()));
        const qint64 shownAfter = clock.elapsed();
        QTest::qWait(1500);  // a second failed poll, still responsive
        tick.stop();
        qInfo("error shown after %lld ms; longest event loop gap %lld ms", shownAfter, longestGap);
        QVERIFY2(longestGap < 250, qPrintable(QString::number(longestGap)));
        QVERIFY(shownAfter < 3000);
        QVERIFY2(view->statusText().contains(QStringLiteral("127.0.0.1:%1").arg(silent.port())),
                 qPrintable(view->statusText()));
        QVERIFY(view->shown() && !view->shown()->connected);
        // Switching away hands the stuck poller over: no wait either.
        clock.restart();
        view->disconnectFromRedis();
        QVERIFY2(clock.elapsed() < 100, "disconnect waited");
        QCOMPARE(view->state(), QStringLiteral("off"));
        clock.restart();
        view.reset();  // joins, bounded by the poller's timeouts
        QVERIFY(clock.elapsed() < 3000);
    }

    void aRestartedServerIsShownUnreachableThenLiveAgain() {
        RedisServer server;
        QVERIFY(server.start());
        auto sink = sinkFor(server.url(), "solo");
        const Timestamp now = unixNow();
        sink->add(hits("solo.item", 42, now - 3, 3));
        QVERIFY(flushedPast(*sink, 0));
        ui::FleetView view;
        view.show();
        QVERIFY(view.connectTo(QString::fromStdString(server.url()), 200ms));
        QVERIFY(
            QTest::qWaitFor([&] { return view.shown() && view.shown()->totalWindow == 42; }, 5000));
        QCOMPARE(view.state(), QStringLiteral("live"));
        // A single server is one node holding every slot.
        QCOMPARE(view.nodesTable()->rowCount(), 1);
        QCOMPARE(view.nodesTable()->item(0, 1)->text(), QStringLiteral("master"));
        QCOMPARE(numberIn(view.nodesTable(), 0, 2), 16384LL);
        QCOMPARE(view.instancesTable()->item(0, 0)->text(), QStringLiteral("solo"));

        QCOMPARE(view.instancesTable()->item(0, 5)->text(), QStringLiteral("alive"));
        QVERIFY(view.noticeText().isEmpty());

        server.kill();
        QVERIFY2(
            QTest::qWaitFor([&] { return view.state() == QLatin1String("unreachable"); }, 5000),
            qPrintable(view.statusText()));
        QVERIFY(view.shown()->dataStale);
        QCOMPARE(view.shown()->totalWindow, Count(42));  // the last counts, marked stale
        QVERIFY(view.statusText().contains(QStringLiteral("Retrying")));
        // Issue 23 item 8: while Redis is down nobody knows which instances are alive, and the
        // outage is on the timeline.
        QVERIFY(QTest::qWaitFor(
            [&] { return view.instancesTable()->item(0, 5)->text() == QLatin1String("unknown"); },
            5000));
        QVERIFY(!view.instancesKnown());
        QVERIFY2(view.noticeText().contains(QStringLiteral("Redis unreachable since")),
                 qPrintable(view.noticeText()));
        const auto bands = [&] {
            int n = 0;
            for (int i = 0; i < view.plot()->itemCount(); ++i) {
                n += qobject_cast<QCPItemRect*>(view.plot()->item(i)) ? 1 : 0;
            }
            return n;
        };
        QVERIFY(QTest::qWaitFor([&] { return bands() == 1; }, 5000));

        QVERIFY(server.start());  // no persistence: empty, the sink resends nothing old
        sink->add(hits("solo.item", 5, unixNow(), 1));
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return view.state() == QLatin1String("live") &&
                                view.shown()->totalWindow == 5;
                     },
                     8000),
                 qPrintable(view.statusText()));
        QVERIFY(!view.shown()->dataStale);
        // Back, but not silently: the loss is named (the counts read before the restart are
        // gone; the logs went with them), the outage stays on the timeline, and the instances
        // are known again.
        QVERIFY(view.shown()->loss.has_value());
        const QString notice = view.noticeText();
        for (const QString& says :
             {QStringLiteral("Redis lost its data at "), QStringLiteral("fell from 42 to "),
              QStringLiteral("42 hits"), QStringLiteral("cannot restore"),
              QStringLiteral("came back as a new process")}) {
            QVERIFY2(notice.contains(says), qPrintable(notice));
        }
        QCOMPARE(bands(), 1);
        QCOMPARE(view.instancesTable()->item(0, 5)->text(), QStringLiteral("alive"));
        QVERIFY(view.instancesKnown());
    }

    // The state JSON of the window with the Fleet tab shown: its state, count and instances,
    // alive true while Redis answers, null (unknown) while it does not.
    void theStateJsonSaysTheFleetAndWhetherInstancesAreAlive() {
        RedisServer server;
        QVERIFY(server.start());
        auto sink = sinkFor(server.url(), "json1");
        sink->add(hits("j.item", 17, unixNow() - 3, 2));
        QVERIFY(flushedPast(*sink, 0));
        ui::MainWindow window;
        window.resize(1280, 720);
        ui::FleetSpec spec;
        spec.redisUrl = QString::fromStdString(server.url());
        QVERIFY(window.startSpec(spec));
        ui::FleetView* view = window.fleetView();
        QVERIFY(QTest::qWaitFor([&] { return view->shown() && view->shown()->totalWindow == 17; },
                                5000));
        const auto fleetState = [&] {
            return QJsonDocument::fromJson(stateJson(window, 0))
                .object()
                .value(QStringLiteral("fleet"))
                .toObject();
        };
        QJsonObject fleet = fleetState();
        QCOMPARE(fleet.value(QStringLiteral("state")).toString(), QStringLiteral("live"));
        QCOMPARE(fleet.value(QStringLiteral("count")).toInteger(), 17);
        QJsonArray instances = fleet.value(QStringLiteral("instances")).toArray();
        QCOMPARE(instances.size(), 1);
        QCOMPARE(instances[0].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("json1"));
        QCOMPARE(instances[0].toObject().value(QStringLiteral("alive")), QJsonValue(true));
        QVERIFY(fleet.value(QStringLiteral("loss")).isNull());
        server.kill();
        QVERIFY(
            QTest::qWaitFor([&] { return view->state() == QLatin1String("unreachable"); }, 5000));
        fleet = fleetState();
        QCOMPARE(fleet.value(QStringLiteral("state")).toString(), QStringLiteral("unreachable"));
        instances = fleet.value(QStringLiteral("instances")).toArray();
        QCOMPARE(instances.size(), 1);
        QVERIFY(instances[0].toObject().value(QStringLiteral("alive")).isNull());
        QCOMPARE(fleet.value(QStringLiteral("outages")).toArray().size(), 1);
        QVERIFY(fleet.value(QStringLiteral("outages"))
                    .toArray()[0]
                    .toObject()
                    .value(QStringLiteral("to"))
                    .isNull());
        // on the Monitor tab the state has no fleet
        window.showLimitsView();
        QVERIFY(!QJsonDocument::fromJson(stateJson(window, 0))
                     .object()
                     .contains(QStringLiteral("fleet")));
    }

    void theSourcesDockStartsAndStopsTheFleetView() {
        RedisServer server;
        QVERIFY(server.start());
        auto sink = sinkFor(server.url(), "docked");
        sink->add(hits("dock.item", 9, unixNow() - 3, 3));
        QVERIFY(flushedPast(*sink, 0));
        ui::MainWindow window;
        window.show();
        auto* url = window.findChild<QLineEdit*>(QStringLiteral("redisUrlEdit"));
        auto* button = window.findChild<QPushButton*>(QStringLiteral("redisButton"));
        QVERIFY(url && button);
        url->setText(QString::fromStdString(server.url()));
        button->click();
        ui::FleetView* view = window.fleetView();
        QVERIFY(view->isConnected());
        QVERIFY(view->isVisible());
        // Remembered as the source.
        QVERIFY(std::holds_alternative<ui::FleetSpec>(window.session()->spec()));
        QCOMPARE(button->text(), QStringLiteral("Stop watching"));
        QVERIFY(QTest::qWaitFor([&] { return view->shown() && view->shown()->totalWindow == 9; },
                                5000));
        button->click();
        QVERIFY(!view->isConnected());
        QCOMPARE(view->state(), QStringLiteral("off"));
        QCOMPARE(button->text(), QStringLiteral("Watch fleet"));
        // Watching again, then starting the simulator: the fleet view lets go.
        button->click();
        QVERIFY(view->isConnected());
        window.findChild<QPushButton*>(QStringLiteral("simulatorStart"))->click();
        QVERIFY(!view->isConnected());
        QVERIFY(runningAs<SimulatorSource>(*window.session()) != nullptr);
        QCOMPARE(button->text(), QStringLiteral("Watch fleet"));
        // A malformed URL is named, nothing connects, the running source goes on.
        url->setText(QStringLiteral("redis://nohost"));
        button->click();
        QVERIFY(!view->isConnected());
        QVERIFY(runningAs<SimulatorSource>(*window.session()) != nullptr);
        QVERIFY2(window.errorText().contains(QStringLiteral("Fleet: ")),
                 qPrintable(window.errorText()));
        sink->stop();
    }

    // A password typed into the URL field was shown in it and in the status texts, and written
    // in plain text to hitcounter.conf: now it is shown as ***, kept for the session (watching
    // again with the field unchanged still logs in) and never saved.
    void aTypedPasswordIsNeverShownOrSaved() {
        const std::string secret = "s3cret-pw";
        RedisServer server({"--requirepass", secret});
        QVERIFY(server.start());
        ui::MainWindow window;
        window.show();
        auto* url = window.findChild<QLineEdit*>(QStringLiteral("redisUrlEdit"));
        auto* button = window.findChild<QPushButton*>(QStringLiteral("redisButton"));
        QVERIFY(url && button);
        url->setText(QString::fromStdString(server.url(secret)));
        button->click();
        ui::FleetView* view = window.fleetView();
        QVERIFY(view->isConnected());
        QVERIFY(QTest::qWaitFor([&] { return view->state() == QStringLiteral("live"); }, 10000));
        const QString shown = QString::fromStdString(secret);
        QVERIFY2(url->text().contains(QStringLiteral(":***@")), qPrintable(url->text()));
        for (const QString& text : {url->text(), view->statusText(), window.errorText()})
            QVERIFY2(!text.contains(shown), qPrintable(text));
        button->click();  // stop, then watch again with the field as shown
        button->click();
        QVERIFY(QTest::qWaitFor([&] { return view->state() == QStringLiteral("live"); }, 10000));

        QTemporaryDir dir;
        {
            QSettings settings(dir.filePath("hitcounter.conf"), QSettings::IniFormat);
            window.saveSettings(settings);
        }
        QFile saved(dir.filePath("hitcounter.conf"));
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray text = saved.readAll();
        QVERIFY2(text.contains(QByteArray::fromStdString(server.url().substr(8))),
                 text.constData());
        QVERIFY2(!text.contains(QByteArray::fromStdString(secret)), text.constData());
        button->click();
    }

    // Last: it kills a master.
    void aFailingOverMasterIsShownAndTheViewRecovers() {
        const Timestamp now = unixNow();
        auto sink = sinkFor(m_cluster.url(0), "fo");
        // An item on another master than the fleet total ({top}), so one part stays live.
        const int topMaster = m_cluster.masterOf(keySlot("top"));
        std::string item = "fo.item";
        for (int i = 0; m_cluster.masterOf(keySlot(item)) == topMaster && i < 100; ++i)
            item = "fo.item" + std::to_string(i);
        const int victim = m_cluster.masterOf(keySlot(item));
        QVERIFY(victim != topMaster);
        QVERIFY(victim >= 0);
        const int heir = m_cluster.replicaOf(victim);
        QVERIFY(heir >= 0);
        int entry = 0;
        while (entry == victim)
            ++entry;
        sink->add(hits(item, 11, now - 2, 2));
        QVERIFY(flushedPast(*sink, 0));
        ui::FleetView view;
        view.show();
        QVERIFY(view.connectTo(QString::fromStdString(m_cluster.url(entry)), 200ms));
        view.selectItem(QString::fromStdString(item));
        QVERIFY(QTest::qWaitFor(
            [&] {
                const auto s = view.shown();
                return s && view.state() == QLatin1String("live") && s->selected == item &&
                       s->selectedWindow == 11;
            },
            5000));
        const QString victimAddress =
            QStringLiteral("127.0.0.1:%1").arg(m_cluster.node(victim).port());

        m_cluster.kill(victim);
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return view.state() == QLatin1String("degraded") &&
                                view.statusText().contains(victimAddress);
                     },
                     8000),
                 qPrintable(view.statusText()));
        QVERIFY(view.statusText().contains(QStringLiteral("failing over / unreachable, retrying")));
        // Parts on live masters keep being read: the fleet total lives in {top}'s slot.
        const Timestamp before = view.shown()->now;
        QVERIFY(QTest::qWaitFor([&] { return view.shown()->now > before; }, 3000));
        m_cluster.on(heir, {"CLUSTER", "FAILOVER", "TAKEOVER"});
        QVERIFY2(m_cluster.waitOk(30000), m_cluster.error().c_str());
        sink->add(hits(item, 4, unixNow(), 1));
        // Counts flow again through the promoted replica; the dead node stays marked.
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         const auto s = view.shown();
                         return !s->dataStale && s->selected == item && s->selectedWindow == 15;
                     },
                     15000),
                 qPrintable(view.statusText()));
        int masters = 0;
        for (int r = 0; r < view.nodesTable()->rowCount(); ++r)
            if (view.nodesTable()->item(r, 1)->text() == QLatin1String("master") &&
                view.nodesTable()->item(r, 5)->text() == QLatin1String("ok"))
                ++masters;
        QCOMPARE(masters, 3);
        sink->stop();
    }

private:
    RedisCluster m_cluster;
};

HITCOUNTER_TEST_MAIN(FleetViewTest)
#include "tst_fleet_view.moc"
