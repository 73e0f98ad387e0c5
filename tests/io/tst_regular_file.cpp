// Special files where a regular file is needed (issue 30 item 9): a real FIFO (mkfifo) and
// /dev/zero are refused at once, naming the path and what it is, by openRegularFile, HitFile
// (replay) and FileFollower (follow, at the start and at every reopen after a rotation).
//
// The FIFO has no writer: an open() that blocks is the old defect. So that it fails rather
// than hangs, a FifoRescuer opens the write end after a deadline if the call under test has
// not returned.
#include <QTest>
#include <filesystem>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/io/file_follower.h"
#include "core/io/hit_file.h"
#include "core/io/regular_file.h"
#include "tests/io/fifo_rescuer.h"
#include "tests/test_main.h"

using namespace hitcounter;
using hitcounter::testing::FifoRescuer;
namespace fs = std::filesystem;

namespace {

// The message of what `call` throws (empty: it did not throw a std::exception).
template <typename Call>
std::string thrown(Call&& call) {
    try {
        call();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

class TestRegularFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        m_dir = fs::temp_directory_path() / ("hitcounter-regular-" + std::to_string(::getpid()) +
                                             "-" + QTest::currentTestFunction());
        fs::remove_all(m_dir);
        QVERIFY(fs::create_directories(m_dir));
        m_fifo = m_dir / "pipe";
        QCOMPARE(::mkfifo(m_fifo.c_str(), 0600), 0);
    }
    void cleanup() { fs::remove_all(m_dir); }

    void aFifoIsRefusedWithoutBlocking() {
        FifoRescuer rescuer(m_fifo);
        const std::string message = thrown([&] { ::close(openRegularFile(m_fifo, "open x")); });
        QVERIFY2(rescuer.done(), "open() blocked on the FIFO until its write end was opened");
        QCOMPARE(message, "cannot open x '" + m_fifo.string() +
                              "': it is a FIFO (a regular file is needed)");
    }

    void aDeviceADirectoryAndAMissingFileAreNamed() {
        QCOMPARE(thrown([] { ::close(openRegularFile("/dev/zero", "open x")); }),
                 std::string("cannot open x '/dev/zero': it is a character device (a regular "
                             "file is needed)"));
        const fs::path link = m_dir / "zero-link";
        fs::create_symlink("/dev/zero", link);  // a symlink is followed: what it names counts
        QVERIFY(thrown([&] {
                    ::close(openRegularFile(link, "open x"));
                }).ends_with("it is a character device (a regular file is needed)"));
        QVERIFY(thrown([&] {
                    ::close(openRegularFile(m_dir, "open x"));
                }).ends_with("it is a directory (a regular file is needed)"));
        QCOMPARE(thrown([&] { ::close(openRegularFile(m_dir / "none", "open x")); }),
                 "cannot open x '" + (m_dir / "none").string() + "': No such file or directory");
    }

    void aRegularFileIsOpenedBlocking() {
        const fs::path file = m_dir / "t.csv";
        writeText(file, "timestamp,key\n1,a\n");
        const int fd = openRegularFile(file, "open x");
        QVERIFY(fd >= 0);
        QCOMPARE(::fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
        char byte = 0;
        QCOMPARE(::read(fd, &byte, 1), ssize_t{1});
        QCOMPARE(byte, 't');
        ::close(fd);
    }

    // replay FIFO blocked in open(); replay /dev/zero ran forever.
    void aReplayRefusesAFifoAndADevice() {
        FifoRescuer rescuer(m_fifo);
        const std::string fifo = thrown([&] { HitFile file(m_fifo, {}); });
        QVERIFY2(rescuer.done(), "HitFile blocked on the FIFO");
        QVERIFY2(fifo.find("it is a FIFO") != std::string::npos, fifo.c_str());
        QVERIFY(fifo.find(m_fifo.string()) != std::string::npos);
        const std::string zero = thrown([] { HitFile file("/dev/zero", {}); });
        QVERIFY2(zero.find("'/dev/zero': it is a character device") != std::string::npos,
                 zero.c_str());
    }

    void aFollowerRefusesAFifoAtTheStart() {
        FifoRescuer rescuer(m_fifo);
        const std::string message = thrown([&] { FileFollower follower(m_fifo, {}); });
        QVERIFY2(rescuer.done(), "FileFollower blocked on the FIFO");
        QCOMPARE(message, "cannot follow '" + m_fifo.string() +
                              "': it is a FIFO (a regular file is needed)");
    }

    // A followed file replaced by a symlink to /dev/zero: readNew read zeros forever (100 % CPU,
    // deaf to SIGTERM). It is refused, named, not tried again, and the next regular file at the
    // path is read from its start.
    void aFollowerRefusesADeviceRotatedIn() {
        const fs::path log = m_dir / "access.log";
        writeText(log, "");
        FileFollower follower(log, {.fromStart = true, .useInotify = false});
        std::vector<std::string> lines;
        const auto collect = [&](std::string_view line) { lines.emplace_back(line); };
        writeText(log, "one\n");
        follower.readNew(collect);
        QCOMPARE(lines, std::vector<std::string>{"one"});

        fs::remove(log);
        fs::create_symlink("/dev/zero", log);
        follower.readNew(collect);  // returns: nothing read from /dev/zero
        follower.readNew(collect);
        QCOMPARE(lines.size(), std::size_t{1});
        QCOMPARE(follower.stats().refusedFiles, std::uint64_t{1});  // once, not per call
        QCOMPARE(follower.stats().rotations, std::uint64_t{0});
        QCOMPARE(follower.problem(), "cannot follow '" + log.string() +
                                         "': it is a character device (a regular file is needed)");

        fs::remove(log);
        writeText(log, "two\n");
        follower.readNew(collect);
        QCOMPARE(lines, (std::vector<std::string>{"one", "two"}));
        QCOMPARE(follower.stats().rotations, std::uint64_t{1});
        QVERIFY(follower.problem().empty());
    }

    // A FIFO rotated in blocked the follower's reopen forever.
    void aFollowerRefusesAFifoRotatedIn() {
        const fs::path log = m_dir / "access.log";
        writeText(log, "one\n");
        FileFollower follower(log, {.fromStart = true, .useInotify = false});
        std::vector<std::string> lines;
        follower.readNew([&](std::string_view line) { lines.emplace_back(line); });
        fs::remove(log);
        fs::rename(m_fifo, log);
        FifoRescuer rescuer(log);
        follower.readNew([&](std::string_view line) { lines.emplace_back(line); });
        QVERIFY2(rescuer.done(), "the follower's reopen blocked on the FIFO");
        QCOMPARE(follower.stats().refusedFiles, std::uint64_t{1});
        QVERIFY2(follower.problem().find("it is a FIFO") != std::string::npos,
                 follower.problem().c_str());
        QCOMPARE(lines, std::vector<std::string>{"one"});
    }

private:
    fs::path m_dir;
    fs::path m_fifo;
};

HITCOUNTER_TEST_GUILESS_MAIN(TestRegularFile)
#include "tst_regular_file.moc"
