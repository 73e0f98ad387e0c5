// Lesson files: write then read gives the same lesson; every error names its line.
#include <QTest>

#include "core/teach/lesson_file.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::teach;

class TestLessonFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writeThenReadIsTheSameLesson() {
        LessonFile file;
        file.lesson = "gap";
        file.window = std::chrono::seconds{12};
        file.step = 4;
        file.answers = {{2, 5}, {4, 0}};
        file.practiceSeed = 99;
        file.operations = "hit 1\nhit 3 x2 # two\n\ngetHits 8; getHits 40\n";
        const std::string text = writeLessonFile(file);
        QVERIFY(text.rfind("# hitcounter lesson 1\n", 0) == 0);
        const auto read = readLessonFile(text);
        if (const auto* e = std::get_if<TextProblem>(&read))
            QFAIL(e->describe().c_str());
        QVERIFY(std::get<LessonFile>(read) == file);
    }

    // The learner's built ring (issue 16, build 4) is one more optional line; a file without it
    // reads as before (no variant), one with it gives the same choices back.
    void builtVariantIsSavedAndRead() {
        LessonFile file;
        file.window = std::chrono::seconds{10};
        file.operations = "hit 5\nhit 6\ngetHits 15\n";
        const auto plain = readLessonFile(writeLessonFile(file));
        QVERIFY(std::holds_alternative<LessonFile>(plain));
        QVERIFY(!std::get<LessonFile>(plain).variant);
        file.variant = RingVariant{RingVariant::Compare::GreaterEqual, RingVariant::Index::ModW,
                                   RingVariant::Reset::Sweep, RingVariant::Store::CountOnly};
        const std::string text = writeLessonFile(file);
        QVERIFY2(text.find("\nvariant compare=>=,index=t%W,reset=sweep,store=count\n") !=
                     std::string::npos,
                 text.c_str());
        const auto read = readLessonFile(text);
        QVERIFY(std::holds_alternative<LessonFile>(read));
        QVERIFY(std::get<LessonFile>(read) == file);
    }

    // Issue 24: the Code tab's JavaScript follows the operations after a "code:" line, kept
    // verbatim (blank lines, comments, a line "operations:" inside a string too).
    void theLearnersCodeIsKept() {
        LessonFile file;
        file.window = std::chrono::seconds{10};
        file.operations = "hit 1\ngetHits 11\n";
        file.code =
            "// mine\nclass HitCounter {\n\n  hit(t) { this.s = 'operations:'; }\n"
            "  getHits(t) { return 0; }\n}\n";
        const std::string text = writeLessonFile(file);
        QVERIFY2(text.find("getHits 11\ncode:\n// mine\n") != std::string::npos, text.c_str());
        const auto read = readLessonFile(text);
        if (const auto* e = std::get_if<TextProblem>(&read))
            QFAIL(e->describe().c_str());
        QVERIFY(std::get<LessonFile>(read) == file);
        // No operations at all, only code.
        file.operations.clear();
        const auto bare = readLessonFile(writeLessonFile(file));
        QVERIFY(std::holds_alternative<LessonFile>(bare));
        QCOMPARE(std::get<LessonFile>(bare).code, file.code);
        QVERIFY(std::get<LessonFile>(bare).operations.empty());
    }

    void errorsNameTheLine_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not a lesson") << "hit 1\n" << 1 << "first line";
        QTest::newRow("empty") << "" << 1 << "first line";
        QTest::newRow("unknown setting")
            << "# hitcounter lesson 1\nwindow 10\nspeed 2\noperations:\n"
            << 3 << "'speed'";
        QTest::newRow("window out of range") << "# hitcounter lesson 1\nwindow 400\noperations:\n"
                                             << 2 << "5 to 300";
        QTest::newRow("unknown lesson")
            << "# hitcounter lesson 1\n# mine\nlesson nope\nwindow 10\noperations:\n"
            << 3 << "'nope'";
        QTest::newRow("bad answer") << "# hitcounter lesson 1\nwindow 10\nanswer 3\noperations:\n"
                                    << 3 << "STEP GUESS";
        QTest::newRow("bad variant")
            << "# hitcounter lesson 1\nwindow 10\nvariant compare=<\noperations:\n"
            << 3 << "compare is > or >=";
        QTest::newRow("no operations line") << "# hitcounter lesson 1\nwindow 10\n"
                                            << 2 << "operations:";
        QTest::newRow("no window") << "# hitcounter lesson 1\noperations:\nhit 1\n"
                                   << 1 << "window";
        QTest::newRow("bad operation")
            << "# hitcounter lesson 1\nwindow 10\noperations:\nhit 1\nhit two\n"
            << 5 << "'two'";
        QTest::newRow("step past the end")
            << "# hitcounter lesson 1\nwindow 10\nstep 3\noperations:\nhit 1\n"
            << 1 << "past the last step";
    }
    void errorsNameTheLine() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, mentions);
        const auto read = readLessonFile(text.toStdString());
        QVERIFY(std::holds_alternative<TextProblem>(read));
        const TextProblem& e = std::get<TextProblem>(read);
        QCOMPARE(e.line, line);
        QVERIFY2(QString::fromStdString(e.message).contains(mentions), e.message.c_str());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestLessonFile)
#include "tst_lesson_file.moc"
