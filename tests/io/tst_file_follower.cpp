// FileFollower on real files: appends, half lines, the start position, rotation by rename,
// copytruncate, overlong lines, and inotify waking it before the poll interval.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/io/file_follower.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

void append(const std::filesystem::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::app);
    out << text;
}

std::vector<std::string> readNew(FileFollower& follower) {
    std::vector<std::string> lines;
    follower.readNew([&](std::string_view line) { lines.emplace_back(line); });
    return lines;
}

using Lines = std::vector<std::string>;

}  // namespace

class TestFileFollower : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::filesystem::path file(const char* name) const {
        return m_dir.filePath(name).toStdString();
    }

private Q_SLOTS:
    void startsAtTheEndAndReadsAppendedLines() {
        const auto log = file("append.log");
        append(log, "old 1\nold 2\n");
        FileFollower follower(log, {});
        QCOMPARE(readNew(follower), Lines{});
        append(log, "new 1\nnew 2\n");
        QCOMPARE(readNew(follower), (Lines{"new 1", "new 2"}));
        QCOMPARE(readNew(follower), Lines{});
        QCOMPARE(follower.stats().lines, std::uint64_t(2));
    }

    void fromStartReadsWhatIsThere() {
        const auto log = file("start.log");
        append(log, "a\nb\n");
        FileFollower follower(log, {.fromStart = true});
        QCOMPARE(readNew(follower), (Lines{"a", "b"}));
    }

    void aHalfLineWaitsForItsBreak() {
        const auto log = file("half.log");
        append(log, "");
        FileFollower follower(log, {});
        append(log, "first ha");
        QCOMPARE(readNew(follower), Lines{});
        append(log, "lf\nsecond");
        QCOMPARE(readNew(follower), Lines{"first half"});
        append(log, "\n");
        QCOMPARE(readNew(follower), Lines{"second"});
    }

    void startingInsideALineSkipsItsTail() {
        const auto log = file("inside.log");
        append(log, "whole\nhalf of a li");
        FileFollower follower(log, {});
        append(log, "ne\nnext\n");
        QCOMPARE(readNew(follower), Lines{"next"});
    }

    void rotationByRenameReadsTheOldFileToItsEndThenTheNewOne() {
        const auto log = file("rotate.log");
        append(log, "");
        FileFollower follower(log, {});
        append(log, "before\n");
        QCOMPARE(readNew(follower), Lines{"before"});
        // The writer still writes into the renamed file, then a new file appears.
        append(log, "late in old\n");
        std::filesystem::rename(log, file("rotate.log.1"));
        append(file("rotate.log.1"), "later in old\ncut");
        QCOMPARE(readNew(follower), (Lines{"late in old", "later in old"}));
        append(log, "in new\n");
        QCOMPARE(readNew(follower), Lines{"in new"});
        QCOMPARE(follower.stats().rotations, std::uint64_t(1));
        QCOMPARE(follower.stats().lostPartialLines, std::uint64_t(1));
        append(log, "more\n");
        QCOMPARE(readNew(follower), Lines{"more"});
    }

    void copytruncateStartsAgainAtZero() {
        const auto log = file("trunc.log");
        append(log, "");
        FileFollower follower(log, {});
        append(log, "one\ntwo\n");
        QCOMPARE(readNew(follower), (Lines{"one", "two"}));
        std::filesystem::resize_file(log, 0);
        append(log, "three\n");
        QCOMPARE(readNew(follower), Lines{"three"});
        QCOMPARE(follower.stats().truncations, std::uint64_t(1));
        QCOMPARE(follower.stats().rotations, std::uint64_t(0));
    }

    void overlongLinesAreDroppedNotHeld() {
        const auto log = file("long.log");
        append(log, "");
        FileFollower follower(log, {.maxLineBytes = 100});
        append(log, std::string(250, 'x'));
        QCOMPARE(readNew(follower), Lines{});
        append(log, std::string(5000, 'y') + "\nshort\n");
        QCOMPARE(readNew(follower), Lines{"short"});
        QCOMPARE(follower.stats().tooLongLines, std::uint64_t(1));
    }

    void missingFileIsAnErrorNamingIt() {
        try {
            FileFollower follower(file("absent.log"), {});
            QFAIL("a missing file was followed");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find("absent.log") != std::string::npos, e.what());
        }
    }

    void inotifyWakesTheWaitBeforeItsTimeout() {
        const auto log = file("wake.log");
        append(log, "");
        FileFollower follower(log, {});
        if (!follower.usingInotify())
            QSKIP("inotify is not available here");
        std::jthread writer([&] {
            std::this_thread::sleep_for(50ms);
            append(log, "wake\n");
        });
        QElapsedTimer timer;
        timer.start();
        follower.waitForChange(10s);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        writer.join();
        QCOMPARE(readNew(follower), Lines{"wake"});
    }

    void pollingFallbackReadsTheSame() {
        const auto log = file("poll.log");
        append(log, "");
        FileFollower follower(log, {.useInotify = false});
        QVERIFY(!follower.usingInotify());
        append(log, "p\n");
        follower.waitForChange(10ms);
        QCOMPARE(readNew(follower), Lines{"p"});
    }
};

QTEST_GUILESS_MAIN(TestFileFollower)
#include "tst_file_follower.moc"
