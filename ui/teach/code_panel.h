// CodePanel: the teaching view's "Write your code" tab (issue 24, constructing): the learner
// writes a hit counter in JavaScript, in LeetCode's shape, and checks it against the reference
// counter (RingCounter) in lockstep.
//
// GUI thread only. The left column is an editor with line numbers, started from one of the
// write-ups' templates (teach::codeTemplates: deque, ring, vector), with "Check my counter"
// (Ctrl+Return) and the seed of the random operations. The check (teach::checkCounter) runs on
// a worker thread (CodeCheckRunner), so the window keeps working while the code runs; the
// engine stops a runaway call after its time bound, and that counts as a difference.
//
// The right column shows the verdict (the same answers, or the first difference with the
// sequence it was found in), the mistake's name and why when a documented one fits, the
// smallest failing sequence step by step: each step's answers side by side, the reference ring
// after that step (a RingView of the sequence's teach::Timeline) and the learner's own fields
// after that call (VariablesView, read back from the engine). Under them two curves over the
// growth probes, the learner's against the write-up's ring: the operations of a getHits that
// removes nothing, and the bytes still held after every hit left the window.
//
// The panel runs code only through a teach::CounterLoader: setDefaultLoader() is called once by
// the app (app/gui/main.cpp gives it the QJSEngine loader of app/teach_js); without one the tab
// says that this build runs no JavaScript.
#pragma once

#include <QWidget>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "core/teach/counter_under_test.h"
#include "core/teach/operation_parser.h"
#include "core/teach/student_check.h"
#include "core/teach/timeline.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace hitcounter::ui {

class CodeCheckRunner;
class CodeEditor;
class RingView;
class StepChart;
class VariablesView;

class CodePanel : public QWidget {
    Q_OBJECT

public:
    explicit CodePanel(QWidget* parent = nullptr);
    ~CodePanel() override;

    static void setDefaultLoader(teach::CounterLoader loader);
    void setLoader(teach::CounterLoader loader);

    // The lesson's operations (run first when chronological) and W for every check.
    void setLesson(std::vector<teach::Operation> operations, std::chrono::seconds window);
    std::chrono::seconds window() const { return m_window; }

    QString source() const;
    void setSource(const QString& source);
    void loadTemplate(const QString& id);
    // True once the learner typed, picked a template or checked (a lesson file then keeps it).
    bool touched() const { return m_touched; }

    void runCheck();
    bool running() const;
    // Processes events until the check ends; false on timeout (tests, --screenshot).
    bool waitForCheck(std::chrono::milliseconds timeout);
    const std::optional<teach::CheckReport>& report() const { return m_report; }

    QString verdict() const;      // the verdict line as shown
    QString explanation() const;  // the mistake, the error, the numbers
    int minimalStepCount() const;
    void showMinimalStep(int index);
    int minimalStep() const { return m_shownStep; }
    CodeEditor* editor() const { return m_editor; }
    VariablesView* variablesView() const { return m_variables; }
    RingView* ringView() const { return m_ring; }
    StepChart* operationsChart() const { return m_operationsChart; }
    StepChart* bytesChart() const { return m_bytesChart; }
    // Takes the teaching palette's colours again (TeachView calls it on a palette change).
    void restyle();

    bool hasHeightForWidth() const override { return false; }

Q_SIGNALS:
    void checkFinished();
    void sourceEdited();

private:
    void showResult();
    void showStale(const QString& why);
    void fillCharts();
    void setVerdict(const QString& text, const QColor& color);

    teach::CounterLoader m_loader;
    CodeCheckRunner* m_runner;
    QComboBox* m_templates;
    CodeEditor* m_editor;
    QPushButton* m_check;
    QSpinBox* m_seed;
    QLabel* m_status;
    QLabel* m_verdict;
    QLabel* m_explanation;
    QListWidget* m_steps;
    RingView* m_ring;
    VariablesView* m_variables;
    StepChart* m_operationsChart;
    StepChart* m_bytesChart;
    std::vector<teach::Operation> m_lesson;
    std::chrono::seconds m_window{10};
    std::optional<teach::CheckReport> m_report;
    std::vector<teach::GrowthPoint> m_ringGrowth;
    std::unique_ptr<teach::Timeline> m_minimalTimeline;  // the reference ring along the minimal run
    int m_shownStep = -1;
    bool m_touched = false;
    bool m_loadingText = false;
};

}  // namespace hitcounter::ui
