// FollowSource on real files with its real worker thread: a log written in steps (appends,
// half lines, rotation by rename, copytruncate) arrives as exact hits; detection, refusals
// and the statistics a status bar shows.
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "batch_collector.h"
#include "core/sources/follow_set.h"
#include "core/sources/follow_source.h"
#include "tests/test_main.h"

using namespace hitcounter;
using hitcounter::test::BatchCollector;

namespace {

constexpr Timestamp kBase = 971211336;

std::string combined(int offset, const std::string& path, const std::string& client = "1.2.3.4") {
    const int s = 13 * 3600 + 55 * 60 + 36 + offset;
    char time[40];
    std::snprintf(time, sizeof time, "10/Oct/2000:%02d:%02d:%02d -0700", s / 3600, s / 60 % 60,
                  s % 60);
    return client + " - - [" + time + "] \"GET " + path + " HTTP/1.1\" 200 5 \"-\" \"t\"\n";
}

void append(const std::filesystem::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::app);
    out << text;
}

}  // namespace

class TestFollowSource : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::filesystem::path file(const char* name) const {
        return m_dir.filePath(name).toStdString();
    }

    static void followsALogThroughItsLife(bool useInotify, const std::filesystem::path& log) {
        append(log, combined(0, "/before-start"));  // there before the start: not read
        BatchQueue queue;
        FollowSource follow(
            {.file = log, .useInotify = useInotify, .pollInterval = std::chrono::milliseconds(20)});
        follow.start(queue);
        BatchCollector collector(queue);

        for (int i = 1; i <= 100; ++i)
            append(log, combined(i, "/a"));
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 100; }));

        // A line written in two parts counts once, when complete.
        const std::string line = combined(101, "/half");
        append(log, line.substr(0, 20));
        append(log, line.substr(20));
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 101; }));

        // Rotation by rename: the writer finishes the old file, then writes a new one.
        std::filesystem::path rotated = log;
        rotated += ".1";
        std::filesystem::rename(log, rotated);
        append(rotated, combined(102, "/old-tail"));
        append(log, combined(103, "/new"));
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 103; }));
        QVERIFY(test::waitUntil([&] { return follow.followStats().rotations == 1; }));

        for (int i = 0; i < 4; ++i)
            append(log, combined(103, "/new"));
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 107; }));

        // copytruncate: the copy is made, the file cut to 0, and writing goes on (less than was
        // there: a file refilled past the read position between two reads looks unchanged).
        std::filesystem::resize_file(log, 0);
        append(log, combined(104, "/after-truncate"));
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 108; }));
        QCOMPARE(follow.followStats().truncations, std::uint64_t(1));

        append(log, "this is not an access log line\n");
        append(log, combined(105, "/last"));
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 109; }));
        follow.stop();
        collector.drainNow();

        QCOMPARE(collector.hits(), Count{109});
        const auto stats = follow.stats();
        QCOMPARE(stats.hits, std::uint64_t(109));
        QCOMPARE(stats.badLines, std::uint64_t(1));
        QCOMPARE(stats.lines, std::uint64_t(110));
        QCOMPARE(stats.dropped, std::uint64_t(0));
        QCOMPARE(collector.events().front().key, std::string("/a"));
        QCOMPARE(collector.events().front().time, kBase + 1);
        QCOMPARE(collector.events().back().key, std::string("/last"));
        QCOMPARE(collector.perSecond().count(kBase), std::size_t(0));  // /before-start
    }

