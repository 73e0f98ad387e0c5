// TeachView: the teaching mode: the ring buffer explained step by step, side by side with the
// deque and the naive vector, all driven by the same operations.
//
// GUI thread only. The view owns one teach::Timeline (every step recorded as an immutable
// frame from the real counters) and an index into it: stepping forward or back, playing and
// scrubbing only change the index, so going back shows exactly the earlier state. Running new
// operations replaces the timeline; a parse error keeps the old one and is shown in the editor.
//
// Predict mode (predict(), predict_controller.h): stepping forward onto a getHits stops first
// and asks the learner for the answer; an answer (or "Just show me") then shows the step with
// the right answer and the reason. Jumping with the scrubber or to the end does not ask.
//
// Practice (issue 16, build 3): startPractice(seed) writes seeded random operations
// (teach::practiceOperations) into the editor, runs them and turns Predict mode on; it then also
// asks for the count of every written slot a hit lands on, names the mistake behind a wrong
// answer and keeps a running score; no jump passes a question not answered yet. Running other
// operations ends it.
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
// Files: files() (teach_files.h) writes a step or every step as PNGs, the PDF handout and
// lesson files.
#pragma once

#include <QWidget>
#include <map>
#include <memory>
#include <optional>

#include "core/teach/lesson_file.h"
#include "core/teach/limiter_questions.h"
#include "core/teach/limiter_timeline.h"
#include "core/teach/practice.h"
#include "core/teach/timeline.h"

class QLabel;
class QScrollArea;
class QStackedWidget;
class QTabBar;
class QTimer;

namespace hitcounter::ui {

class BuildPanel;
class CodePanel;
class CodeView;
class LessonPanel;
class LimiterView;
class PredictController;
class RingView;
class SequenceView;
class StepChart;
class SubStepList;
class TeachFiles;
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
    std::optional<TextProblem> runOperations(const QString& text, std::chrono::seconds window);

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
    int subStep() const;
    void showSubStep(int index);  // -1: the whole operation; clamped otherwise
    void stepForward();           // animated; in Predict mode may stop at a question instead
    void stepBack();
    void setPlaying(bool playing);
    bool playing() const;

    // Predict mode and practice: the questions, the answers, the score (predict_controller.h).
    PredictController* predict() const { return m_predict; }

    void startPractice(std::uint64_t seed,
                       teach::PracticeLevel level = teach::PracticeLevel::OutOfOrder);

    // Lesson files (core/teach/lesson_file.h): what is shown now (lesson, W, operations, step,
    // the answers given, the practice seed), and back. Loading runs the operations, restores
    // the answers (those steps are not asked again; a practice's score is recomputed) and shows
    // the step. Reading and writing them is files()'s.
    teach::LessonFile lessonFile() const;
    void openLessonFile(const teach::LessonFile& file);

    // The view as it looks now, animations finished (in the palette it is drawn in).
    QImage renderImage();
    // PNG frames, the PDF handout and lesson files (teach_files.h).
    TeachFiles* files() const { return m_files; }

Q_SIGNALS:
    void stepChanged(int step);

protected:
    void changeEvent(QEvent* event) override;
    // Right/Left step, Space plays, Home/End jump, Down/Up walk the sub-steps: in the Watch
    // tab, when the focused child does not use the key itself.
    void keyPressEvent(QKeyEvent* event) override;

private:
    void restyle();
    std::optional<TextProblem> run(const QString& text, std::chrono::seconds window);
    void present(int step, bool animate);
    QString stepHeader(int step, const std::optional<teach::Operation>& op) const;
    void updateTransport();
    void refreshLayouts();
    void presentSubStep();

    std::unique_ptr<teach::Timeline> m_timeline;
    std::unique_ptr<teach::LimiterTimeline> m_limits;  // set while a rate-limit lesson is shown
    int m_step = 0;
    LessonPanel* m_lessons;
    RingView* m_ring;
    StepChart* m_chart;
    SequenceView* m_deque;
    SequenceView* m_vector;
    CodeView* m_code;
    QLabel* m_narration;
    PredictController* m_predict;       // its answer row made after the narration (tab order)
    QWidget* m_narrationBox = nullptr;  // the narration's board
    QScrollArea* m_narrationScroll;     // the narration's scroll area: taller in chart lessons
    int m_narrationMinimum = 0;         // its height for the lesson while no question is asked
    QStackedWidget* m_panes;            // the ring pane, or the limiters
    LimiterView* m_limiterView;
    BuildPanel* m_build;
    CodePanel* m_codePanel;
    QTabBar* m_modeTabs;  // Watch | Build | Code
    TransportBar* m_transport;
    TeachFiles* m_files;
    QTimer* m_player;
    SubStepList* m_subSteps;
    std::optional<std::uint64_t> m_practiceToStart;          // the seed while a practice starts
    const teachstyle::TeachPalette* m_styledWith = nullptr;  // what restyle() last used
};

}  // namespace hitcounter::ui
