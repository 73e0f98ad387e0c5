// LessonPanel: the left column of the teaching view: lesson picker, goal, operations editor,
// window size and Predict switch.
//
// GUI thread only. It owns no timeline: it emits runRequested(text, window) when the learner
// picks a lesson, presses Run (or Ctrl+Return) or changes W, and the view answers with
// showError() or clearError(). An error underlines the offending token, tints its line and
// names the place below the editor; the text is never discarded. setCurrentLine() tints the
// line of the operation being shown, so the editor doubles as the list of steps.
// Typing or pasting the LeetCode input (text starting with '[') sets W = 300, the problem's
// window. The learner's own operations are kept when they pick a lesson: choosing "Your own
// operations" again brings them back.
#pragma once

#include <QWidget>
#include <chrono>
#include <optional>

#include "core/teach/operation_parser.h"
#include "core/teach/practice.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QScrollArea;
class QSpinBox;

namespace hitcounter::ui {

class LessonPanel : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // Shows lesson `index` of teach::lessons() (text, goal, W) and requests its run.
    void chooseLesson(int index);
    int lessonIndex() const;  // -1 once the learner edited and ran their own operations
    // The lesson last picked from the list, kept while the learner edits its operations (a
    // rate-limit lesson's edits still run through its limiters).
    int chosenLesson() const { return m_chosen; }
    QString lessonId() const;
    // The name exported files carry: lessonId(), plus "-w<W>" when the lesson runs at another W
    // than it was written for ("example-w5").
    QString exportName() const;
    QString goalText() const;

    QString operationsText() const;
    // Puts the learner's own operations in the editor (the picker shows "Your own operations").
    void setOperationsText(const QString& text);
    std::chrono::seconds window() const;
    // Does not request a run. When a lesson runs at another W than it was written for, the
    // goal says so (its numbers are for the lesson's W).
    void setWindow(std::chrono::seconds window);

    void showError(const TextProblem& error);
    void clearError();
    // Takes the teaching palette's colours again (the error's red, the current line's tint):
    // TeachView calls it when the application's palette changes.
    void restyle();
    QString errorText() const;
    void setCurrentLine(int line);  // 1-based, 0 for none

    QCheckBox* predictSwitch() const { return m_predict; }

    // The goal text shows at least this many lines (it scrolls beyond): 9, or 5 when the view
    // needs the height (the chart lessons at 1280x720).
    void setGoalLines(int lines);

Q_SIGNALS:
    void runRequested(const QString& text, std::chrono::seconds window);
    void practiceRequested(std::uint64_t seed, teach::PracticeLevel level);
    void openFileRequested();
    void saveFileRequested();  // "New practice" with the seed box's value

private:
    void requestRun();
    void showText(const QString& text);
    void showCustomGoal();
    void refreshSelections();
    void refreshGoal();
    void fitGoal();
    int m_goalLines = 9;

    QComboBox* m_lessons;
    QLabel* m_goal;
    QScrollArea* m_goalScroll = nullptr;
    QPlainTextEdit* m_editor;
    QLabel* m_error;
    QSpinBox* m_window;
    QCheckBox* m_predict;
    QSpinBox* m_seed;
    QComboBox* m_level;  // the practice's difficulty (teach::PracticeLevel, 1 to 3)
    int m_currentLine = 0;
    std::optional<TextProblem> m_shownError;
    bool m_edited = false;
    int m_chosen = 0;
    QString m_ownText;  // the learner's last own operations, restored by "Your own operations"
    bool m_wasLeetCode = false;
};

}  // namespace hitcounter::ui
