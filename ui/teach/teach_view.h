// TeachView: the teaching mode: the ring buffer explained step by step, side by side with the
// deque and the naive vector, all driven by the same operations.
//
// GUI thread only. The view owns one teach::Timeline (every step recorded as an immutable
// frame from the real counters) and an index into it: stepping forward or back, playing and
// scrubbing only change the index, so going back shows exactly the earlier state. Running new
// operations replaces the timeline; a parse error keeps the old one and is shown in the editor.
//
// Predict mode: stepping forward onto a getHits stops first and asks the learner for the
// answer; submitPrediction() (or revealPrediction()) then shows the step with the right answer
// and the reason. Jumping with the scrubber or to the end does not ask.
//
// Practice (issue 16, build 3): startPractice(seed) writes seeded random operations
// (teach::practiceOperations) into the editor, runs them and turns Predict mode on; it then also
// asks for the count of every written slot a hit lands on (does it reset?), names the mistake
// behind a wrong answer (teach::diagnose: off by one at t - W, a stale slot, a forgotten late
// hit, a forgotten reset) and keeps a running score. Running other operations ends it. In plain
// Predict mode the wrong getHits answers are diagnosed too.
//
// Rate-limit lessons (teach::LessonKind::RateLimit): the operations run through a
// teach::LimiterTimeline instead, and a LimiterView (the limiters' boards) takes the place of the
// ring, the queues and the code; stepping, playing, scrubbing, narration and export work the
// same; Predict mode asks before each single request which limiters accept it
// (teach::limiterQuestions, a box per limiter) and names the mistake per limiter.
//
// Sub-steps: each operation expands into the pseudocode lines it runs (teach::SubStep), listed
// under the code (the list collapses with its header button). Choosing one (click, or Down/Up)
// highlights its line and shows the ring as that line left it: before the reset the slot still
// holds its old second; during getHits the slot being compared is outlined. Stepping to another
// operation shows it whole again (subStep() == -1), ending on its last line.
//
// Build (issue 16, build 4): a tab beside "Watch" where the learner builds the ring from
// choices and runs it against the reference (BuildPanel); a lesson file saves the built ring.
// Code (issue 24): a third tab where the learner writes the counter in JavaScript and checks
// it against the reference (CodePanel); a lesson file keeps the code.
//
// Themes: the painted panels use the teaching palette of the application's palette
// (teach_style.h), light or dark, and follow it when it changes (the main window's Dark toggle);
// the exports (PNG frames, the handout) are always drawn in the light one, for slides and paper.
//
// Export: exportCurrentFrame() writes the view as a PNG; exportAllFrames() writes one PNG per
// step, "<name>-step-000.png" (LessonPanel::exportName(): "-w5" added at another W),
// "<lesson>-step-001.png", ... (animations are shown finished).
#pragma once

#include <QSet>
#include <QWidget>
#include <map>
#include <memory>
#include <optional>

#include "core/teach/lesson_file.h"
#include "core/teach/limiter_questions.h"
#include "core/teach/limiter_timeline.h"
#include "core/teach/practice.h"
#include "core/teach/timeline.h"

class QCheckBox;
class QLabel;
class QPainter;
class QListWidget;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTabBar;
class QTextDocument;
class QTimer;

namespace hitcounter::ui {

class BuildPanel;
class CodePanel;
class CodeView;
class LessonPanel;
class LimiterView;
class RingView;
class SequenceView;
class StepChart;
class TransportBar;
namespace teachstyle {
struct TeachPalette;
}

class TeachView : public QWidget {
    Q_OBJECT

public:
    explicit TeachView(QWidget* parent = nullptr);
    ~TeachView() override;

    // Loads lesson `index` of teach::lessons() and shows its start (lesson 0 is the example).
    void loadLesson(int index);
    // Parses and runs `text` with `window`. On a parse error the current steps stay and the
    // error is marked in the editor and returned.
    std::optional<teach::ParseError> runOperations(const QString& text,
                                                   std::chrono::seconds window);

    // The ring lessons' timeline (the last one run while a rate-limit lesson is shown).
    const teach::Timeline& timeline() const { return *m_timeline; }
    // The rate-limit lesson being shown, or nullptr for a ring lesson.
    const teach::LimiterTimeline* limiterTimeline() const { return m_limits.get(); }
    int currentStep() const { return m_step; }
    int lastStep() const;
    QString narration() const;
    LessonPanel* lessonPanel() const { return m_lessons; }
    // The chart under the ring (issue 16, build 2): shown for lessons with a LessonChart (the
    // slot visits of the scan against the running total, or the bytes over the steps).
    StepChart* chart() const { return m_chart; }
    // The Build tab (issue 16, build 4): the learner's own ring against the reference counter,
    // on the shown lesson's operations or random ones. showBuild(true) shows it in place of
    // the ring, the queues and the code (ring lessons only).
    BuildPanel* buildPanel() const { return m_build; }
    void showBuild(bool on);
    bool buildShown() const;
    // The Code tab (issue 24): the learner's own JavaScript counter against the reference.
    CodePanel* codePanel() const { return m_codePanel; }
    void showCode(bool on);
    bool codeShown() const;
    static constexpr int kWatchTab = 0;
    static constexpr int kBuildTab = 1;
    static constexpr int kCodeTab = 2;
    void showTab(int tab);  // a rate-limit lesson always watches

    void showStep(int step);   // clamped to [0, lastStep()], no animation
    int subStepCount() const;  // of the current step
    int subStep() const { return m_subStep; }
    void showSubStep(int index);  // -1: the whole operation; clamped otherwise
    void stepForward();           // animated; in Predict mode may stop at a question instead
    void stepBack();
    void setPlaying(bool playing);
    bool playing() const;

