// OutputFile: a regular file is replaced atomically through FILE.partial; a link is followed
// and stays a link; a FIFO or character device is written through, never replaced; bad names
// are refused when the OutputFile is made, before any work.
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "core/io/output_file.h"
#include "tests/test_main.h"

using namespace hitcounter;
namespace fs = std::filesystem;

namespace {
std::string contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

QString refusal(const fs::path& file) {
    try {
        OutputFile out(file);
    } catch (const OutputFileError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}
}  // namespace

class OutputFileTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    fs::path path(const char* name) { return m_dir.filePath(name).toStdString(); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void aRegularFileIsReplacedOnlyByCommit() {
        const auto file = path("regular.csv");
        writeText(file, "old\n");
        OutputFile out(file);
        QVERIFY(!out.writesThrough());
        QCOMPARE(out.writePath(), OutputFile::partialPath(file));
        QVERIFY(out.write("new\n"));
        QCOMPARE(contents(file), std::string("old\n"));
        out.commit();
        QCOMPARE(contents(file), std::string("new\n"));
        QVERIFY(!fs::exists(OutputFile::partialPath(file)));
    }

    void discardRemovesThePartialFile() {
        const auto file = path("discarded.csv");
        OutputFile out(file);
        QVERIFY(out.write("x\n"));
        QVERIFY(fs::exists(OutputFile::partialPath(file)));
        out.discard();
        QVERIFY(!fs::exists(OutputFile::partialPath(file)));
        QVERIFY(!fs::exists(file));
    }

    void aSymbolicLinkIsFollowedAndStaysALink() {
        const auto target = path("target.csv");
        const auto link = path("link.csv");
        writeText(target, "old\n");
        fs::create_symlink(target, link);
        OutputFile out(link);
        QVERIFY(out.write("through the link\n"));
        out.commit();
        QVERIFY(fs::is_symlink(link));
        QCOMPARE(contents(target), std::string("through the link\n"));
        QVERIFY(!fs::exists(OutputFile::partialPath(link)));
    }

    void aFifoIsWrittenThroughAndStaysAFifo() {
        const auto fifo = path("pipe");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        // Without a reader: refused at once instead of blocking.
        QVERIFY2(refusal(fifo).contains("no reader"), qPrintable(refusal(fifo)));
        const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        {
            OutputFile out(fifo);
            QVERIFY(out.writesThrough());
            QVERIFY(out.write("1,a\n"));
            out.commit();
        }
        char buffer[16] = {};
        QCOMPARE(::read(reader, buffer, sizeof buffer), ssize_t{4});
        QCOMPARE(std::string(buffer), std::string("1,a\n"));
        ::close(reader);
        QVERIFY(fs::is_fifo(fifo));
        QVERIFY(!fs::exists(OutputFile::partialPath(fifo)));
    }

    void devicesAreWrittenThroughAndAFullDiskIsAnError() {
        {
            OutputFile null("/dev/null");
            QVERIFY(null.writesThrough());
            QVERIFY(null.write("gone\n"));
            null.commit();
        }
        QVERIFY(fs::is_character_file("/dev/null"));
        OutputFile full("/dev/full");
        QVERIFY(!full.write("x\n"));
        QVERIFY2(QString::fromStdString(full.error()).contains("/dev/full: cannot write"),
                 full.error().c_str());
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, full.commit());
        QVERIFY(fs::is_character_file("/dev/full"));
        QVERIFY(!fs::exists("/dev/full.partial"));
    }

    void badNamesAreRefusedWithTheReason_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << ""
                               << "empty";
        QTest::newRow("directory") << m_dir.path() << "is a directory";
        QTest::newRow("trailing slash") << m_dir.filePath("new/") << "ends in '/'";
        QTest::newRow("missing directory") << m_dir.filePath("no/such/x.csv") << "cannot create";
        QTest::newRow("dangling link") << m_dir.filePath("dangling") << "symbolic link to nothing";
        QTest::newRow("partial is a link") << m_dir.filePath("trap.csv") << "cannot create";
    }
    void badNamesAreRefusedWithTheReason() {
        QFETCH(QString, name);
        QFETCH(QString, reason);
        fs::create_symlink(path("nothing-here"), path("dangling"));
        // A link planted at FILE.partial must not make the truncation hit its target.
        writeText(path("victim"), "keep\n");
        fs::create_symlink(path("victim"), path("trap.csv.partial"));
        const QString message = refusal(name.toStdString());
        QVERIFY2(message.contains(reason), qPrintable(message));
        QCOMPARE(contents(path("victim")), std::string("keep\n"));
        QVERIFY(!fs::exists(m_dir.path().toStdString() + ".partial"));
        fs::remove(path("dangling"));
        fs::remove(path("trap.csv.partial"));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(OutputFileTest)
#include "tst_output_file.moc"
