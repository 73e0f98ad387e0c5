// HitFile: real files on disk. Format detection, gzip streams (one and several members,
// truncated, corrupt), files larger than the detection head, and the errors a user sees.
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <zlib.h>

#include "core/io/hit_file.h"
#include "tests/io/gzip_writer.h"
#include "tests/io/truncated_gzip.h"
#include "tests/test_main.h"

using namespace hitcounter;
using hitcounter::testing::writeGzip;

Q_DECLARE_METATYPE(hitcounter::HitFileFormat)

namespace {

std::string combinedLine(int second, const std::string& path, int status = 200) {
    // 10/Oct/2000:13:55:36 -0700 is 971211336; seconds within that minute stay readable.
    const int s = 13 * 3600 + 55 * 60 + 36 + second;
    char time[64];
    std::snprintf(time, sizeof time, "10/Oct/2000:%02d:%02d:%02d -0700", s / 3600, s / 60 % 60,
                  s % 60);
    return "10.0.0." + std::to_string(second % 250) + " - - [" + time + "] \"GET " + path +
           " HTTP/1.1\" " + std::to_string(status) + " 12 \"-\" \"agent\"\n";
}

struct ReadResult {
    std::vector<TraceRow> rows;
    std::vector<TraceError> errors;
};

ReadResult readAll(HitFile& file) {
    ReadResult result;
    TraceRow row;
    for (TraceStatus s; (s = file.next(row)) != TraceStatus::End;) {
        if (s == TraceStatus::Row)
            result.rows.push_back(row);
        else
            result.errors.push_back(file.error());
    }
    return result;
}

void writeFile(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

std::string readBytes(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

class TestHitFile : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void detectsEachFormatFromItsFirstLines_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<HitFileFormat>("format");
        QTest::newRow("trace") << QByteArray("# made by gen\ntimestamp,key\n1,a\n")
                               << HitFileFormat::Trace;
        QTest::newRow("empty is an empty trace") << QByteArray("") << HitFileFormat::Trace;
        QTest::newRow("combined") << QByteArray::fromStdString(combinedLine(0, "/a") +
                                                               combinedLine(1, "/b"))
                                  << HitFileFormat::Combined;
        QTest::newRow("common")
            << QByteArray(R"(1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 5)"
                          "\n")
            << HitFileFormat::Common;
        QTest::newRow("json") << QByteArray(R"({"time":"2000-10-10T20:55:36Z","uri":"/"})"
                                            "\n")
                              << HitFileFormat::JsonLines;
        QTest::newRow("csv without timestamp column")
            << QByteArray("1,a,b\n") << HitFileFormat::Trace;
        QTest::newRow("one bad line among good ones")
            << QByteArray::fromStdString("garbage\n" + combinedLine(0, "/a") +
                                         combinedLine(1, "/b"))
            << HitFileFormat::Combined;
    }
    void detectsEachFormatFromItsFirstLines() {
        QFETCH(QByteArray, text);
        QFETCH(HitFileFormat, format);
        std::string problem;
        const auto detected = detectHitFileFormat(text.toStdString(), problem);
        QVERIFY2(detected.has_value(), problem.c_str());
        QCOMPARE(*detected, format);
    }

    void unrecognisedFileSaysWhatItSaw() {
        writeFile(path("notes.txt"), "Dear diary\ntoday I counted hits.\n");
        try {
            HitFile file(path("notes.txt").toStdString(), {});
            QFAIL("an unrecognised file was opened");
        } catch (const HitFileError& e) {
            const std::string message = e.what();
            QVERIFY2(message.find("notes.txt") != std::string::npos, e.what());
            QVERIFY2(message.find("'Dear diary'") != std::string::npos, e.what());
            QVERIFY2(message.find("--format") != std::string::npos, e.what());
        }
    }

    // JSON and combined lines in turn: neither is most of the sample. Taken for a trace CSV
    // before (the JSON object's commas), with the JSON line called a "header".
    void aLogOfTwoFormatsSaysSoAndWhichLineDoesNotFit() {
        const std::string json = R"({"time":"2000-10-10T20:55:36Z","uri":"/a","status":200})";
        std::string problem;
        const auto detected = detectHitFileFormat(
            json + "\n" + combinedLine(1, "/b") + json + "\n" + combinedLine(2, "/b"), problem);
        QVERIFY(!detected.has_value());
        QVERIFY2(
            problem.find("only 2 of the first 4 lines read as the combined format (line 1: ") !=
                std::string::npos,
            problem.c_str());
        QVERIFY2(problem.find("--format") != std::string::npos, problem.c_str());
    }

    // A combined line whose zone is +9999: the message names the offset, not "a time at or
    // after 1970" (what it said before).
    void aBadUtcOffsetIsNamedAsTheProblem() {
        std::string line = combinedLine(0, "/a");
        line.replace(line.find("-0700"), 5, "+9999");
        writeFile(path("zone.log"), combinedLine(0, "/a") + line + combinedLine(2, "/a"));
        HitFile file(path("zone.log").toStdString(), {});
        const auto result = readAll(file);
        QCOMPARE(result.rows.size(), std::size_t(2));
        QCOMPARE(result.errors.size(), std::size_t(1));
        QCOMPARE(result.errors[0].line, std::uint64_t(2));
        QCOMPARE(result.errors[0].kind, TraceErrorKind::BadLogTime);
        const std::string& message = result.errors[0].message;
        QVERIFY2(message.find("'10/Oct/2000:13:55:36 +9999' has a UTC offset that is not +hhmm") !=
                     std::string::npos,
                 message.c_str());
    }

    void missingFileAndDirectoryAreClearErrors() {
        QVERIFY_THROWS_EXCEPTION(HitFileError, HitFile(path("absent.log").toStdString(), {}));
        QVERIFY_THROWS_EXCEPTION(HitFileError, HitFile(m_dir.path().toStdString(), {}));
    }

    void readsAFileLargerThanTheDetectionHeadInOrder() {
        std::string text;
        const int lines = 5000;  // ~390 KiB: the head, the splice and several chunks
        for (int i = 0; i < lines; ++i)
            text += combinedLine(i % 600, "/page/" + std::to_string(i));
        writeFile(path("big.log"), text);
        HitFile file(path("big.log").toStdString(), {});
        QCOMPARE(file.format(), HitFileFormat::Combined);
        const auto result = readAll(file);
        QVERIFY(result.errors.empty());
        QCOMPARE(int(result.rows.size()), lines);
        for (int i = 0; i < lines; ++i) {
            QCOMPARE(result.rows[std::size_t(i)].event.key, "/page/" + std::to_string(i));
            QCOMPARE(result.rows[std::size_t(i)].event.time, 971211336 + i % 600);
            QCOMPARE(result.rows[std::size_t(i)].line, std::uint64_t(i + 1));
        }
        QCOMPARE(file.progress().bytesRead, std::uint64_t(text.size()));
    }

    void gzipIsReadAsAStreamIncludingSeveralMembers() {
        std::string first, second;
        for (int i = 0; i < 3000; ++i)
            first += combinedLine(i % 60, "/a");
        for (int i = 0; i < 10; ++i)
            second += combinedLine(i, "/b");
        writeGzip(path("rotated.log.2.gz"), {first, second});
        HitFile file(path("rotated.log.2.gz").toStdString(), {});
        QVERIFY(file.compressed());
        QCOMPARE(file.format(), HitFileFormat::Combined);
        QCOMPARE(file.description(), std::string("combined log format (gzip)"));
        const auto result = readAll(file);
        QVERIFY(result.errors.empty());
        QCOMPARE(result.rows.size(), std::size_t(3010));
        QCOMPARE(result.rows.back().event.key, std::string("/b"));
        QCOMPARE(file.fileBytesRead(), std::uint64_t(readBytes(path("rotated.log.2.gz")).size()));
    }

    void gzipRecognisedByContentNotName() {
        writeGzip(path("trace-without-suffix"), {"timestamp,key\n5,a\n6,b\n"});
        HitFile file(path("trace-without-suffix").toStdString(), {});
        QCOMPARE(file.format(), HitFileFormat::Trace);
        QCOMPARE(readAll(file).rows.size(), std::size_t(2));
    }

    // A copy cut short (issue 23 item 6): every whole line before the cut is a row, counted
    // here by inflating the cut file with zlib alone; the line the cut went through is neither
    // a row nor a bad row, and the file says where it was cut. (It ended with a fatal error and
    // no count before.)
    void aTruncatedGzipIsReadUpToTheCutAndSaysWhere() {
        std::string text;
        for (int i = 0; i < 2000; ++i)
            text += combinedLine(i % 60, "/t");
        writeGzip(path("whole.gz"), {text});
        const auto bytes = readBytes(path("whole.gz"));
        for (const std::size_t keep : {bytes.size() / 2, bytes.size() - 9, bytes.size() / 5}) {
            const std::string cut = bytes.substr(0, keep);
            writeFile(path("cut.gz"), cut);
            const std::size_t readable =
                hitcounter::testing::wholeLines(hitcounter::testing::inflateWhatIsThere(cut));
            HitFile file(path("cut.gz").toStdString(), {});
            const auto result = readAll(file);
            QVERIFY(!result.rows.empty());
            QVERIFY(keep == bytes.size() - 9 || result.rows.size() < 2000);
            QCOMPARE(result.rows.size(), readable);
            QVERIFY2(result.errors.empty(),
                     result.errors.empty() ? "" : result.errors.front().message.c_str());
            QCOMPARE(file.progress().rows, std::uint64_t(readable));
            QCOMPARE(file.progress().badRows, std::uint64_t(0));
            QVERIFY(file.truncatedAtLine().has_value());
            QCOMPARE(*file.truncatedAtLine(), std::uint64_t(readable + 1));
            QCOMPARE(result.rows.back().line, std::uint64_t(readable));
        }
        QCOMPARE(truncationText(1608, 1607),
                 std::string("truncated at line 1608: 1,607 lines replayed"));
        // a whole file is not truncated
        HitFile whole(path("whole.gz").toStdString(), {});
        QCOMPARE(readAll(whole).rows.size(), std::size_t(2000));
        QVERIFY(!whole.truncatedAtLine());
    }

    // 10 MB of zeros inflate to 10 GB: read before as a stream to its end (35 s with no
    // message). Now refused past the first 64 MiB, after the rows before it; with no limit
    // the whole file is read.
    void aGzipBombIsRefusedUnlessTheLimitIsLifted() {
        const std::string first = combinedLine(0, "/before");
        writeGzip(path("bomb.log.gz"), {first + std::string(std::size_t{96} << 20, '\0')});
        HitFile bomb(path("bomb.log.gz").toStdString(), {});
        const auto refused = readAll(bomb);
        QCOMPARE(refused.rows.size(), std::size_t(1));
        QVERIFY(!refused.errors.empty());
        const TraceError& last = refused.errors.back();
        QCOMPARE(last.kind, TraceErrorKind::CorruptInput);
        QVERIFY(last.fatal);
        QVERIFY2(last.message.find("inflates to more than 200 times its size") != std::string::npos,
                 last.message.c_str());
        QVERIFY2(last.message.find("--max-inflation-ratio") != std::string::npos,
                 last.message.c_str());

        HitFileOptions unlimited;
        unlimited.gzip.maxRatio = 0;
        HitFile lifted(path("bomb.log.gz").toStdString(), unlimited);
        const auto read = readAll(lifted);
        QCOMPARE(read.rows.size(), std::size_t(1));
        for (const TraceError& e : read.errors)
            QVERIFY2(e.kind != TraceErrorKind::CorruptInput, e.message.c_str());
        QCOMPARE(lifted.fileBytesRead(), std::uint64_t(readBytes(path("bomb.log.gz")).size()));
    }

    void corruptGzipIsReported() {
        std::string text;
        for (int i = 0; i < 2000; ++i)
            text += combinedLine(i % 60, "/c");
        writeGzip(path("ok.gz"), {text});
        auto bytes = readBytes(path("ok.gz"));
        for (std::size_t i = 200; i < 400; ++i)
            bytes[i] = char(~bytes[i]);
        writeFile(path("bad.gz"), bytes);
        try {
            HitFile file(path("bad.gz").toStdString(), {});
            const auto result = readAll(file);
            QVERIFY(!result.errors.empty());
            QCOMPARE(result.errors.back().kind, TraceErrorKind::CorruptInput);
        } catch (const HitFileError& e) {
            // Corruption inside the head fails detection instead: also a clear error.
            QVERIFY2(std::string(e.what()).find("bad.gz") != std::string::npos, e.what());
        }
    }

    void badLinesAreCountedAndReadingGoesOn() {
        writeFile(path("mixed.log"), combinedLine(0, "/a") + "not a log line\n\n" +
                                         combinedLine(1, "/b") +
                                         combinedLine(2, "/cut").substr(0, 30));
        HitFile file(path("mixed.log").toStdString(), {});
        const auto result = readAll(file);
        QCOMPARE(result.rows.size(), std::size_t(2));
        QCOMPARE(result.errors.size(), std::size_t(2));
        QCOMPARE(result.errors[0].line, std::uint64_t(2));
        QCOMPARE(result.errors[0].kind, TraceErrorKind::LogLineMismatch);
        QCOMPARE(result.errors[1].line, std::uint64_t(5));
        QCOMPARE(result.errors[1].kind, TraceErrorKind::IncompleteRow);
        QCOMPARE(file.progress().badRows, std::uint64_t(2));
    }

    // One line dated 2099 among lines of 1970 + 1000 s: a bad row named by its line, not the
    // head, so the rows after it are read as rows (before the check they all followed 2099).
    void aTimeFarAheadOfItsNeighboursIsABadRow() {
        writeFile(path("jump.csv"),
                  "timestamp,key\n1000,a\n1001,a\n4102444800,a\n1002,a\n1003,b\n");
        HitFile file(path("jump.csv").toStdString(), {});
        const auto result = readAll(file);
        QCOMPARE(result.rows.size(), std::size_t(4));
        QCOMPARE(result.rows.back().event.time, Timestamp{1003});
        QCOMPARE(result.rows.back().line, std::uint64_t(6));
        QCOMPARE(result.errors.size(), std::size_t(1));
        QCOMPARE(result.errors[0].line, std::uint64_t(4));
        QCOMPARE(result.errors[0].kind, TraceErrorKind::TimeTooFarAhead);
        QVERIFY(!result.errors[0].fatal);
        QVERIFY2(result.errors[0].message.find("4102444800") != std::string::npos,
                 result.errors[0].message.c_str());
        QCOMPARE(file.progress().rows, std::uint64_t(4));
        QCOMPARE(file.progress().badRows, std::uint64_t(1));
    }

    // A jump that the next row confirms is a log resuming after a quiet spell: every row counts.
    void aJumpTheNextRowConfirmsIsKept() {
        writeFile(path("resume.csv"), "timestamp\n1000\n900000\n900001\n900002\n");
        HitFile file(path("resume.csv").toStdString(), {});
        const auto result = readAll(file);
        QCOMPARE(result.rows.size(), std::size_t(4));
        QVERIFY(result.errors.empty());
        QCOMPARE(result.rows[1].event.time, Timestamp{900000});
    }

    // Issue 27: a replay's seek resumes a file just opened after the line of a row an earlier
    // pass returned (HitFile::resumeAfter), without parsing the rows before it; what follows
    // is exactly what the earlier pass read after that row, in a trace CSV with a header,
    // comments and bad rows, a combined log with bad and blank lines, and a gzip of it, also
    // right after a time jump whose confirming row was read ahead.
    void resumingAfterARowsLineReadsWhatFollowedIt_data() {
        QTest::addColumn<QString>("name");
        std::string csv = "# recorded\ntimestamp,key\n";
        std::string log;
        for (int i = 0; i < 400; ++i) {
            csv += std::to_string(1000 + i / 3) + ",/k" + std::to_string(i % 5) + "\n";
            log += combinedLine(i / 4, "/p" + std::to_string(i % 7));
            if (i % 37 == 0) {
                csv += "oops,/bad\n\n# note\n";
                log += "not a log line\n\n";
            }
            if (i == 300) {
                csv += "5000000,/jump\n5000001,/jump\n";  // confirmed: both rows count
                csv += "9000000000,/ahead\n";             // not confirmed: a bad row
            }
        }
        writeFile(path("resume.csv"), csv);
        writeFile(path("resume.log"), log);
        writeGzip(path("resume.log.gz"),
                  {log.substr(0, log.size() / 2), log.substr(log.size() / 2)});
        QTest::newRow("trace CSV") << QStringLiteral("resume.csv");
        QTest::newRow("combined log") << QStringLiteral("resume.log");
        QTest::newRow("combined log, gzip") << QStringLiteral("resume.log.gz");
    }
    void resumingAfterARowsLineReadsWhatFollowedIt() {
        QFETCH(QString, name);
        const std::string file = m_dir.filePath(name).toStdString();
        HitFile whole(file, {});
        const auto all = readAll(whole).rows;
        QVERIFY(all.size() >= 400);
        for (std::size_t at : {std::size_t(0), std::size_t(37), std::size_t(300), std::size_t(301),
                               std::size_t(302), all.size() - 2}) {
            Timestamp head = all[0].event.time;
            for (std::size_t i = 0; i <= at; ++i) {
                head = std::max(head, all[i].event.time);
            }
            HitFile resumed(file, {});
            QVERIFY(resumed.resumeAfter(all[at].line, head));
            const auto rest = readAll(resumed).rows;
            QCOMPARE(rest.size(), all.size() - at - 1);
            for (std::size_t i = 0; i < rest.size(); ++i) {
                QCOMPARE(rest[i].line, all[at + 1 + i].line);
                QCOMPARE(rest[i].event.time, all[at + 1 + i].event.time);
                QCOMPARE(rest[i].event.key, all[at + 1 + i].event.key);
            }
        }
        HitFile past(file, {});
        QVERIFY(!past.resumeAfter(all.back().line + 10, 0));  // the file ends first
    }

    // The last row, a row before a bad line, and two far rows far apart: none is confirmed.
    // The bad line after a jump keeps its own error; --max-time-jump 0 turns the check off.
    void unconfirmedJumpsAndTheLimitOption() {
        writeFile(path("jumps.csv"),
                  "timestamp\n1000\n5000000\nnope\n1001\n9000000\n20000000\n1002\n8000000\n");
        {
            HitFile file(path("jumps.csv").toStdString(), {});
            const auto result = readAll(file);
            QCOMPARE(result.rows.size(), std::size_t(3));  // 1000, 1001, 1002
            QCOMPARE(result.rows.back().event.time, Timestamp{1002});
            QCOMPARE(result.errors.size(), std::size_t(5));
            const std::vector<std::uint64_t> lines{3, 4, 6, 7, 9};
            for (std::size_t i = 0; i < lines.size(); ++i) {
                QCOMPARE(result.errors[i].line, lines[i]);
                QCOMPARE(result.errors[i].kind, i == 1 ? TraceErrorKind::NonNumericTimestamp
                                                       : TraceErrorKind::TimeTooFarAhead);
            }
            QCOMPARE(file.progress().rows, std::uint64_t(3));
            QCOMPARE(file.progress().badRows, std::uint64_t(5));
        }
        HitFileOptions unchecked;
        unchecked.maxTimeJump = std::chrono::seconds{0};
        HitFile file(path("jumps.csv").toStdString(), unchecked);
        const auto result = readAll(file);
        QCOMPARE(result.rows.size(), std::size_t(7));
        QCOMPARE(result.errors.size(), std::size_t(1));
        HitFileOptions tight;
        tight.maxTimeJump = std::chrono::seconds{2};
        writeFile(path("tight.csv"), "timestamp\n10\n12\n15\n13\n");
        HitFile tightFile(path("tight.csv").toStdString(), tight);
        const auto tightResult = readAll(tightFile);
        QCOMPARE(tightResult.rows.size(), std::size_t(3));
        QCOMPARE(tightResult.errors.size(), std::size_t(1));
        QCOMPARE(tightResult.errors[0].line, std::uint64_t(4));
    }

    void givenFormatAndLogFormatOverrideDetection() {
        writeFile(path("custom.log"), "971211336 /x 1.1.1.1\n971211337 /y 2.2.2.2\n");
        QVERIFY_THROWS_EXCEPTION(HitFileError, HitFile(path("custom.log").toStdString(), {}));
        HitFileOptions options;
        options.logFormat = "$msec $uri $remote_addr";
        HitFile file(path("custom.log").toStdString(), options);
        QCOMPARE(file.format(), HitFileFormat::LogFormat);
        const auto result = readAll(file);
        QCOMPARE(result.rows.size(), std::size_t(2));
        QCOMPARE(result.rows[1].event.key, std::string("/y"));
        QCOMPARE(result.rows[1].event.visitor, std::string("2.2.2.2"));

        options = {};
        options.logFormat = "$remote_addr";
        QVERIFY_THROWS_EXCEPTION(HitFileError, HitFile(path("custom.log").toStdString(), options));
    }

    void standardInputIsSniffedWithoutSeeking() {
        writeGzip(path("piped.gz"), {combinedLine(0, "/in") + combinedLine(1, "/in")});
        std::istringstream in(readBytes(path("piped.gz")));
        HitFile file(in, "<stdin>", {});
        QVERIFY(file.compressed());
        const auto result = readAll(file);
        QCOMPARE(result.rows.size(), std::size_t(2));
        QCOMPARE(result.rows[0].event.key, std::string("/in"));
    }

    void formatNamesRoundTrip() {
        for (const auto f : {HitFileFormat::Auto, HitFileFormat::Trace, HitFileFormat::Common,
                             HitFileFormat::Combined, HitFileFormat::JsonLines})
            QCOMPARE(hitFileFormatFromName(hitFileFormatName(f)).value(), f);
        QVERIFY(!hitFileFormatFromName("apache").has_value());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestHitFile)
#include "tst_hit_file.moc"
