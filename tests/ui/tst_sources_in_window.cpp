// MainWindow with real sources: replay seek rebuilds the views exactly, a bad trace and a
// taken port show a visible message and the window keeps working, the simulator fills it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/net/socket_listener.h"
#include "core/sources/replay_source.h"
#include "core/sources/simulator_source.h"
#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "tests/ui/gui_test_steps.h"
#include "tests/ui/known_inputs.h"
#include "tests/ui/running_as.h"
#include "ui/monitor/bad_lines_view.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/sources/replay_bar.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::framesUntil;
using hitcounter::testing::runningAs;
using hitcounter::testing::writeKnownTrace;

namespace {

double valueAt(QCPGraph* graph, double key) {
    auto it = graph->data()->findBegin(key, false);
    return it != graph->data()->constEnd() && it->key == key ? it->value : -1.0;
}

}  // namespace

class TestSourcesInWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
    }

    void replaySeekLandsOnExactCounts() {
        QTemporaryDir dir;
        std::vector<Count> perSecond;
        const QString path = writeKnownTrace(dir, perSecond);
        // A manual clock that never moves: the replay stays where it is put.
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        ReplaySpec spec;
        spec.file = path;
        QVERIFY(w.startSpec(spec));
        QVERIFY(framesUntil(
            w, [&] { return w.session()->seekable()->progress().state == ReplayState::Playing; }));
        for (Timestamp target : {Timestamp{700}, Timestamp{420}, Timestamp{999}}) {
            Count expected = 0;
            for (Timestamp t = target - 299; t <= target; ++t) {
                expected += perSecond[std::size_t(t)];
            }
            const auto applied = w.session()->seekable()->progress().seeksApplied;
            w.session()->seek(target);
            QVERIFY(framesUntil(w, [&] {
                return w.session()->seekable()->progress().seeksApplied > applied &&
                       w.views().snapshot().head == target && w.views().lastFrame() &&
                       w.views().lastFrame()->idle;
            }));
            w.renderNow();
            QCOMPARE(w.views().snapshot().windowCount, expected);
            QCOMPARE(valueAt(w.livePlot()->windowGraph(), double(target)), double(expected));
            QCOMPARE(valueAt(w.livePlot()->hitsGraph(), double(target)),
                     double(perSecond[std::size_t(target)]));
            int exact = 0;
            for (const PolicyState& p : w.views().snapshot().policies) {
                if (p.exact) {
                    QCOMPARE(p.count, expected);
                    ++exact;
                }
            }
            QVERIFY(exact >= 2);  // at least the ring and the deque were compared
        }
        QVERIFY(w.replayBar()->isVisibleTo(&w));  // the window itself is never shown here
    }

    void badTraceShowsWhereAndTheWindowGoesOn() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not,a trace header at all\n\x01\x02 garbage\n");
        file.close();
        MainWindow w;
        w.show();
        ReplaySpec spec;
        spec.file = path;
        w.startSpec(spec);
        QVERIFY(framesUntil(w, [&] { return !w.errorText().isEmpty(); }));
        QVERIFY2(w.errorText().contains(QStringLiteral("bad.csv")), qPrintable(w.errorText()));
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("errorBanner"))->isVisible());

        spec.file = dir.filePath(QStringLiteral("missing.csv"));
        QVERIFY(!w.startSpec(spec));
        QVERIFY(w.errorText().contains(QStringLiteral("missing.csv")));
        // still alive: hits pushed by hand are counted
        w.queue().tryPush(HitBatch{HitEvent{5, "", "", 4}});
        w.renderNow();
        QCOMPARE(w.views().snapshot().windowCount, Count{4});
    }

    void takenPortShowsAMessageAndTheWindowGoesOn() {
        const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
        QVERIFY(fd >= 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        socklen_t len = sizeof addr;
        QCOMPARE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
        const int port = ntohs(addr.sin_port);

        MainWindow w;
        w.show();
        ListenerSpec spec;
        spec.address = QStringLiteral("127.0.0.1:%1").arg(port);
        QVERIFY(!w.startSpec(spec));
        ::close(fd);
        QVERIFY2(w.errorText().contains(QString::number(port)), qPrintable(w.errorText()));
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("errorBanner"))->isVisible());
        QVERIFY(w.session()->source() == nullptr);
        // the port is free again: the same request now works
        QVERIFY(w.startSpec(spec));
        QVERIFY(w.errorText().isEmpty());
    }

    // Issue 23 item 12: a followed log's bad line shows in the bad lines table with its place
    // (FILE:LINE) and the line itself, escaped; before, the follower said "bad 1" only.
    void aFollowedLogsBadLineShowsWhereAndWhat() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("access.log"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 5\n");
        file.flush();
        MainWindow w;
        FollowSpec spec;
        spec.file = path;
        spec.fromStart = true;
        QVERIFY2(w.startSpec(spec), qPrintable(w.errorText()));
        file.write("1.2.3.4 - - [10/Oct/2000:13:55:37 -0700] \"GET /a HTTP/1.1\" 200 5\n");
        file.write("garbage \x1b[2J here\n");
        file.flush();
        QTableWidget* table = w.badLinesView()->table();
        QVERIFY(framesUntil(w, [&] { return table->rowCount() == 1; }));
        QCOMPARE(table->item(0, BadLinesView::ColSource)->text(), QStringLiteral("follow ") + path);
        QCOMPARE(table->item(0, BadLinesView::ColOrigin)->text(), QStringLiteral("access.log:3"));
        QVERIFY(!table->item(0, BadLinesView::ColProblem)->text().isEmpty());
        QCOMPARE(table->item(0, BadLinesView::ColLine)->text(),
                 QStringLiteral("\"garbage \\x1b[2J here\""));
        QVERIFY2(w.badLinesView()->summary().contains(QStringLiteral("1 bad line")),
                 qPrintable(w.badLinesView()->summary()));
    }

    // Issue 23 item 9: statsd carries no visitor: the uniques read "–" and say why, never a
    // 0 that reads as a measurement; hits with visitors are counted as before.
    void sourcesWithoutVisitorsShowADashAndSayWhy() {
        MainWindow w;
        ListenerSpec spec;
        spec.address = QStringLiteral("127.0.0.1:0");
        QVERIFY2(w.startSpec(spec), qPrintable(w.errorText()));
        auto* listener = dynamic_cast<SocketListener*>(w.session()->source());
        QVERIFY(listener && listener->port() != 0);
        const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
        QVERIFY(fd >= 0);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        to.sin_port = htons(listener->port());
        const QByteArray payload = "home:3|c\n";
        QCOMPARE(::sendto(fd, payload.constData(), size_t(payload.size()), 0,
                          reinterpret_cast<sockaddr*>(&to), sizeof to),
                 ssize_t(payload.size()));
        ::close(fd);
        QTableWidget* table = w.itemsPanel()->table();
        QVERIFY(framesUntil(w, [&] { return table->rowCount() == 1; }));
        QTableWidgetItem* uniques = table->item(0, 4);
        QCOMPARE(uniques->text(), QStringLiteral("–"));
        QVERIFY2(uniques->toolTip().contains(QStringLiteral("statsd lines carry no visitor")),
                 qPrintable(uniques->toolTip()));
        auto* summary = w.findChild<QLabel*>(QStringLiteral("itemsSummary"));
        QVERIFY2(summary->text().contains(QStringLiteral("visitors: –")) &&
                     summary->text().contains(QStringLiteral("statsd")),
                 qPrintable(summary->text()));
        QVERIFY(!summary->text().contains(QStringLiteral("0 distinct")));
        // Hits with visitors: a number.
        MainWindow named(std::make_shared<ManualClock>());
        testing::pushKnownStream(named.queue(), "page");
        QTableWidget* namedTable = named.itemsPanel()->table();
        QVERIFY(framesUntil(named, [&] { return namedTable->rowCount() == 1; }));
        QCOMPARE(namedTable->item(0, 4)->text(), QStringLiteral("1"));
    }

    void simulatorWarmsUpToAFullWindow() {
        MainWindow w;
        SimulatorSpec spec;  // the default: poisson, warm-up of 600 s
        spec.rate = 50;
        QVERIFY(w.startSpec(spec));
        QVERIFY(framesUntil(w, [&] {
            const EngineSnapshot& s = w.views().snapshot();
            return !s.empty && s.head >= runningAs<SimulatorSource>(*w.session())->now() - 1 &&
                   w.views().history().size() >= 300;
        }));
        // 300 s at about 50 hits/s
        QVERIFY(w.views().snapshot().windowCount > 10000);
        QVERIFY(w.views().snapshot().windowCount < 20000);
    }
};

HITCOUNTER_TEST_MAIN(TestSourcesInWindow)
#include "tst_sources_in_window.moc"
