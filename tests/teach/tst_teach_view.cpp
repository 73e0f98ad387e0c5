// The teaching view offscreen: stepping through every lesson shows the timeline's frames in
// both directions (the rate-limit lessons through the limiters), Predict mode stops before
// getHits, bad input keeps the lesson, PNG export.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "core/counters/deque_counter.h"
#include "core/counters/naive_counter.h"
#include "core/counters/ring_counter.h"
#include "core/teach/lessons.h"
#include "core/teach/practice.h"
#include "core/teach/pseudocode.h"
#include "core/teach/student_check.h"
#include "tests/test_main.h"
#include "ui/common/theme.h"
#include "ui/teach/build_panel.h"
#include "ui/teach/code_view.h"
#include "ui/teach/lesson_panel.h"
#include "ui/teach/limiter_view.h"
#include "ui/teach/predict_controller.h"
#include "ui/teach/ring_view.h"
#include "ui/teach/step_chart.h"
#include "ui/teach/teach_files.h"
#include "ui/teach/teach_view.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

int lessonIndex(const char* id) {
    int index = 0;
    while (teach::lessons()[std::size_t(index)].id != id)
        ++index;
    return index;
}

QString plain(const QString& html) {
    QString text = html;
    text.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
    text.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    text.replace(QStringLiteral("&lt;"), QStringLiteral("<"));
    text.replace(QStringLiteral("&gt;"), QStringLiteral(">"));
    return text.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
}

}  // namespace

