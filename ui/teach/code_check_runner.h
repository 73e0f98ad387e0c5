// CodeCheckRunner: runs the lockstep check of the learner's code (teach::checkCounter) on a
// worker thread, so the window keeps drawing and answering while the learner's JavaScript runs
// (issue 24; a runaway call is stopped by the engine's own time bound).
//
// Threading: the runner lives on the GUI thread. start() makes a std::jthread that loads the
// source with the given loader (the engine is made and used on that thread only), checks it,
// measures the write-up's ring for comparison, and posts the Result back to the GUI thread as a
// value (queued to this object); finished() is emitted there. A newer start() or cancel()
// requests the running worker to stop (it polls between calls) and drops its result; the
// destructor waits for it (at most one call's time bound).
#pragma once

#include <QObject>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/teach/counter_under_test.h"
#include "core/teach/student_check.h"

namespace hitcounter::ui {

class CodeCheckRunner : public QObject {
    Q_OBJECT

public:
    struct Result {
        std::optional<TextProblem> error;  // the source did not load
        std::optional<teach::CheckReport> report;
        std::vector<teach::GrowthPoint> ringGrowth;  // the write-up's ring, for the curves
        std::chrono::milliseconds took{0};
    };

    explicit CodeCheckRunner(QObject* parent = nullptr);
    ~CodeCheckRunner() override;

    void start(teach::CounterLoader loader, std::string source, teach::CheckOptions options);
    void cancel();
    bool running() const { return m_running; }
    const std::optional<Result>& result() const { return m_result; }

Q_SIGNALS:
    void progressed(int done, int total);
    void finished();

private:
    void deliver(std::uint64_t generation, std::shared_ptr<Result> result);

    std::jthread m_worker;
    std::uint64_t m_generation = 0;  // GUI thread only: the run whose result counts
    bool m_running = false;
    std::optional<Result> m_result;
};

}  // namespace hitcounter::ui
