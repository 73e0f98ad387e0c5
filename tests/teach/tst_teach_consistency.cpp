// What the teaching view draws agrees with the step it shows (issue 24): a getHits into the
// past colours the ring, the deque and the vector by its own window and names its open end
// head - W; at a sub-step every panel shows that moment; the stepping keys leave the keys of a
// focused check box, spin box or button alone; Predict mode does not give the boundary away; a
// practice asks every question before it shows its answer and sums up at the end; a long
// question keeps the answer box on the window at 1280x720.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

#include "core/teach/lessons.h"
#include "tests/test_main.h"
#include "ui/teach/build_panel.h"
#include "ui/teach/code_view.h"
#include "ui/teach/lesson_panel.h"
#include "ui/teach/predict_controller.h"
#include "ui/teach/ring_view.h"
#include "ui/teach/sequence_view.h"
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

QString plain(QString html) {
    html.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
    html.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    html.replace(QStringLiteral("&lt;"), QStringLiteral("<"));
    html.replace(QStringLiteral("&gt;"), QStringLiteral(">"));
    return html.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
}

}  // namespace

class TestTeachConsistency : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        m_view.resize(1280, 720);
        m_view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&m_view));
        m_ring = m_view.findChild<RingView*>(QStringLiteral("watchRing"));
        for (SequenceView* s : m_view.findChildren<SequenceView*>())
            (m_deque ? m_vector : m_deque) = s;
        QVERIFY(m_ring && m_deque && m_vector);
    }

    // Wrong 1: getHits(5) after hits at 1 and 12, W = 10: the window (2, 5] counts neither.
    void aQueryIntoThePastIsColouredByItsWindow() {
        QVERIFY(!m_view.runOperations(QStringLiteral("hit 1\nhit 12\ngetHits 5\ngetHits 12"),
                                      std::chrono::seconds{10}));
        m_view.showStep(3);
        m_ring->grab();
        QVERIFY2(m_ring->countedSlots().empty(),
                 qPrintable(QString::number(m_ring->countedSlots().size())));
        m_deque->grab();
        m_vector->grab();
        QCOMPARE(m_deque->greyed(), (std::vector<bool>{true}));         // (12, 1)
        QCOMPARE(m_vector->greyed(), (std::vector<bool>{true, true}));  // 1, 12
        m_view.showStep(4);  // getHits(12): (2, 12] counts 12
        m_ring->grab();
        QCOMPARE(m_ring->countedSlots(), (std::vector<std::size_t>{2}));
        m_vector->grab();
        QCOMPARE(m_vector->greyed(), (std::vector<bool>{true, false}));
    }

    // Wrong 2: its open end is head - W = 5, not t - W = 2.
    void aQueryIntoThePastNamesItsOpenEnd() {
        QVERIFY(!m_view.runOperations(QStringLiteral("hit 5\nhit 15\ngetHits 12"),
                                      std::chrono::seconds{10}));
        m_view.showStep(3);
        m_ring->grab();
        const QString all = m_ring->captions().join(u'|');
        QVERIFY2(all.contains(QStringLiteral("open end: head − W = 5 (out)")), qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("boundary 2")), qPrintable(all));
    }

    // Wrong 4: "hit 3; hit 13" at its head line: second 3 is stale already, nothing is added
    // yet, and the vector still holds one call.
    void everyPanelShowsTheSubStepsMoment() {
        QVERIFY(!m_view.runOperations(QStringLiteral("hit 3\nhit 13"), std::chrono::seconds{10}));
        m_view.showStep(2);
        const auto& subs = m_view.timeline().frames()[2].subSteps;
        int head = -1;
        for (int i = 0; i < int(subs.size()); ++i)
            head = subs[std::size_t(i)].line == teach::Line::MoveHead ? i : head;
        QVERIFY(head > 0);
        m_view.showSubStep(head);
        m_ring->grab();
        QVERIFY(m_ring->countedSlots().empty());  // (3, 1) left (3, 13]
        QVERIFY(!m_ring->captions().contains(QStringLiteral("count +1")));
        QVERIFY(m_ring->captions().contains(QStringLiteral("window (3, 13]")));
        m_vector->grab();
        QCOMPARE(m_vector->greyed().size(), std::size_t(1));
        // The line expands into its why (issue 24), in the narration and over the code.
        QVERIFY2(plain(m_view.narration())
                     .contains(QStringLiteral("Why: ") +
                               QString::fromUtf8(teach::lineWhy(teach::Line::MoveHead).data())),
                 qPrintable(m_view.narration()));
        auto* code = m_view.findChild<CodeView*>();
        QVERIFY(code->whyAt(QPoint(40, 0)).isEmpty());  // the title
        bool explained = false;
        for (int y = 0; y < code->height(); y += 4)
            explained =
                explained || code->whyAt(QPoint(40, y)) ==
                                 QString::fromUtf8(teach::lineWhy(teach::Line::ResetSlot).data());
        QVERIFY(explained);
        m_view.showSubStep(-1);  // the whole step
        m_ring->grab();
        QVERIFY(m_ring->captions().contains(QStringLiteral("count +1")));
        m_vector->grab();
        QCOMPARE(m_vector->greyed().size(), std::size_t(2));
    }

    // The stepping keys do not take the keys of the widget that has the focus.
    void aFocusedWidgetKeepsItsKeys() {
        m_view.loadLesson(lessonIndex("example10"));
        m_view.showStep(0);
        QCheckBox* predict = m_view.lessonPanel()->predictSwitch();
        predict->setFocus();
        QVERIFY(!predict->isChecked());
        QTest::keyClick(predict, Qt::Key_Space);
        QVERIFY(predict->isChecked());  // Space toggled Predict mode ...
        QVERIFY(!m_view.playing());     // ... and did not play
        QTest::keyClick(predict, Qt::Key_Space);
        QVERIFY(!predict->isChecked());
        auto* window = m_view.lessonPanel()->findChild<QSpinBox*>(QStringLiteral("window"));
        window->setFocus();
        QTest::keyClick(window, Qt::Key_Up);
        QCOMPARE(window->value(), 11);  // Up went to the spin box, not to the sub-steps
        QCOMPARE(m_view.subStep(), -1);
        QTest::keyClick(window, Qt::Key_Down);
        QCOMPARE(window->value(), 10);
        QPushButton* run = nullptr;
        for (QPushButton* b : m_view.lessonPanel()->findChildren<QPushButton*>())
            run = b->text().startsWith(QStringLiteral("Run")) ? b : run;
        run->setFocus();
        QTest::keyClick(run, Qt::Key_Space);
        QVERIFY(!m_view.playing());
        // On the view itself (a click on a board gives it the focus) the keys step.
        m_view.setFocus();
        QTest::keyClick(&m_view, Qt::Key_Right);
        QCOMPARE(m_view.currentStep(), 1);
        QTest::keyClick(&m_view, Qt::Key_End);
        QCOMPARE(m_view.currentStep(), m_view.lastStep());
        QTest::keyClick(&m_view, Qt::Key_Home);
        QCOMPARE(m_view.currentStep(), 0);
    }

    // Predict mode names no window when a hit sits on its open end.
    void predictKeepsTheBoundarySecret() {
        m_view.loadLesson(lessonIndex("boundary"));  // hit 5, 6; getHits 14, 15, 16
        m_view.predict()->setMode(true);
        m_view.showStep(3);
        m_view.stepForward();  // getHits 15 asks
        QVERIFY(m_view.predict()->awaiting());
        const QString q = m_view.predict()->question();
        QVERIFY2(q.contains(QStringLiteral("getHits(15)")), qPrintable(q));
        QVERIFY2(!q.contains(QStringLiteral("(5, 15]")) && !q.contains(QStringLiteral("5 <")),
                 qPrintable(q));
        QVERIFY2(q.contains(QStringLiteral("last 10 seconds up to 15")), qPrintable(q));
        m_view.predict()->reveal();
        m_view.predict()->setMode(false);
    }

    // A practice: End and the scrubber stop before the first question not answered yet; each
    // question is asked once; the last answer brings the summary.
    void aPracticeAsksBeforeItShows() {
        m_view.startPractice(1);
        QVERIFY(m_view.predict()->practicing());
        QVERIFY(!m_view.lessonPanel()->predictSwitch()->isEnabled());
        const auto questions = teach::questions(m_view.timeline());
        QVERIFY(questions.size() >= 3);
        m_view.showStep(m_view.lastStep());  // End
        QVERIFY(m_view.predict()->awaiting());
        QCOMPARE(m_view.currentStep(), int(questions.front().step) - 1);
        m_view.predict()->setMode(false);  // cannot be switched off to peek
        int answered = 0;
        for (int guard = 0; guard < 100 && answered < int(questions.size()); ++guard) {
            m_view.showStep(m_view.lastStep());
            if (!m_view.predict()->awaiting())
                break;
            const int step = m_view.currentStep() + 1;
            const auto q =
                std::find_if(questions.begin(), questions.end(),
                             [&](const teach::Question& x) { return int(x.step) == step; });
            QVERIFY(q != questions.end());
            QCOMPARE(m_view.renderImage().size(), QSize(1280, 720));  // the question fits
            m_view.predict()->submit(answered == 0 ? q->answer + 7 : q->answer);
            ++answered;
        }
        QCOMPARE(answered, int(questions.size()));
        QCOMPARE(m_view.predict()->score().asked, answered);
        QCOMPARE(m_view.predict()->score().right, answered - 1);
        const QString text = plain(m_view.narration());
        QVERIFY2(
            text.contains(
                QStringLiteral("Practice done: %1 of %2 right").arg(answered - 1).arg(answered)),
            qPrintable(text));
        // Stepping back and forward asks nothing again.
        m_view.showStep(0);
        m_view.showStep(m_view.lastStep());
        QVERIFY(!m_view.predict()->awaiting());
        QCOMPARE(m_view.currentStep(), m_view.lastStep());
        m_view.loadLesson(0);  // ends the practice
        QVERIFY(!m_view.predict()->practicing());
        m_view.predict()->setMode(false);
    }

    // Issue 24: the level box picks the practice's difficulty. A warm-up, started with the
    // panel's own button, writes its hits in time order and asks only at the head (read from
    // the editor's text); out of order has a late hit or a query into the past.
    void theLevelBoxPicksThePracticesDifficulty() {
        auto* level = m_view.lessonPanel()->findChild<QComboBox*>(QStringLiteral("level"));
        QVERIFY(level);
        QCOMPARE(level->count(), 3);
        const auto outOfOrder = [&] {
            long long head = 0;
            bool any = false;
            for (const QString& line : m_view.lessonPanel()->operationsText().split(u'\n')) {
                const QStringList op = line.split(u' ', Qt::SkipEmptyParts);
                if (op.size() < 2)
                    continue;
                const long long t = op.at(1).toLongLong();
                any = any || t < head;
                head = std::max(head, t);
            }
            return any;
        };
        QPushButton* button = nullptr;
        for (auto* b : m_view.lessonPanel()->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("New practice"))
                button = b;
        QVERIFY(button);
        level->setCurrentIndex(0);
        button->click();
        QVERIFY(m_view.predict()->practicing());
        QVERIFY2(!outOfOrder(), qPrintable(m_view.lessonPanel()->operationsText()));
        level->setCurrentIndex(2);
        button->click();
        QVERIFY2(outOfOrder(), qPrintable(m_view.lessonPanel()->operationsText()));
        m_view.loadLesson(0);
        m_view.predict()->setMode(false);
    }

    // A long question wraps: the answer box and its buttons stay on the window at 1280x720.
    void aLongQuestionKeepsTheAnswerBoxOnScreen() {
        QVERIFY(!m_view.runOperations(QStringLiteral("hit 999999999990\nhit 1000000000000\n"
                                                     "getHits 999999999995"),
                                      std::chrono::seconds{10}));
        m_view.predict()->setMode(true);
        m_view.showStep(2);
        m_view.stepForward();
        QVERIFY(m_view.predict()->awaiting());
        QVERIFY(m_view.predict()->question().size() > 120);
        QCOMPARE(m_view.renderImage().size(), QSize(1280, 720));
        auto* guess = m_view.findChild<QSpinBox*>(QStringLiteral("guess"));
        QVERIFY(guess && guess->isVisible());
        const QRect box(guess->mapTo(&m_view, QPoint(0, 0)), guess->size());
        QVERIFY2(m_view.rect().contains(box), qPrintable(QStringLiteral("%1,%2 %3x%4")
                                                             .arg(box.x())
                                                             .arg(box.y())
                                                             .arg(box.width())
                                                             .arg(box.height())));
        for (QPushButton* b : guess->parentWidget()->findChildren<QPushButton*>())
            QVERIFY(m_view.rect().contains(QRect(b->mapTo(&m_view, QPoint(0, 0)), b->size())));
        m_view.predict()->reveal();
        m_view.predict()->setMode(false);
    }

    // Issue 24: a rate-limit lesson with all four limiters asks which accept each request,
    // grades each limiter and names the mistake.
    void aRateLimitLessonAsksWhichLimitersAccept() {
        m_view.loadLesson(lessonIndex("limit-burst"));
        QCOMPARE(m_view.limiterTimeline()->names().size(), std::size_t(4));
        m_view.predict()->setMode(true);
        m_view.stepForward();  // the request at 58 asks first
        QVERIFY(m_view.predict()->awaiting());
        QCOMPARE(m_view.currentStep(), 0);
        QVERIFY2(m_view.predict()->question().contains(QStringLiteral("request at 58")),
                 qPrintable(m_view.predict()->question()));
        m_view.predict()->submitLimiters({true, true, true, true});
        QCOMPARE(m_view.currentStep(), 1);
        QVERIFY(plain(m_view.narration()).contains(QStringLiteral("✔ Right")));
        m_view.stepForward();  // 59
        m_view.predict()->submitLimiters({true, true, true, true});
        m_view.stepForward();  // 60: only the fixed window accepts
        QVERIFY(m_view.predict()->awaiting());
        m_view.predict()->submitLimiters({false, false, false, false});
        const QString text = plain(m_view.narration());
        QVERIFY2(text.contains(QStringLiteral("fixed window: forgetting that a fixed window "
                                              "starts empty")),
                 qPrintable(text));
        QVERIFY(!m_view.predict()->progress().empty());
        m_view.predict()->setMode(false);
        m_view.loadLesson(0);
    }

    // The Build tab: a verdict about other choices or another lesson goes; count-only with
    // the lazy reset reads in the tab's words and its code holds no second it does not have.
    void theBuildVerdictGoesStale() {
        m_view.loadLesson(lessonIndex("boundary"));
        m_view.showBuild(true);
        BuildPanel* build = m_view.buildPanel();
        auto* compare = build->findChildren<QComboBox*>().at(0);
        compare->setCurrentIndex(1);  // >=
        build->runOnLesson();
        QVERIFY(build->result().has_value());
        QVERIFY(build->verdict().startsWith(QStringLiteral("Differs")));
        QVERIFY(build->operationsRun().contains(QStringLiteral("getHits(15) ✘")));
        compare->setCurrentIndex(0);
        QVERIFY(!build->result().has_value());
        QVERIFY2(build->verdict().contains(QStringLiteral("choices changed")),
                 qPrintable(build->verdict()));
        QVERIFY(build->operationsRun().isEmpty());
        build->runOnLesson();
        QVERIFY(build->result().has_value());
        m_view.loadLesson(lessonIndex("gap"));
        QVERIFY(!build->result().has_value());
        QVERIFY2(build->verdict().contains(QStringLiteral("lesson changed")),
                 qPrintable(build->verdict()));
        auto* reset = build->findChildren<QComboBox*>().at(2);
        auto* store = build->findChildren<QComboBox*>().at(3);
        reset->setCurrentIndex(0);  // when its second is not t
        store->setCurrentIndex(1);  // count only
        QVERIFY(!build->pseudocode().contains(QStringLiteral(".second != t")));
        QLabel* problem = nullptr;
        for (QLabel* l : build->findChildren<QLabel*>())
            problem = l->text().contains(QStringLiteral("counts only")) ? l : problem;
        QVERIFY(problem && problem->isVisibleTo(build));
        QVERIFY2(!problem->text().contains(QStringLiteral("reset=")) &&
                     !problem->text().contains(QStringLiteral("store=")),
                 qPrintable(problem->text()));
        store->setCurrentIndex(0);
        m_view.showBuild(false);
    }

private:
    TeachView m_view;
    RingView* m_ring = nullptr;
    SequenceView* m_deque = nullptr;
    SequenceView* m_vector = nullptr;
};

HITCOUNTER_TEST_MAIN(TestTeachConsistency)
#include "tst_teach_consistency.moc"