private Q_SLOTS:
    void followsWithInotify() { followsALogThroughItsLife(true, file("inotify.log")); }
    void followsByPolling() { followsALogThroughItsLife(false, file("polling.log")); }

    void stopTakesWhatWasWrittenBeforeIt() {
        const auto log = file("stop.log");
        append(log, "");
        BatchQueue queue;
        FollowSource follow({.file = log, .pollInterval = std::chrono::milliseconds(5000)});
        follow.start(queue);
        append(log, combined(1, "/x") + combined(2, "/y"));
        follow.stop();
        BatchCollector collector(queue);
        collector.drainNow();
        QCOMPARE(collector.hits(), Count{2});
    }

    void anEmptyLogIsDetectedFromItsFirstLines() {
        const auto log = file("empty-then-json.log");
        append(log, "");
        BatchQueue queue;
        FollowSource follow({.file = log, .pollInterval = std::chrono::milliseconds(20)});
        follow.start(queue);
        append(log, R"({"time":"2000-10-10T20:55:36Z","uri":"/j","remote_addr":"v1"})"
                    "\n");
        BatchCollector collector(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 1; }));
        QCOMPARE(collector.events().front().key, std::string("/j"));
        QCOMPARE(collector.events().front().visitor, std::string("v1"));
    }

    void refusesWhatIsNotALiveAccessLog_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("trace csv") << QByteArray("timestamp,key\n1,a\n") << "trace CSV";
        QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08\x00\x00\x00", 6) << "gzip";
        QTest::newRow("unknown text") << QByteArray("hello\nworld\n") << "cannot recognise";
    }
    void refusesWhatIsNotALiveAccessLog() {
        QFETCH(QByteArray, content);
        QFETCH(QString, mentions);
        const auto log = file("refused.log");
        std::filesystem::remove(log);
        append(log, content.toStdString());
        BatchQueue queue;
        FollowSource follow({.file = log});
        // check() (issue 23 item 3: before anything stops) refuses it with the same words.
        for (const bool checkOnly : {true, false}) {
            try {
                checkOnly ? follow.check() : follow.start(queue);
                QFAIL("the file was accepted");
            } catch (const SourceError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(mentions), e.what());
            }
        }
        QVERIFY(!follow.running());
    }

    // Issue 23 item 12: a line that does not parse is kept with FILE:LINE, the problem and the
    // line escaped (from the start: its line number; from the end: +N since following began).
    void aBadLineIsKeptWithItsPlace() {
        for (const bool fromStart : {true, false}) {
            const auto log = file(fromStart ? "bad-from-start.log" : "bad-from-end.log");
            std::filesystem::remove(log);
            append(log, combined(1, "/a") + combined(2, "/b"));
            BatchQueue queue;
            FollowSource follow({.file = log,
                                 .fromStart = fromStart,
                                 .pollInterval = std::chrono::milliseconds(20)});
            follow.start(queue);
            append(log, combined(3, "/c") + "not a log line \x07\n");
            BatchCollector collector(queue);
            QVERIFY(collector.collectUntil([&] { return !follow.recentBadLines().empty(); }));
            const BadLine line = follow.recentBadLines().front();
            QCOMPARE(line.origin, log.filename().string() + (fromStart ? ":4" : ":+2"));
            QCOMPARE(line.line, std::string("\"not a log line \\x07\""));
            QCOMPARE(line.source, follow.describe());
            QVERIFY(!line.problem.empty());
            QVERIFY(line.time > 1'600'000'000);  // the wall clock
            follow.stop();
        }
    }

    // FollowSet: two servers' logs followed into one queue, from their start and on: every
    // line of both counted once, the figures summed, the newest time the newest of both, the
    // bad lines of both with their files, one description naming both.
    void severalLogsAreFollowedAsOne() {
        const auto web1 = file("web1.log");
        const auto web2 = file("web2.log");
        append(web1, combined(1, "/a") + combined(2, "/a"));
        append(web2, combined(1, "/b"));
        BatchQueue queue;
        FollowSet logs(
            {web1, web2},
            {.file = {}, .fromStart = true, .pollInterval = std::chrono::milliseconds(20)});
        logs.start(queue);
        BatchCollector collector(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 3; }));
        for (int i = 3; i <= 40; ++i) {
            append(i % 2 ? web1 : web2, combined(i, i % 2 ? "/a" : "/b"));
        }
        append(web1, "garbage one\n");
        append(web2, "garbage two\n");
        QVERIFY(collector.collectUntil(
            [&] { return collector.hits() == 41 && logs.recentBadLines().size() == 2; }));
        Count a = 0;
        for (const HitEvent& e : collector.events()) {
            a += e.key == "/a" ? e.count : 0;
        }
        QCOMPARE(a, Count(2 + 19));  // web1: two at the start, then every odd second
        QCOMPARE(logs.stats().hits, std::uint64_t(41));
        QCOMPARE(logs.stats().lines, std::uint64_t(43));
        QCOMPARE(logs.stats().badLines, std::uint64_t(2));
        QCOMPARE(logs.newestTime(), std::optional<Timestamp>(kBase + 40));
        QCOMPARE(logs.describe(), "follow " + web1.string() + ", " + web2.string());
        std::vector<std::string> origins;
        for (const BadLine& line : logs.recentBadLines()) {
            origins.push_back(line.origin);
        }
        std::sort(origins.begin(), origins.end());
        // web1: 2 + 19 lines before its garbage, web2: 1 + 19.
        QCOMPARE(origins, (std::vector<std::string>{"web1.log:22", "web2.log:21"}));
        logs.stop();
        QVERIFY(!logs.running());
    }

    // All or none: a file that cannot be followed stops the others and is named.
    void aSetStartsAllOrNone() {
        const auto good = file("good.log");
        append(good, combined(1, "/a"));
        BatchQueue queue;
        FollowSet logs({good, file("missing.log")}, {});
        QVERIFY_THROWS_EXCEPTION(SourceError, logs.check());
        try {
            logs.start(queue);
            QFAIL("started without missing.log");
        } catch (const SourceError& e) {
            QVERIFY2(std::string(e.what()).find("missing.log") != std::string::npos, e.what());
        }
        QVERIFY(!logs.running());
    }

    void missingFileFailsAtStart() {
        BatchQueue queue;
        FollowSource follow({.file = file("nope.log")});
        QVERIFY_THROWS_EXCEPTION(SourceError, follow.check());
        QVERIFY_THROWS_EXCEPTION(SourceError, follow.start(queue));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestFollowSource)
#include "tst_follow_source.moc"