    void setPredictMode(bool on);
    bool awaitingPrediction() const { return m_pendingStep.has_value(); }
    QString predictQuestion() const;  // empty unless awaitingPrediction()
    void submitPrediction(Count guess);
    // A rate-limit lesson's question: one entry per limiter, true for "accepts".
    void submitLimiterPrediction(const std::vector<bool>& accepts);
    void revealPrediction();
    // The answers given in this view so far, per lesson (its export name: "boundary-w9").
    const std::map<std::string, teach::Score>& progress() const { return m_progress; }

    void startPractice(std::uint64_t seed,
                       teach::PracticeLevel level = teach::PracticeLevel::OutOfOrder);

    // Lesson files (core/teach/lesson_file.h): what is shown now (lesson, W, operations, step,
    // the answers given, the practice seed), and back. Loading runs the operations, restores
    // the answers (those steps are not asked again; a practice's score is recomputed) and shows
    // the step. The file functions return false with *error naming the file (and line).
    teach::LessonFile lessonFile() const;
    void openLessonFile(const teach::LessonFile& file);
    bool saveLessonFile(const QString& path, QString* error);
    bool loadLessonFile(const QString& path, QString* error);
    bool practicing() const { return m_practicing; }
    const teach::Score& score() const { return m_score; }

    QImage renderImage();
    bool exportCurrentFrame(const QString& path, QString* error);
    // Returns the number of files written, or -1 with *error set.
    int exportAllFrames(const QString& directory, QString* error);
    // A handout (issue 24, handout.h): a document with the goal, the ring drawn, the steps in
    // a table, questions, and the answers on a page of their own, in print sizes; always in the
    // light palette. Returns the number of pages, or -1 with *error set. Written atomically.
    int exportHandoutPdf(const QString& path, QString* error);
    // Handout page `page` (0-based) drawn on an image of `size`, for previews.
    QImage handoutPage(int page, QSize size);

Q_SIGNALS:
    void stepChanged(int step);

protected:
    void changeEvent(QEvent* event) override;
    // Right/Left step, Space plays, Home/End jump, Down/Up walk the sub-steps: in the Watch
    // tab, when the focused child does not use the key itself.
    void keyPressEvent(QKeyEvent* event) override;

private:
    void restyle();
    std::optional<teach::ParseError> run(const QString& text, std::chrono::seconds window);
    void present(int step, bool animate);
    QString stepHeader(int step, const std::optional<teach::Operation>& op) const;
    bool asksAt(int step) const;
    const teach::LimiterQuestion* limiterQuestionAt(int step) const;
    void finishLimiterPrediction(const std::optional<std::vector<bool>>& accepts);
    void recordProgress(bool right);
    QString questionHtml() const;
    QString verdictHtml(int step) const;
    // In a practice, the first question at or before `step` not answered yet.
    std::optional<int> firstUnansweredUpTo(int step) const;
    QString practiceSummary() const;
    const teach::Question* questionAt(int step) const;
    void askPrediction(int step);
    void finishPrediction(std::optional<Count> guess);
    void cancelPrediction();
    void updateTransport();
    void refreshLayouts();
    void presentSubStep();
    void chooseExportFile();
    void chooseExportDirectory();
    void chooseLessonFileToSave();
    void chooseHandoutFile();
    std::unique_ptr<QTextDocument> handoutDocument();
    void chooseLessonFileToOpen();

    std::unique_ptr<teach::Timeline> m_timeline;
    std::unique_ptr<teach::LimiterTimeline> m_limits;  // set while a rate-limit lesson is shown
    int m_step = 0;
    std::optional<int> m_pendingStep;  // the getHits step the learner is asked about
    QSet<int> m_revealed;              // getHits steps already predicted in Predict mode
    int m_verdictStep = -1;            // the step m_verdict belongs to
    QString m_verdict;                 // "You said 4, but ..." shown with that step
    bool m_predict = false;
    LessonPanel* m_lessons;
    RingView* m_ring;
    StepChart* m_chart;
    SequenceView* m_deque;
    SequenceView* m_vector;
    CodeView* m_code;
    QLabel* m_narration;
    QWidget* m_narrationBox = nullptr;  // the narration's board
    QWidget* m_narrationScroll;         // the narration's scroll area: taller in chart lessons
    int m_narrationMinimum = 0;         // its height for the lesson while no question is asked
    QWidget* m_predictRow;
    QString m_questionText;  // the question asked, shown at the top of the narration
    QSpinBox* m_guess;
    QWidget* m_laneChoices;  // a rate-limit question's limiter boxes
    std::vector<QCheckBox*> m_laneBoxes;
    std::vector<teach::LimiterQuestion> m_limiterQuestions;
    std::map<std::string, teach::Score> m_progress;
    QStackedWidget* m_panes;  // the ring pane, or the limiters
    LimiterView* m_limiterView;
    BuildPanel* m_build;
    CodePanel* m_codePanel;
    QTabBar* m_modeTabs;  // Watch | Build | Code
    TransportBar* m_transport;
    QTimer* m_player;
    QWidget* m_subBox;
    QPushButton* m_subToggle;
    QListWidget* m_subList;
    int m_subStep = -1;
    bool m_practicing = false;
    std::uint64_t m_practiceSeed = 0;
    std::map<std::size_t, Count> m_answers;  // step -> the learner's answer
    bool m_startingPractice = false;
    std::vector<teach::Question> m_questions;  // the questions of the shown timeline
    teach::Score m_score;
    std::map<std::string, int> m_mistakes;  // a practice's mistakes, by name
    QLabel* m_scoreLabel;
    const teachstyle::TeachPalette* m_styledWith = nullptr;  // what restyle() last used
};

}  // namespace hitcounter::ui
