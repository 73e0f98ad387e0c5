// PredictController: the teaching view's Predict mode and practice: which steps ask, the
// question asked, the answer row under the narration (the count box, or a rate-limit question's
// box per limiter; the score; "Check my answer" and "Just show me"), the verdict on each answer,
// a practice's score and mistakes, and the answers given per lesson.
//
// GUI thread only. Owned by its TeachView, which tells it of every new timeline
// (startTimeline) and draws what it says: questionHtml() and verdictHtml() open the narration.
// It asks the view to draw again with two signals: questionChanged() when a question appears or
// goes away (the view sets the narration's height, emitted before the answer row is shown and
// after it is hidden, and redraws the current step), and
// answered(step) when an answer (or "Just show me") has its verdict (the view shows that step,
// animated).
//
// Ring lessons ask "what will getHits(t) return?" (in a practice also the count of every
// written slot a hit lands on: does it reset?) and name the mistake behind a wrong answer
// (teach::diagnose); rate-limit lessons ask before each request which limiters accept it
// (teach::limiterQuestions) and name the mistake per limiter. A step answered or revealed is
// not asked again until the mode is switched or another timeline starts; a practice never asks
// twice and keeps Predict mode on until it ends.
#pragma once

#include <QObject>
#include <QSet>
#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/base/types.h"
#include "core/teach/limiter_questions.h"
#include "core/teach/limiter_timeline.h"
#include "core/teach/practice.h"
#include "core/teach/timeline.h"

class QCheckBox;
class QLabel;
class QSpinBox;
class QWidget;

namespace hitcounter::ui {

class LessonPanel;

class PredictController : public QObject {
    Q_OBJECT

public:
    // `lessons` gives the Predict switch and the lesson's name; the answer row is made a child
    // of `rowParent`, hidden.
    PredictController(LessonPanel& lessons, QWidget* rowParent);

    QWidget* row() const { return m_row; }
    void restyle();  // the score's colour, from the teaching palette

    // A new timeline is shown: exactly one of `ring` and `limits` is set, and lives until the
    // next call. Its questions, no answers, no verdict; `practiceSeed` starts a practice (ring
    // lessons only).
    void startTimeline(const teach::Timeline* ring, const teach::LimiterTimeline* limits,
                       std::optional<std::uint64_t> practiceSeed);
    // Answers read from a lesson file: those steps are not asked again, a practice's score is
    // recomputed. Steps without a question are ignored.
    void restoreAnswers(const std::map<std::size_t, Count>& answers);

    void setMode(bool on);  // a practice stays on
    bool mode() const { return m_on; }
    bool practicing() const { return m_practicing; }
    std::uint64_t practiceSeed() const { return m_practiceSeed; }

    bool asksAt(int step) const;
    // In a practice, the first question at or before `step` not answered yet.
    std::optional<int> firstUnansweredUpTo(int step) const;
    void ask(int step);
    void cancel();  // the question asked goes away unanswered
    bool awaiting() const { return m_pendingStep.has_value(); }
    QString question() const;  // empty unless awaiting()
    void focusAnswer();

    void submit(Count guess);
    // A rate-limit lesson's answer: one entry per limiter, true for "accepts".
    void submitLimiters(const std::vector<bool>& accepts);
    void reveal();

    QString questionHtml() const;         // the question asked, or empty
    QString verdictHtml(int step) const;  // the verdict given at `step`, or empty

    // The learner's answers on the shown timeline, step -> count.
    const std::map<std::size_t, Count>& answers() const { return m_answers; }
    const teach::Score& score() const { return m_score; }
    // The answers given so far, per lesson (its export name: "boundary-w9").
    const std::map<std::string, teach::Score>& progress() const { return m_progress; }

Q_SIGNALS:
    void questionChanged();
    void answered(int step);

private:
    const teach::Question* questionAt(int step) const;
    const teach::LimiterQuestion* limiterQuestionAt(int step) const;
    QString ringQuestion(int step) const;
    void finish(std::optional<Count> guess);
    void finishLimiters(const std::optional<std::vector<bool>>& accepts);
    void recordProgress(bool right);
    QString practiceSummary() const;
    void showScore(const QString& format);
    void setRowShown(bool shown);

    LessonPanel& m_lessons;
    QWidget* m_row;
    QSpinBox* m_guess;
    QWidget* m_laneChoices;  // a rate-limit question's limiter boxes
    std::vector<QCheckBox*> m_laneBoxes;
    QLabel* m_scoreLabel;

    const teach::Timeline* m_ring = nullptr;
    const teach::LimiterTimeline* m_limits = nullptr;
    std::vector<teach::Question> m_questions;  // the ring timeline's questions
    std::vector<teach::LimiterQuestion> m_limiterQuestions;

    bool m_on = false;
    std::optional<int> m_pendingStep;  // the step the learner is asked about
    QString m_questionText;
    QSet<int> m_revealed;    // steps answered or revealed since the mode or timeline changed
    int m_verdictStep = -1;  // the step m_verdict belongs to
    QString m_verdict;       // "You said 4, but ..." shown with that step

    bool m_practicing = false;
    std::uint64_t m_practiceSeed = 0;
    std::map<std::size_t, Count> m_answers;
    teach::Score m_score;
    std::map<std::string, int> m_mistakes;  // a practice's mistakes, by name
    std::map<std::string, teach::Score> m_progress;
};

}  // namespace hitcounter::ui
