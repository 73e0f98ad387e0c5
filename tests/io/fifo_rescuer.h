// FifoRescuer: for tests of code that must not block on a FIFO without a writer. If the call
// under test has not returned (done()) within a deadline, it opens and closes the FIFO's write
// end every 50 ms from then on, so that an open() blocked on it returns (and reads an end of
// file) and the test fails instead of hanging.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

namespace hitcounter::testing {

class FifoRescuer {
public:
    explicit FifoRescuer(const std::filesystem::path& fifo,
                         std::chrono::seconds after = std::chrono::seconds(20))
        : m_thread([this, fifo, after](std::stop_token stop) {
              const auto deadline = std::chrono::steady_clock::now() + after;
              // A watchdog's wake-ups, not the condition tested.
              while (!stop.stop_requested() && std::chrono::steady_clock::now() < deadline)
                  std::this_thread::sleep_for(std::chrono::milliseconds(50));
              // Then again and again: the code under test may open it more than once.
              while (!stop.stop_requested()) {
                  m_rescued = true;
                  // Non-blocking: succeeds while a reader waits in open(), fails if none does.
                  const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
                  if (fd >= 0)
                      ::close(fd);
                  std::this_thread::sleep_for(std::chrono::milliseconds(50));
              }
          }) {}
    // true: the call under test returned before the rescue.
    bool done() {
        m_thread.request_stop();
        m_thread.join();
        return !m_rescued;
    }

private:
    std::atomic<bool> m_rescued{false};
    std::jthread m_thread;
};

}  // namespace hitcounter::testing