class TestTeachView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        m_view.resize(1280, 800);
        m_view.show();
    }

    void startsOnTheLeetCodeExample() {
        m_view.loadLesson(0);
        QCOMPARE(m_view.currentStep(), 0);
        QCOMPARE(m_view.timeline().window().count(), 300);
        QCOMPARE(m_view.lessonPanel()->lessonId(), QStringLiteral("example"));
        QVERIFY(plain(m_view.narration()).contains(QStringLiteral("Step 0 of 7")));
    }

    void everyLessonStepsForwardAndBackThroughItsFrames_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < teach::lessons().size(); ++i) {
            if (teach::lessons()[i].kind == teach::LessonKind::Ring)
                QTest::newRow(teach::lessons()[i].id.c_str()) << int(i);
        }
    }

    void everyLessonStepsForwardAndBackThroughItsFrames() {
        QFETCH(int, index);
        m_view.loadLesson(index);
        const auto& frames = m_view.timeline().frames();
        const auto& lesson = teach::lessons()[std::size_t(index)];
        QCOMPARE(m_view.timeline().window(), lesson.window);
        QCOMPARE(int(frames.size()), m_view.lastStep() + 1);
        auto check = [&](int step) {
            QCOMPARE(m_view.currentStep(), step);
            const auto& f = frames[std::size_t(step)];
            const QString text = plain(m_view.narration());
            QVERIFY2(text.contains(QString::fromStdString(f.narration).toHtmlEscaped()) ||
                         text.contains(QString::fromStdString(f.narration)),
                     qPrintable(text));
            QCOMPARE(m_view.findChild<CodeView*>()->line(), f.codeLine);
        };
        check(0);
        for (int step = 1; step <= m_view.lastStep(); ++step) {
            m_view.stepForward();
            check(step);
        }
        m_view.stepForward();  // at the end: stays
        check(m_view.lastStep());
        for (int step = m_view.lastStep() - 1; step >= 0; --step) {
            m_view.stepBack();
            check(step);
        }
    }

    // A rate-limit lesson shows the limiters instead of the ring; its steps narrate the
    // LimiterTimeline's reasons both ways; a ring lesson afterwards brings the ring back.
    void rateLimitLessonsStepThroughTheLimiters_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < teach::lessons().size(); ++i) {
            if (teach::lessons()[i].kind == teach::LessonKind::RateLimit)
                QTest::newRow(teach::lessons()[i].id.c_str()) << int(i);
        }
    }
    void rateLimitLessonsStepThroughTheLimiters() {
        QFETCH(int, index);
        m_view.loadLesson(index);
        const auto* limits = m_view.limiterTimeline();
        QVERIFY(limits != nullptr);
        const auto& lesson = teach::lessons()[std::size_t(index)];
        QCOMPARE(limits->limit().limit, lesson.limit);
        QCOMPARE(limits->names(), lesson.limiters);
        QCOMPARE(m_view.lastStep(), int(limits->frames().size()) - 1);
        QVERIFY(!m_view.findChild<LimiterView*>()->isHidden());
        QVERIFY(m_view.findChild<CodeView*>()->isHidden() ||
                !m_view.findChild<CodeView*>()->isVisibleTo(&m_view));
        // Issue 24: Predict asks in the rate-limit lessons too (tst_teach_consistency).
        QVERIFY(m_view.lessonPanel()->predictSwitch()->isEnabled());
        auto check = [&](int step) {
            QCOMPARE(m_view.currentStep(), step);
            const QString text = plain(m_view.narration());
            const auto& narration = limits->frames()[std::size_t(step)].narration;
            QVERIFY2(text.contains(QString::fromStdString(narration)), qPrintable(text));
        };
        check(0);
        for (int step = 1; step <= m_view.lastStep(); ++step) {
            m_view.stepForward();
            check(step);
        }
        for (int step = m_view.lastStep() - 1; step >= 0; --step) {
            m_view.stepBack();
            check(step);
        }
        m_view.loadLesson(0);
        QVERIFY(m_view.limiterTimeline() == nullptr);
        QVERIFY(m_view.findChild<CodeView*>()->isVisibleTo(&m_view));
        QVERIFY(m_view.lessonPanel()->predictSwitch()->isEnabled());
    }

    void exampleShowsThreeFourThreeInTheNarration() {
        m_view.loadLesson(0);
        QStringList answers;
        for (int step = 1; step <= m_view.lastStep(); ++step) {
            m_view.showStep(step);
            const auto& f = m_view.timeline().frames()[std::size_t(step)];
            if (f.answer) {
                answers << QString::number(*f.answer);
                QVERIFY(
                    plain(m_view.narration()).contains(QStringLiteral(": %1 hit").arg(*f.answer)));
            }
        }
        QCOMPARE(answers, (QStringList{"3", "4", "3"}));
    }

    void predictModeStopsBeforeEachGetHits() {
        m_view.loadLesson(0);
        m_view.predict()->setMode(true);
        QVERIFY(m_view.lessonPanel()->predictSwitch()->isChecked());
        for (int i = 0; i < 3; ++i) {
            m_view.stepForward();
        }
        QCOMPARE(m_view.currentStep(), 3);
        m_view.stepForward();  // step 4 is getHits(4): asks first
        QVERIFY(m_view.predict()->awaiting());
        QCOMPARE(m_view.currentStep(), 3);
        QVERIFY(m_view.predict()->question().contains(QStringLiteral("getHits(4)")));
        m_view.stepForward();  // still waiting for the answer
        QCOMPARE(m_view.currentStep(), 3);
        m_view.predict()->submit(2);
        QVERIFY(!m_view.predict()->awaiting());
        QCOMPARE(m_view.currentStep(), 4);
        QVERIFY2(
            plain(m_view.narration()).contains(QStringLiteral("You said 2, but the answer is 3")),
            qPrintable(m_view.narration()));
        m_view.stepForward();  // hit(300)
        m_view.stepForward();  // getHits(300) asks again
        QVERIFY(m_view.predict()->awaiting());
        m_view.predict()->submit(4);
        QVERIFY(plain(m_view.narration()).contains(QStringLiteral("You said 4: right")));
        m_view.stepBack();
        m_view.stepForward();  // already answered: no second question
        QVERIFY(!m_view.predict()->awaiting());
        QCOMPARE(m_view.currentStep(), 6);
        m_view.predict()->setMode(false);
    }

    void badInputIsMarkedAndTheLessonIsKept() {
        m_view.loadLesson(1);
        m_view.showStep(3);
        const std::size_t before = m_view.timeline().frames().size();
        const auto error =
            m_view.runOperations(QStringLiteral("hit 1\nhit two\n"), std::chrono::seconds{10});
        QVERIFY(error.has_value());
        QCOMPARE(error->line, 2);
        QCOMPARE(error->column, 5);
        QCOMPARE(m_view.timeline().frames().size(), before);
        QCOMPARE(m_view.currentStep(), 3);
        QVERIFY(m_view.lessonPanel()->errorText().contains(QStringLiteral("Line 2, column 5")));
        QCOMPARE(m_view.lessonPanel()->operationsText(), QStringLiteral("hit 1\nhit two\n"));

        QVERIFY(!m_view.runOperations(QStringLiteral("hit 1\nhit 2 x3\ngetHits 5"),
                                      std::chrono::seconds{5}));
        QVERIFY(m_view.lessonPanel()->errorText().isEmpty());
        QCOMPARE(m_view.timeline().window().count(), 5);
        QCOMPARE(m_view.lessonPanel()->window().count(), 5);
        QCOMPARE(m_view.lastStep(), 3);
        QCOMPARE(m_view.lessonPanel()->lessonId(), QStringLiteral("custom"));
    }

    void realWindowButtonRerunsTheLessonAtThreeHundred() {
        m_view.loadLesson(1);
        const auto operations = m_view.timeline().operations().size();
        QPushButton* real = nullptr;
        for (QPushButton* b : m_view.findChildren<QPushButton*>()) {
            if (b->text().contains(QStringLiteral("300"))) {
                real = b;
            }
        }
        QVERIFY(real != nullptr);
        real->click();
        QCOMPARE(m_view.timeline().window().count(), 300);
        QCOMPARE(m_view.timeline().operations().size(), operations);
        QCOMPARE(m_view.timeline().frames().back().ring.size(), std::size_t{300});
        QCOMPARE(m_view.currentStep(), 0);
    }

    void exportsTheFrameAndEveryStepAsPng() {
        m_view.loadLesson(0);
        m_view.showStep(7);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const QString one = dir.filePath(QStringLiteral("frame.png"));
        QVERIFY2(m_view.files()->exportCurrentFrame(one, &error), qPrintable(error));
        const QImage image(one);
        QCOMPARE(image.size(), QSize(1280, 800));
        // Not a blank picture: the board, the slots and the text use many colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7) {
                colours.insert(image.pixel(x, y));
            }
        }
        QVERIFY(colours.size() > 20);

        const QString all = dir.filePath(QStringLiteral("steps"));
        QCOMPARE(m_view.files()->exportAllFrames(all, &error), m_view.lastStep() + 1);
        const QStringList files =
            QDir(all).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), m_view.lastStep() + 1);
        QCOMPARE(files.first(), QStringLiteral("example-step-000.png"));
        QCOMPARE(files.last(), QStringLiteral("example-step-007.png"));
        QCOMPARE(m_view.currentStep(), 7);
        QVERIFY(QImage(QDir(all).filePath(files.first())) !=
                QImage(QDir(all).filePath(files.last())));
    }

    // Issue 16, wrong 1: question, pseudocode and counter agree on getHits into the past.
    void predictingGetHitsIntoThePastAsksAboutTheEffectiveWindow() {
        QVERIFY(!m_view.runOperations(QStringLiteral("hit 1\nhit 12\ngetHits 5"),
                                      std::chrono::seconds{10}));
        m_view.predict()->setMode(true);
        m_view.stepForward();
        m_view.stepForward();
        m_view.stepForward();
        QVERIFY(m_view.predict()->awaiting());
        const QString question = m_view.predict()->question();
        QVERIFY2(question.contains(QStringLiteral("(2, 5]")), qPrintable(question));
        QVERIFY2(!question.contains(QStringLiteral("(-5, 5]")), qPrintable(question));
        QVERIFY2(question.contains(QStringLiteral("newest second is 12")), qPrintable(question));
        m_view.predict()->submit(0);
        QVERIFY2(plain(m_view.narration()).contains(QStringLiteral("You said 0: right")),
                 qPrintable(m_view.narration()));
        auto* ring = m_view.findChild<RingView*>(QStringLiteral("watchRing"));
        ring->grab();
        QVERIFY2(ring->captions().contains(QStringLiteral("window (2, 5]")),
                 qPrintable(ring->captions().join(QLatin1Char('|'))));
        m_view.predict()->setMode(false);
    }

    // Issue 16, wrong 2: another W than the lesson's is said in the goal and in file names.
    void anotherWindowIsToldInTheGoalAndTheFileNames() {
        m_view.loadLesson(1);  // example10
        QVERIFY(!m_view.lessonPanel()->goalText().contains(QStringLiteral("written for")));
        m_view.lessonPanel()->findChild<QSpinBox*>(QStringLiteral("window"))->setValue(5);
        QCOMPARE(m_view.timeline().window().count(), 5);
        const QString goal = m_view.lessonPanel()->goalText();
        QVERIFY2(goal.contains(QStringLiteral("written for W = 10")), qPrintable(goal));
        QVERIFY2(goal.contains(QStringLiteral("W = 5")), qPrintable(goal));
        QTemporaryDir dir;
        QString error;
        QVERIFY(m_view.files()->exportAllFrames(dir.path(), &error) > 0);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("example10-w5-step-000.png"))));
        m_view.lessonPanel()->findChild<QSpinBox*>(QStringLiteral("window"))->setValue(10);
        QVERIFY(!m_view.lessonPanel()->goalText().contains(QStringLiteral("written for")));
    }

    // Issue 16, wrong 3: pasting the LeetCode input brings the problem's W = 300.
    void pastingTheLeetCodeFormatSetsTheProblemsWindow() {
        m_view.loadLesson(1);  // W = 10
        auto* editor = m_view.lessonPanel()->findChild<QPlainTextEdit*>();
        editor->selectAll();
        editor->insertPlainText(QStringLiteral(
            "[\"HitCounter\", \"hit\", \"hit\", \"hit\", \"getHits\", \"hit\", "
            "\"getHits\", \"getHits\"]\n[[], [1], [2], [3], [4], [300], [300], [301]]"));
        QCOMPARE(m_view.lessonPanel()->window().count(), 300);
        QPushButton* run = nullptr;
        for (QPushButton* b : m_view.lessonPanel()->findChildren<QPushButton*>()) {
            if (b->text().startsWith(QStringLiteral("Run")))
                run = b;
        }
        QVERIFY(run);
        run->click();
        QCOMPARE(m_view.timeline().window().count(), 300);
        std::vector<Count> answers;
        for (const auto& f : m_view.timeline().frames()) {
            if (f.answer)
                answers.push_back(*f.answer);
        }
        QCOMPARE(answers, (std::vector<Count>{3, 4, 3}));
    }

    // Issue 16, wrong 4 and build 1: the highlighted line is the state shown; sub-steps show
    // the reset with the slot at x0 and each getHits comparison.
    void subStepsHighlightTheLineOfTheStateShown() {
        QVERIFY(!m_view.runOperations(QStringLiteral("hit 3\nhit 13\ngetHits 15"),
                                      std::chrono::seconds{10}));
        auto* code = m_view.findChild<CodeView*>();
        auto* ring = m_view.findChild<RingView*>(QStringLiteral("watchRing"));
        m_view.showStep(2);  // hit 13 resets slot 3
        QCOMPARE(code->line(), teach::Line::AddCount);
        ring->grab();
        QVERIFY(ring->captions().contains(QStringLiteral("×1")));
        int reset = -1;
        const auto& subs = m_view.timeline().frames()[2].subSteps;
        for (int i = 0; i < int(subs.size()); ++i) {
            if (subs[std::size_t(i)].line == teach::Line::ResetSlot)
                reset = i;
        }
        QVERIFY(reset > 0);
        QCOMPARE(m_view.subStepCount(), int(subs.size()));
        m_view.showSubStep(reset);
        QCOMPARE(code->line(), teach::Line::ResetSlot);
        ring->grab();
        QVERIFY2(ring->captions().contains(QStringLiteral("×0")),
                 qPrintable(ring->captions().join(QLatin1Char('|'))));
        QVERIFY(plain(m_view.narration()).contains(QStringLiteral("slot[3] = (13, 0)")));
        m_view.showSubStep(reset - 1);  // the comparison: the slot still holds second 3
        QCOMPARE(code->line(), teach::Line::CheckSecond);
        ring->grab();
        QVERIFY(ring->captions().contains(QStringLiteral("3")));
        m_view.showStep(3);  // getHits 15: one comparison per written slot
        QCOMPARE(m_view.subStep(), -1);
        bool compared = false;
        for (int i = 0; i < m_view.subStepCount(); ++i) {
            m_view.showSubStep(i);
            if (code->line() == teach::Line::GetAddCount) {
                compared = true;
                QVERIFY2(plain(m_view.narration()).contains(QStringLiteral("5 < 13 <= 15? yes")),
                         qPrintable(m_view.narration()));
            }
        }
        QVERIFY(compared);
        m_view.showSubStep(-1);
        QCOMPARE(code->line(), teach::Line::GetReturn);
    }

    // Issue 16, wrong 7: getHits explains its outlined slot; 13-digit seconds fit; picking a
    // lesson keeps the learner's own operations.
    void getHitsSaysItsSlotIsAlsoTheBoundarySecondsSlot() {
        QVERIFY(
            !m_view.runOperations(QStringLiteral("hit 5\ngetHits 15"), std::chrono::seconds{10}));
        m_view.showStep(2);
        auto* ring = m_view.findChild<RingView*>(QStringLiteral("watchRing"));
        ring->grab();
        const QString all = ring->captions().join(QLatin1Char('|'));
        QVERIFY2(all.contains(QStringLiteral("shared by the boundary 5 (out)")), qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("this step's slot")), qPrintable(all));
    }

    void secondsNearTenToTheTwelveAreNotCutOff_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void secondsNearTenToTheTwelveAreNotCutOff() {
        QFETCH(QSize, size);
        m_view.resize(size);
        QVERIFY(!m_view.runOperations(
            QStringLiteral("hit 999999999995\nhit 999999999999 x3\nhit 1000000000000\n"
                           "getHits 1000000000000"),
            std::chrono::seconds{10}));
        auto* ring = m_view.findChild<RingView*>(QStringLiteral("watchRing"));
        for (int step = 0; step <= m_view.lastStep(); ++step) {
            m_view.showStep(step);
            ring->grab();
            QVERIFY(ring->captions().size() > 4);
            QVERIFY2(ring->overflows().isEmpty(), qPrintable(ring->overflows().join(u'|')));
        }
        QVERIFY(ring->captions().contains(QStringLiteral("999999999999")));
        m_view.resize(1280, 800);
    }

    // Issue 24: the view asked for 1071 px, wider than a 1024x768 screen, and the Code tab's
    // panes (1006 px at least) were cut even at 1280x720. At each size every tab's page gets at
    // least the width its layout needs, so nothing in it is cut.
    void everyTabFitsTheSmallestScreens_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    void everyTabFitsTheSmallestScreens() {
        QFETCH(QSize, size);
        TeachView view;
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY2(view.minimumSizeHint().width() <= 1016,
                 qPrintable(QString::number(view.minimumSizeHint().width())));
        QCOMPARE(view.width(), size.width());
        const QStringList pages{QStringLiteral("buildPanel"), QStringLiteral("codePanel")};
        for (int tab = 0; tab < 3; ++tab) {
            view.showTab(tab);
            QCoreApplication::processEvents();
            QWidget* page =
                tab == 0 ? view.findChild<RingView*>(QStringLiteral("watchRing"))->parentWidget()
                         : view.findChild<QWidget*>(pages[tab - 1]);
            QVERIFY(page && page->isVisible());
            QVERIFY2(page->width() >= page->layout()->minimumSize().width(),
                     qPrintable(QStringLiteral("tab %1: %2 px for a layout of %3")
                                    .arg(tab)
                                    .arg(page->width())
                                    .arg(page->layout()->minimumSize().width())));
        }
    }

    void choosingALessonKeepsTheLearnersOwnOperations() {
        m_view.loadLesson(1);
        auto* editor = m_view.lessonPanel()->findChild<QPlainTextEdit*>();
        editor->selectAll();
        editor->insertPlainText(QStringLiteral("hit 7\nhit 8\ngetHits 9"));
        QCOMPARE(m_view.lessonPanel()->lessonIndex(), -1);
        auto* picker = m_view.lessonPanel()->findChild<QComboBox*>();
        picker->setCurrentIndex(0);
        Q_EMIT picker->activated(0);  // the learner picks the example
        QCOMPARE(m_view.lessonPanel()->lessonId(), QStringLiteral("example"));
        const int own = picker->count() - 1;
        picker->setCurrentIndex(own);
        Q_EMIT picker->activated(own);  // and comes back to their own operations
        QCOMPARE(m_view.lessonPanel()->operationsText(), QStringLiteral("hit 7\nhit 8\ngetHits 9"));
        QCOMPARE(m_view.timeline().operations().size(), std::size_t{3});
    }

    // Issue 16, build 4: the Build tab with a wrong comparison (>=) on the off-by-one lesson
    // stops at step 4, getHits(15), and shows both rings: the learner's slot 5 (second 5)
    // counted, the reference's not, 2 against 1, with a narration naming the >=. The reference
    // choices run through the whole lesson; a lesson file keeps the built ring.
    void buildTabWithWrongComparisonStopsAtTheRightStep() {
        TeachView tv;  // its own: a built ring goes into the lesson files it saves
        tv.resize(1280, 720);
        tv.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tv));
        tv.loadLesson(lessonIndex("boundary"));
        tv.showBuild(true);
        BuildPanel* build = tv.buildPanel();
        QVERIFY(build->isVisible());
        QVERIFY(!tv.findChild<RingView*>(QStringLiteral("watchRing"))->isVisible());
        QCOMPARE(tv.renderImage().size(), QSize(1280, 720));
        auto* compare = build->findChildren<QComboBox*>().at(0);
        compare->setCurrentIndex(1);  // head - W <= s.second
        QCOMPARE(build->variant().compare, teach::RingVariant::Compare::GreaterEqual);
        QVERIFY(build->pseudocode().contains(QStringLiteral("head - W <= s.second <= t")));
        QVERIFY(build->pseudocode().contains(QStringLiteral("if t < head - W: return")));
        QPushButton* runLesson = nullptr;
        for (QPushButton* b : build->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Run on this lesson"))
                runLesson = b;
        QVERIFY(runLesson);
        QTest::mouseClick(runLesson, Qt::LeftButton);
        QVERIFY(build->result().has_value());
        QVERIFY(build->result()->difference.has_value());
        QCOMPARE(build->result()->difference->step, std::size_t(4));
        QVERIFY2(build->verdict().contains(QStringLiteral("Differs at step 4")),
                 qPrintable(build->verdict()));
        QVERIFY(build->verdict().contains(QStringLiteral("getHits(15)")));
        QCOMPARE(tv.currentStep(), 4);  // the narration below shows the step that differs
        QVERIFY(build->verdict().contains(QStringLiteral("Yours: 2, the reference: 1")));
        QVERIFY2(
            build->narration().contains(QStringLiteral("s.second >= head - W counts second 5")),
            qPrintable(build->narration()));
        // Both states, side by side: the compare view holds the step of the difference and
        // shows slot 5, which the learner's ring counts and the reference's does not.
        SlotCompareView* view = build->compareView();
        QVERIFY(view->isVisible());
        QVERIFY(view->step().has_value());
        QCOMPARE(view->step()->step, std::size_t(4));
        QCOMPARE(*view->step()->mine.answer, Count(2));
        QCOMPARE(*view->step()->reference.answer, Count(1));
        QVERIFY(view->step()->mine.slots[5].inWindow);
        QVERIFY(!view->step()->reference.slots[5].inWindow);
        const auto shown = view->shownSlots();
        QVERIFY(std::find(shown.begin(), shown.end(), std::size_t(5)) != shown.end());
        // The picture has both rows: the green of an in-window slot and the grey of a stale one
        // in the column of slot 5 (learner's row above the reference's).
        const QImage image = view->grab().toImage();
        QVERIFY(!image.isNull());
        bool green = false;
        bool grey = false;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                green = green || c == QColor(0xc9, 0xeb, 0xd6);
                grey = grey || c == QColor(0xe4, 0xe2, 0xdd);
            }
        QVERIFY(green && grey);

        const teach::LessonFile file = tv.lessonFile();
        QVERIFY(file.variant.has_value());
        QCOMPARE(*file.variant, build->variant());

        compare->setCurrentIndex(0);
        QTest::mouseClick(runLesson, Qt::LeftButton);
        QVERIFY(!build->result()->difference.has_value());
        QVERIFY(build->verdict().contains(QStringLiteral("Same as the reference on all 5 steps")));
        build->runRandom(42);
        QVERIFY(!build->result()->difference.has_value());
        build->setVariant(teach::RingVariant{teach::RingVariant::Compare::Greater,
                                             teach::RingVariant::Index::ModW,
                                             teach::RingVariant::Reset::Never});
        build->runRandom(42);
        // Issue 24: a slot holding another count is the run's first divergence; a failure is
        // only a wrong answer. The operations of the random run are shown.
        QVERIFY(build->result()->divergence.has_value());
        QCOMPARE(build->result()->divergence->what, std::string("count"));
        QVERIFY2(build->operationsRun().contains(QStringLiteral("random operations (seed 42)")),
                 qPrintable(build->operationsRun()));
        const auto seed42 = std::get<std::vector<teach::Operation>>(
            teach::parseOperations(teach::practiceOperations(42, std::chrono::seconds{10})));
        QVERIFY(
            build->operationsRun().contains(QStringLiteral("hit(%1)").arg(seed42.front().second)));

        // A rate-limit lesson has no ring to build: the view goes back to watching.
        tv.loadLesson(lessonIndex("limit-burst"));
        QVERIFY(!tv.buildShown());
        tv.loadLesson(lessonIndex("boundary"));
        tv.showBuild(false);
        QVERIFY(tv.findChild<RingView*>(QStringLiteral("watchRing"))->isVisible());
    }

    // The view at the two sizes the docs promise, in the application's light and dark themes:
    // it fits (the grab is the size asked for), and no ring text overflows. With
    // HITCOUNTER_TEACH_SHOTS=DIR the pictures are written there to be looked at.
    void fitsAtBothSizesInBothThemes_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("theme");
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            for (const char* theme : {"light", "dark"}) {
                QTest::addRow("%dx%d %s", size.width(), size.height(), theme)
                    << size << QString::fromLatin1(theme);
            }
        }
    }
    void fitsAtBothSizesInBothThemes() {
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        applyTheme(*qApp, themeNamed(theme));
        TeachView view;
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString dir = qEnvironmentVariable("HITCOUNTER_TEACH_SHOTS");
        for (const char* id :
             {"example", "why-second", "boundary", "memory", "gap", "limit-burst"}) {
            int index = 0;
            while (teach::lessons()[std::size_t(index)].id != id)
                ++index;
            view.loadLesson(index);
            const bool ring = teach::lessons()[std::size_t(index)].kind == teach::LessonKind::Ring;
            view.showStep(ring ? std::min(6, view.lastStep()) : 5);
            if (ring)
                view.showSubStep(view.subStepCount() - 2);
            const QImage image = view.renderImage();
            QCOMPARE(image.size(), size);
            // Every pseudocode line visible: the code view got at least the room it asks for.
            if (ring) {
                QVERIFY2(view.findChild<CodeView*>()->height() >=
                             view.findChild<CodeView*>()->minimumSizeHint().height(),
                         id);
                view.showSubStep(-1);  // the whole step: its narration is the longest text
                view.renderImage();
                QVERIFY2(view.findChild<CodeView*>()->height() >=
                             view.findChild<CodeView*>()->minimumSizeHint().height(),
                         id);
                view.showSubStep(view.subStepCount() - 2);
            }
            if (ring)
                QVERIFY2(
                    view.findChild<RingView*>(QStringLiteral("watchRing"))->overflows().isEmpty(),
                    qPrintable(view.findChild<RingView*>(QStringLiteral("watchRing"))
                                   ->overflows()
                                   .join(u'|')));
            if (!dir.isEmpty())
                image.save(QStringLiteral("%1/%2-%3x%4-%5.png")
                               .arg(dir, QString::fromLatin1(id))
                               .arg(size.width())
                               .arg(size.height())
                               .arg(theme));
        }
        applyTheme(*qApp, themeNamed(QStringLiteral("light")));
    }

    // Issue 16, build 2: the bytes chart plots, step by step, what the real counters report,
    // run here on their own; and the story it narrates holds: the ring fixed, the deque below
    // it after the burst and above it once every second is busy, never falling; the vector
    // growing with every call.
    void bytesChartFollowsTheCounters() {
        m_view.loadLesson(lessonIndex("bytes"));
        StepChart* chart = m_view.chart();
        QVERIFY(chart->isVisible());
        QCOMPARE(chart->kind(), teach::LessonChart::Bytes);
        const auto& lesson = teach::lessons()[std::size_t(lessonIndex("bytes"))];
        const auto ops =
            std::get<std::vector<teach::Operation>>(teach::parseOperations(lesson.operations));
        RingCounter ring(lesson.window);
        DequeCounter deque(lesson.window);
        NaiveCounter naive(lesson.window);
        std::vector<double> ringBytes{double(ring.memoryBytes())};
        std::vector<double> dequeBytes{double(deque.memoryBytes())};
        std::vector<double> naiveBytes{double(naive.memoryBytes())};
        for (const teach::Operation& op : ops) {
            if (op.kind == teach::Operation::Kind::Hit) {
                for (Count n = 0; n < op.repeat; ++n) {
                    ring.hit(op.second);
                    deque.hit(op.second);
                    naive.hit(op.second);
                }
            } else {
                ring.count(op.second);
                deque.count(op.second);
                naive.count(op.second);
            }
            ringBytes.push_back(double(ring.memoryBytes()));
            dequeBytes.push_back(double(deque.memoryBytes()));
            naiveBytes.push_back(double(naive.memoryBytes()));
        }
        QCOMPARE(chart->series().size(), std::size_t(3));
        QCOMPARE(chart->series()[0].values, ringBytes);
        QCOMPARE(chart->series()[1].values, dequeBytes);
        QCOMPARE(chart->series()[2].values, naiveBytes);
        // The story: ring O(W) fixed; deque below the ring after the burst, above it later,
        // and never falling; the vector grows with every call.
        QVERIFY(std::all_of(ringBytes.begin(), ringBytes.end(),
                            [&](double b) { return b == ringBytes.front(); }));
        QVERIFY(dequeBytes[1] < ringBytes[1]);
        QVERIFY(std::any_of(dequeBytes.begin(), dequeBytes.end(),
                            [&](double b) { return b > ringBytes.front(); }));
        QVERIFY(std::is_sorted(dequeBytes.begin(), dequeBytes.end()));
        QVERIFY(naiveBytes.back() > naiveBytes[1] && naiveBytes[1] > dequeBytes[1]);
        for (int step = 0; step <= m_view.lastStep(); ++step) {
            m_view.showStep(step);
            QCOMPARE(chart->step(), step);
            const auto& f = m_view.timeline().frames()[std::size_t(step)];
            for (std::size_t bytes : {f.ringBytes, f.dequeBytes, f.naiveBytes})
                QVERIFY2(chart->caption().contains(QStringLiteral("%1 B").arg(bytes)),
                         qPrintable(chart->caption()));
            if (step == 0)
                continue;
            // The step narrates the story: the bytes and the growth law of each structure.
            const QString memory = QString::fromStdString(f.memoryText);
            QVERIFY2(plain(m_view.narration()).contains(memory), qPrintable(m_view.narration()));
            for (const char* law : {"O(W)", "O(distinct seconds in the window)", "O(calls)"})
                QVERIFY2(memory.contains(QLatin1String(law)), qPrintable(memory));
            QVERIFY(memory.contains(QStringLiteral("Deque %1 B").arg(f.dequeBytes)));
            if (f.op->second == 60)  // the gap: every pair popped, the bytes stay
                QVERIFY2(memory.contains(QStringLiteral("do not fall")), qPrintable(memory));
        }
        // A lesson without a chart hides it.
        m_view.loadLesson(0);
        QVERIFY(!m_view.chart()->isVisible());
    }

    // The slot visits are shown per step: the chart's caption and the narration's cost line
    // carry the frame's numbers, the chart's series are the sums so far.
    void slotVisitsAreShownPerStep() {
        m_view.loadLesson(lessonIndex("running-total"));
        StepChart* chart = m_view.chart();
        QVERIFY(chart->isVisible());
        QCOMPARE(chart->kind(), teach::LessonChart::SlotVisits);
        const auto& frames = m_view.timeline().frames();
        QCOMPARE(chart->series().size(), std::size_t(2));
        for (int step = 1; step <= m_view.lastStep(); ++step) {
            m_view.stepForward();
            const auto& f = frames[std::size_t(step)];
            QCOMPARE(chart->series()[0].values[std::size_t(step)], double(f.scanVisitsSoFar));
            QCOMPARE(chart->series()[1].values[std::size_t(step)], double(f.runningVisitsSoFar));
            QVERIFY2(chart->caption().contains(QStringLiteral("scan %1, running total %2")
                                                   .arg(f.scanVisits)
                                                   .arg(f.runningVisits)),
                     qPrintable(chart->caption()));
            QVERIFY2(plain(m_view.narration())
                         .contains(QStringLiteral("Cost: ") + QString::fromStdString(f.costText)),
                     qPrintable(m_view.narration()));
        }
        m_view.loadLesson(lessonIndex("why-second"));  // no chart, no cost line
        m_view.showStep(3);
        QVERIFY(!plain(m_view.narration()).contains(QStringLiteral("Cost:")));
    }

    // The charts fit at 1280x720 and 1920x1080, light and dark: every label inside the chart,
    // the chart inside the view, the ring's text and every pseudocode line still with room.
    void chartsFitAtBothSizesInBothThemes_data() { fitsAtBothSizesInBothThemes_data(); }
    void chartsFitAtBothSizesInBothThemes() {
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        applyTheme(*qApp, themeNamed(theme));
        TeachView view;
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString dir = qEnvironmentVariable("HITCOUNTER_TEACH_SHOTS");
        for (const char* id : {"running-total", "bytes"}) {
            view.loadLesson(lessonIndex(id));
            // Every step's narration, its Cost or Memory line included, shows whole.
            auto* narrationScroll = view.findChild<QScrollArea*>(QStringLiteral("narrationScroll"));
            for (int step = 1; step <= view.lastStep(); ++step) {
                view.showStep(step);
                view.renderImage();
                QVERIFY2(
                    narrationScroll->widget()->height() <= narrationScroll->viewport()->height(),
                    qPrintable(QStringLiteral("%1 step %2 scrolls").arg(id).arg(step)));
            }
            for (int step : {3, 9, view.lastStep()}) {
                view.showStep(step);
                const QImage image = view.renderImage();
                if (image.size() != size) {
                    // Which part asks for the height: each visible widget's minimum.
                    QStringList parts;
                    for (int i = 0; i < view.layout()->count(); ++i) {
                        QLayoutItem* item = view.layout()->itemAt(i);
                        parts
                            << QStringLiteral("root%1:%2").arg(i).arg(item->minimumSize().height());
                        if (QLayout* sub = item->layout())
                            for (int k = 0; k < sub->count(); ++k)
                                parts << QStringLiteral("sub%1.%2:%3")
                                             .arg(i)
                                             .arg(k)
                                             .arg(sub->itemAt(k)->minimumSize().height());
                    }
                    for (QWidget* w : view.findChildren<QWidget*>())
                        if (w->isVisible() && w->minimumSizeHint().height() > 20)
                            parts << QStringLiteral("%1(in %4):%2/%3")
                                         .arg(QString::fromLatin1(w->metaObject()->className()))
                                         .arg(w->minimumSizeHint().height())
                                         .arg(w->minimumHeight())
                                         .arg(QString::fromLatin1(
                                             w->parentWidget()->metaObject()->className()));
                    qWarning(
                        "view min %d, layout min %d, hfw %d %d; %s",
                        view.minimumSizeHint().height(), view.layout()->totalMinimumSize().height(),
                        int(view.layout()->hasHeightForWidth()),
                        view.layout()->totalHeightForWidth(1280), qPrintable(parts.join(u' ')));
                }
                QCOMPARE(image.size(), size);
                StepChart* chart = view.chart();
                QVERIFY(chart->isVisible());
                QVERIFY2(chart->textFits(), qPrintable(QStringLiteral("%1 step %2: %3x%4")
                                                           .arg(QString::fromLatin1(id))
                                                           .arg(step)
                                                           .arg(chart->width())
                                                           .arg(chart->height())));
                QVERIFY(
                    view.rect().contains(QRect(chart->mapTo(&view, QPoint(0, 0)), chart->size())));
                QVERIFY(chart->height() >= chart->minimumSizeHint().height());
                CodeView* code = view.findChild<CodeView*>();
                QVERIFY2(!code->isVisible() || code->height() >= code->minimumSizeHint().height(),
                         id);
                QVERIFY2(
                    view.findChild<RingView*>(QStringLiteral("watchRing"))->overflows().isEmpty(),
                    qPrintable(view.findChild<RingView*>(QStringLiteral("watchRing"))
                                   ->overflows()
                                   .join(u'|')));
                // The narration with its Cost or Memory line shows whole: no scrolling.
                auto* scroll = view.findChild<QScrollArea*>(QStringLiteral("narrationScroll"));
                QVERIFY(scroll);
                QVERIFY2(scroll->widget()->height() <= scroll->viewport()->height(),
                         qPrintable(QStringLiteral("%1 step %2: narration %3 px in %4 px")
                                        .arg(QString::fromLatin1(id))
                                        .arg(step)
                                        .arg(scroll->widget()->height())
                                        .arg(scroll->viewport()->height())));
                if (!dir.isEmpty())
                    image.save(QStringLiteral("%1/%2-%3-%4x%5-%6.png")
                                   .arg(dir, QString::fromLatin1(id))
                                   .arg(step)
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(theme));
            }
        }
        applyTheme(*qApp, themeNamed(QStringLiteral("light")));
    }

    // Build 3: a seeded practice asks getHits and slot counts, names the mistake, keeps score.
    void practiceAsksScoresAndNamesTheMistake() {
        m_view.startPractice(42);
        QVERIFY(m_view.predict()->practicing());
        QVERIFY(m_view.lessonPanel()->predictSwitch()->isChecked());
        const QString text = m_view.lessonPanel()->operationsText();
        QVERIFY(text.contains(QStringLiteral("seed 42")));
        const auto questions = teach::questions(m_view.timeline());
        QVERIFY(questions.size() >= 2);
        int asked = 0;
        for (int i = 0; i < 200 && m_view.currentStep() < m_view.lastStep(); ++i) {
            m_view.stepForward();
            if (!m_view.predict()->awaiting())
                continue;
            const int step = m_view.currentStep() + 1;
            const auto q = std::find_if(
                questions.begin(), questions.end(),
                [&](const teach::Question& question) { return int(question.step) == step; });
            QVERIFY(q != questions.end());
            QVERIFY2(m_view.predict()->question().contains(QString::fromStdString(q->prompt)),
                     qPrintable(m_view.predict()->question()));
            ++asked;
            if (asked == 2 && !qEnvironmentVariable("HITCOUNTER_TEACH_SHOTS").isEmpty())
                m_view.renderImage().save(qEnvironmentVariable("HITCOUNTER_TEACH_SHOTS") +
                                          QStringLiteral("/practice-question.png"));
            m_view.predict()->submit(asked == 1 ? q->answer + 1000 : q->answer);
            if (asked == 1 && !qEnvironmentVariable("HITCOUNTER_TEACH_SHOTS").isEmpty())
                m_view.renderImage().save(qEnvironmentVariable("HITCOUNTER_TEACH_SHOTS") +
                                          QStringLiteral("/practice-verdict.png"));
            QCOMPARE(m_view.predict()->score().asked, asked);
            QCOMPARE(m_view.predict()->score().right, asked - 1);
            QVERIFY2(plain(m_view.narration())
                         .contains(QStringLiteral("(%1 of %2 right)").arg(asked - 1).arg(asked)),
                     qPrintable(m_view.narration()));
        }
        QCOMPARE(asked, int(questions.size()));
        // The same seed gives the same operations; running other operations ends the practice.
        m_view.startPractice(42);
        QCOMPARE(m_view.lessonPanel()->operationsText(), text);
        QVERIFY(!m_view.runOperations(QStringLiteral("hit 5\nhit 6\ngetHits 15"),
                                      std::chrono::seconds{10}));
        QVERIFY(!m_view.predict()->practicing());
        m_view.stepForward();
        m_view.stepForward();
        m_view.stepForward();
        QVERIFY(m_view.predict()->awaiting());
        m_view.predict()->submit(2);  // Predict mode names the off-by-one too
        QVERIFY2(plain(m_view.narration()).contains(QStringLiteral("off by one at t - W")),
                 qPrintable(m_view.narration()));
        m_view.predict()->setMode(false);
    }

    // Build 5: save and open a lesson file: operations, W, step, answers, practice and score.
    void savesAndOpensALessonFile() {
        m_view.loadLesson(int(std::find_if(teach::lessons().begin(), teach::lessons().end(),
                                           [](const auto& l) { return l.id == "boundary"; }) -
                              teach::lessons().begin()));
        m_view.lessonPanel()->findChild<QSpinBox*>(QStringLiteral("window"))->setValue(9);
        m_view.predict()->setMode(true);
        m_view.showStep(2);
        m_view.stepForward();  // getHits 14 asks
        QVERIFY(m_view.predict()->awaiting());
        m_view.predict()->submit(2);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("boundary.lesson"));
        QString error;
        QVERIFY2(m_view.files()->saveLessonFile(path, &error), qPrintable(error));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray text = saved.readAll();
        QVERIFY2(text.startsWith("# hitcounter lesson 1\nlesson boundary\nwindow 9\nstep 3\n"
                                 "answer 3 2\noperations:\nhit 5\n"),
                 text.constData());

        TeachView other;
        other.resize(1280, 800);
        QVERIFY2(other.files()->loadLessonFile(path, &error), qPrintable(error));
        QCOMPARE(other.timeline().window().count(), 9);
        QCOMPARE(other.currentStep(), 3);
        QCOMPARE(other.timeline().operations().size(), m_view.timeline().operations().size());
        QCOMPARE(other.lessonPanel()->exportName(), QStringLiteral("boundary-w9"));
        other.showStep(2);
        other.stepForward();  // answered in the file: not asked again
        QVERIFY(!other.predict()->awaiting());
        QCOMPARE(other.currentStep(), 3);

        m_view.startPractice(11);
        for (int i = 0; i < 100 && !m_view.predict()->awaiting(); ++i)
            m_view.stepForward();
        QVERIFY(m_view.predict()->awaiting());
        m_view.predict()->submit(123456);
        QVERIFY(m_view.files()->saveLessonFile(path, &error));
        TeachView third;
        QVERIFY(third.files()->loadLessonFile(path, &error));
        QVERIFY(third.predict()->practicing());
        QCOMPARE(third.predict()->score().asked, 1);
        QCOMPARE(third.predict()->score().right, 0);
        QCOMPARE(third.currentStep(), m_view.currentStep());

        QVERIFY(
            !other.files()->loadLessonFile(dir.filePath(QStringLiteral("none.lesson")), &error));
        QVERIFY(error.contains(QStringLiteral("none.lesson")));
        // Issue 30 item 20: over 1 MiB it was cut silently and then read as what was left (or
        // failed with a syntax error about the cut line); it is refused with its size.
        const QString big = dir.filePath(QStringLiteral("big.lesson"));
        {
            const QByteArray head = "# hitcounter lesson 1\nwindow 10\n# ";
            const QByteArray tail = "\noperations:\nhit 1\n";
            QFile out(big);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(head + QByteArray((1 << 20) + 1 - head.size() - tail.size(), 'x') + tail);
        }
        QVERIFY(!other.files()->loadLessonFile(big, &error));
        QVERIFY2(error.contains(QStringLiteral("'%1': it is 1,048,577 bytes, more than the "
                                               "1,048,576 bytes (1 MiB)")
                                    .arg(big)),
                 qPrintable(error));
        m_view.predict()->setMode(false);
    }

    // Build 5, issue 24: the PDF handout is a document (tst_handout reads it back page by page);
    // here: a PDF with as many pages as the export says, the step kept, an unwritable place
    // named.
    void exportsAHandoutPdf() {
        m_view.loadLesson(1);
        m_view.showStep(2);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("example10.pdf"));
        QString error;
        const int written = m_view.files()->exportHandoutPdf(path, &error);
        QVERIFY2(written >= 2, qPrintable(error));
        QCOMPARE(m_view.currentStep(), 2);
        QFile pdf(path);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdf.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        const auto pages = bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r") +
                           bytes.count("/Type /Page ") + bytes.count("/Type /Page/") +
                           bytes.count("/Type /Page>");
        QCOMPARE(int(pages), written);
        if (!qEnvironmentVariable("HITCOUNTER_TEACH_SHOTS").isEmpty())
            m_view.files()
                ->handoutPage(0, QSize(1240, 1754))
                .save(qEnvironmentVariable("HITCOUNTER_TEACH_SHOTS") +
                      QStringLiteral("/handout-page1.png"));
        QVERIFY(m_view.files()->exportHandoutPdf(QStringLiteral("/proc/no/such/dir/x.pdf"),
                                                 &error) < 0);
        QVERIFY(error.contains(QStringLiteral("/proc/no/such/dir/x.pdf")));
    }

    void exportToAnUnwritablePlaceFailsWithAMessage() {
        QString error;
        QVERIFY(
            !m_view.files()->exportCurrentFrame(QStringLiteral("/proc/no/such/dir/x.png"), &error));
        QVERIFY(error.contains(QStringLiteral("/proc/no/such/dir/x.png")));
    }

private:
    TeachView m_view;
};

HITCOUNTER_TEST_MAIN(TestTeachView)
#include "tst_teach_view.moc"
