// FileFollower on real files: appends, half lines, the start position, rotation by rename,
// copytruncate, overlong lines, and inotify waking it before the poll interval.
#include <unistd.h>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/io/file_follower.h"
#include "tests/test_main.h"

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

// Runs code as the user "nobody" when the test runs as root (root may read any file), as
// itself otherwise; the effective user is restored after each call.
struct AsNobody {
    template <class Fn>
    void run(Fn&& fn) {
        const bool root = ::geteuid() == 0;
        if (root && ::seteuid(kNobody) != 0)
            QFAIL("seteuid(nobody) failed");
        fn();
        if (root && ::seteuid(0) != 0)
            QFAIL("seteuid(0) failed");
    }
    static constexpr uid_t kNobody = 65534;
};

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
        FileFollower follower(log, {.rotatedQuiet = 300ms});
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
        // The old file is still read: its half line completes.
        append(file("rotate.log.1"), "s\n");
        QCOMPARE(readNew(follower), Lines{"cuts"});
        QCOMPARE(follower.stats().lostPartialLines, std::uint64_t(0));
        // Quiet for rotatedQuiet: closed, its half line lost, later writes there not read.
        append(file("rotate.log.1"), "half");
        QCOMPARE(readNew(follower), Lines{});
        std::this_thread::sleep_for(400ms);
        QCOMPARE(readNew(follower), Lines{});
        QCOMPARE(follower.stats().lostPartialLines, std::uint64_t(1));
        append(file("rotate.log.1"), "\nafter close\n");
        append(log, "more\n");
        QCOMPARE(readNew(follower), Lines{"more"});
    }

    // #30 item 10: a writer that has not reopened yet after a rename keeps appending to the old
    // file; those lines were lost (5 of 55 in the issue) once the new file was being read.
    void aWriterStillOnTheRenamedFileLosesNothing() {
        const auto log = file("writer.log");
        append(log, "");
        FileFollower follower(log, {});
        std::ofstream writer(log, std::ios::binary | std::ios::app);
        Lines expected;
        Lines got;
        const auto take = [&] {
            for (auto& line : readNew(follower))
                got.push_back(std::move(line));
        };
        for (int i = 0; i < 50; ++i) {
            writer << "line " << i << "\n" << std::flush;
            expected.push_back("line " + std::to_string(i));
        }
        take();
        std::filesystem::rename(log, file("writer.log.1"));
        append(log, "first in new\n");
        expected.push_back("first in new");
        take();  // the new file is read from here on
        for (int i = 50; i < 55; ++i) {
            writer << "line " << i << "\n" << std::flush;
            expected.push_back("line " + std::to_string(i));
        }
        take();
        QCOMPARE(got, expected);
        QCOMPARE(follower.stats().rotations, std::uint64_t(1));
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

    // #30 item 10: cut to 0 and written past the old size between two reads (94 of 110 lines
    // were counted): the first bytes differ, so it is read again from 0.
    void aTruncateAndRegrowPastTheOldSizeIsSeen() {
        const auto log = file("regrow.log");
        append(log, "");
        FileFollower follower(log, {});
        append(log, "one\ntwo\n");
        QCOMPARE(readNew(follower), (Lines{"one", "two"}));
        std::filesystem::resize_file(log, 0);
        append(log, "three\nfour\nfive\n");
        QCOMPARE(readNew(follower), (Lines{"three", "four", "five"}));
        QCOMPARE(follower.stats().truncations, std::uint64_t(1));
        append(log, "six\n");
        QCOMPARE(readNew(follower), Lines{"six"});
        QCOMPARE(follower.stats().truncations, std::uint64_t(1));
    }

    // #30 item 10: a new file at the path that this process may not read was skipped in
    // silence. Now it is named once, the old file is read meanwhile, and it is tried again until
    // it can be read. (As root, the reads are made as "nobody": root reads any file.)
    void anUnreadableNewFileIsNamedAndTriedAgain() {
        namespace fs = std::filesystem;
        const fs::path folder = file("perm");
        fs::create_directory(folder);
        fs::permissions(m_dir.path().toStdString(), fs::perms(0755));
        fs::permissions(folder, fs::perms(0777));
        const fs::path log = folder / "access.log";
        append(log, "");
        fs::permissions(log, fs::perms(0666));
        AsNobody nobody;
        std::optional<FileFollower> follower;
        nobody.run([&] { follower.emplace(log, FileFollowerOptions{}); });
        fs::rename(log, folder / "access.log.1");
        append(log, "in new\n");
        fs::permissions(log, fs::perms(0600));  // root's (or ours with no read bit)
        if (::geteuid() != 0)
            fs::permissions(log, fs::perms(0200));
        append(folder / "access.log.1", "still old\n");
        Lines lines;
        nobody.run([&] { lines = readNew(*follower); });
        QCOMPARE(lines, Lines{"still old"});
        QCOMPARE(follower->stats().unreadableFiles, std::uint64_t(1));
        QVERIFY2(follower->problem().find("access.log") != std::string::npos &&
                     follower->problem().find("Permission denied") != std::string::npos &&
                     follower->problem().find("trying again") != std::string::npos,
                 follower->problem().c_str());
        nobody.run([&] { lines = readNew(*follower); });
        QCOMPARE(follower->stats().unreadableFiles, std::uint64_t(1));  // named once
        fs::permissions(log, fs::perms(0644));
        nobody.run([&] { lines = readNew(*follower); });
        QCOMPARE(lines, Lines{"in new"});
        QCOMPARE(follower->stats().rotations, std::uint64_t(1));
        QVERIFY(follower->problem().empty());
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

HITCOUNTER_TEST_GUILESS_MAIN(TestFileFollower)
#include "tst_file_follower.moc"
