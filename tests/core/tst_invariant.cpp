// HITCOUNTER_DCHECK (core/base/invariant.h): a false condition reaches the handler in Debug
// builds (the default one aborts), costs nothing in release builds, and the library's own
// checks are on exactly in Debug builds (the asan and tsan presets) and raise no false alarm.
#include <QTest>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <string>

#include "core/base/invariant.h"
#include "core/counters/ring_counter.h"
#include "tests/core/invariant_modes.h"
#include "tests/test_main.h"

namespace hitcounter {
// Breaks a ring's running total on purpose (a friend of RingCounter).
struct InvariantProbe {
    static void corruptTotal(RingCounter& ring) { ring.m_total += 1; }
};
}  // namespace hitcounter

using namespace hitcounter;

namespace {

struct Failure {
    int calls = 0;
    std::string condition;
    std::string file;
    int line = 0;
    std::string message;
};
Failure g_failure;

void recordFailure(const char* condition, const char* file, int line, const char* message) {
    ++g_failure.calls;
    g_failure = {g_failure.calls, condition, file, line, message};
}

// Swaps the recording handler in for one test.
class RecordingHandler {
public:
    RecordingHandler() : m_previous(setInvariantHandler(&recordFailure)) { g_failure = {}; }
    ~RecordingHandler() { setInvariantHandler(m_previous); }

private:
    InvariantHandler m_previous;
};

}  // namespace

class TestInvariant : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aFalseCheckCallsTheHandlerWithWhereAndWhat() {
        RecordingHandler recording;
        int evaluations = 0;
        invariant_modes::checkedWhenDebug(true, evaluations);
        QCOMPARE(g_failure.calls, 0);
        const int line = invariant_modes::checkedWhenDebug(false, evaluations);
        QCOMPARE(evaluations, 2);
        QCOMPARE(g_failure.calls, 1);
        QVERIFY2(g_failure.file.ends_with("invariant_modes.cpp"), g_failure.file.c_str());
        QCOMPARE(g_failure.line, line);
        QVERIFY2(g_failure.condition.find("condition") != std::string::npos,
                 g_failure.condition.c_str());
        QCOMPARE(g_failure.message, std::string("a debug-build check"));
    }

    void releaseBuildsNeverEvaluateTheCondition() {
        RecordingHandler recording;
        int evaluations = 0;
        invariant_modes::checkedWhenRelease(false, evaluations);
        QCOMPARE(evaluations, 0);
        QCOMPARE(g_failure.calls, 0);
    }

    void theDefaultHandlerPrintsAndAborts() {
        int pipeFds[2];
        QCOMPARE(pipe(pipeFds), 0);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // The child: only async-signal-tolerant work between fork and the abort.
            dup2(pipeFds[1], STDERR_FILENO);
            setInvariantHandler(nullptr);
            int evaluations = 0;
            invariant_modes::checkedWhenDebug(false, evaluations);
            _exit(0);  // not reached when the check aborts
        }
        close(pipeFds[1]);
        std::string err;
        char buffer[512];
        for (ssize_t n; (n = read(pipeFds[0], buffer, sizeof buffer)) > 0;) {
            err.append(buffer, static_cast<std::size_t>(n));
        }
        close(pipeFds[0]);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, err.c_str());
        QVERIFY2(err.find("hitcounter: invariant failed at ") != std::string::npos, err.c_str());
        QVERIFY2(err.find("(a debug-build check)") != std::string::npos, err.c_str());
    }

    void theLibrarysChecksFireInDebugBuilds() {
#ifdef NDEBUG
        QSKIP(
            "HITCOUNTER_DCHECK is compiled out in this build (NDEBUG): the library's checks "
            "run in Debug builds, e.g. the asan and tsan presets");
#else
        RecordingHandler recording;
        checkedInLibrary(true);
        QCOMPARE(g_failure.calls, 0);
        checkedInLibrary(false);
        QCOMPARE(g_failure.calls, 1);
        QVERIFY2(g_failure.file.ends_with("invariant.cpp"), g_failure.file.c_str());
        QCOMPARE(g_failure.message, std::string("a library check"));
#endif
    }

    void theRingsTotalCheckFiresWhenTheTotalDrifts() {
#ifdef NDEBUG
        QSKIP(
            "HITCOUNTER_DCHECK is compiled out in this build (NDEBUG): the ring's checks run "
            "in Debug builds, e.g. the asan and tsan presets");
#else
        RecordingHandler recording;
        RingCounter ring(std::chrono::seconds{10});
        for (Timestamp t = 1; t <= 30; ++t) {
            ring.hit(t, static_cast<Count>(t));
        }
        QVERIFY(ring.count(29) > 0);
        QCOMPARE(g_failure.calls, 0);  // a sound ring passes its checks
        InvariantProbe::corruptTotal(ring);
        ring.count(29);  // a query into the past sums the live cells and compares
        QCOMPARE(g_failure.calls, 1);
        QVERIFY2(g_failure.file.ends_with("ring_counter.cpp"), g_failure.file.c_str());
        QCOMPARE(g_failure.message,
                 std::string("the running total equals the sum of the live cells"));
        ring.hit(33);  // a jump of three seconds checks the total too
        QCOMPARE(g_failure.calls, 2);
#endif
    }

    // The checks placed in the ring (running total against its live cells, at every jump and
    // every query into the past) hold on a sound ring: no false alarm over a mixed workload.
    void theRingsChecksHoldOnASoundRing() {
        RecordingHandler recording;
        RingCounter ring(std::chrono::seconds{64});
        std::uint64_t state = 12345;
        Timestamp head = 1;
        Count hits = 0;
        for (int i = 0; i < 20000; ++i) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            const auto r = static_cast<std::int64_t>(state >> 33);
            head += r % 7 == 0 ? r % 90 : r % 2;  // steps, jumps, and jumps past the window
            const Timestamp t = head - r % 70;    // some late, some too late
            ring.hit(t, 1 + static_cast<Count>(r % 3));
            hits += ring.count(head - r % 5) > 0 ? 1 : 0;  // queries into the past
        }
        QVERIFY(hits > 0);
        QCOMPARE(g_failure.calls, 0);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestInvariant)
#include "tst_invariant.moc"
