// BadLineLog: the newest bad lines, bounded in count and in bytes, oldest first (quoteLine is
// tested in tests/net/tst_line_ingest.cpp, where the listeners use it).
#include <QTest>
#include <thread>

#include "core/sources/bad_lines.h"
#include "tests/test_main.h"

using namespace hitcounter;

class TestBadLines : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theNewestAreKeptOldestFirst() {
        BadLineLog log;
        for (std::size_t i = 0; i < BadLineLog::kMaxLines + 50; ++i) {
            log.add({Timestamp(i), "src", "origin" + std::to_string(i), "problem", "\"x\""});
        }
        const std::vector<BadLine> lines = log.recent();
        QCOMPARE(lines.size(), BadLineLog::kMaxLines);
        QCOMPARE(lines.front().origin, std::string("origin50"));
        QCOMPARE(lines.back().origin, "origin" + std::to_string(BadLineLog::kMaxLines + 49));
        QCOMPARE(log.total(), std::uint64_t{BadLineLog::kMaxLines + 50});
    }

    void aLongLineIsCut() {
        BadLineLog log;
        log.add({0, "s", "o", "p", std::string(10'000, 'a')});
        QCOMPARE(log.recent().front().line.size(), BadLineLog::kMaxLineBytes);
    }

    // add() on one thread, recent() on another (tsan runs this too).
    void addAndReadFromTwoThreads() {
        BadLineLog log;
        std::jthread writer([&] {
            for (int i = 0; i < 2000; ++i) {
                log.add({i, "s", "o", "p", "l"});
            }
        });
        std::size_t seen = 0;
        while (log.total() < 2000) {
            seen = std::max(seen, log.recent().size());
        }
        QVERIFY(seen <= BadLineLog::kMaxLines);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestBadLines)
#include "tst_bad_lines.moc"
