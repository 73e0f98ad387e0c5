#include "app/cli/alert_command.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QString>
#include <cstring>
#include <thread>

#include "app/cli/cli_options.h"

extern char** environ;

namespace hitcounter::cli {

namespace {

constexpr std::string_view kPrefix = "HITCOUNTER_ALERT_";

// Our environment without HITCOUNTER_ALERT_* plus the alert's.
std::vector<std::string> environmentWith(const std::vector<std::string>& alert) {
    std::vector<std::string> out;
    for (char** e = environ; e && *e; ++e)
        if (std::strncmp(*e, kPrefix.data(), kPrefix.size()) != 0)
            out.emplace_back(*e);
    out.insert(out.end(), alert.begin(), alert.end());
    return out;
}

void named(const QString& message) {
    printError(QStringLiteral("--alert-command: %1").arg(message));
}

}  // namespace

AlertCommand::AlertCommand(std::string command, Mode mode)
    : m_command(std::move(command)), m_mode(mode) {}

AlertCommand::~AlertCommand() {
    reap(std::chrono::duration_cast<std::chrono::milliseconds>(kTimeout));
    if (!m_running.empty())
        named(QStringLiteral("%1 command(s) still running at the end; left to finish")
                  .arg(m_running.size()));
}

void AlertCommand::run(const AlertEvent& event, const std::string& ruleName,
                       const std::string& ruleText, const std::string& valueText) {
    reap(std::chrono::milliseconds(0));
    const std::string what =
        ruleName + (event.firing ? " firing" : " cleared") + " at " + std::to_string(event.second);
    if (m_running.size() >= kMaxRunning) {
        ++m_skipped;
        named(QStringLiteral("not run for %1: %2 commands are still running")
                  .arg(QString::fromStdString(what))
                  .arg(m_running.size()));
        return;
    }
    const std::vector<std::string> environment = environmentWith({
        std::string(kPrefix) + "RULE=" + ruleName,
        std::string(kPrefix) + "STATE=" + (event.firing ? "firing" : "cleared"),
        std::string(kPrefix) + "TIME=" + std::to_string(event.second),
        std::string(kPrefix) + "VALUE=" + valueText,
        std::string(kPrefix) + "TEXT=" + ruleText,
    });
    std::vector<char*> envp;
    for (const std::string& e : environment)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    std::string shell = "/bin/sh", dashC = "-c", command = m_command;
    char* argv[] = {shell.data(), dashC.data(), command.data(), nullptr};

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    // No signal blocked and every one we catch or ignore at its default (listen blocks the stop
    // signals and ignores SIGPIPE: a command must not inherit that), in a process group of
    // its own so that a kill reaches what the shell started too.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (const int signal : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2})
        sigaddset(&defaults, signal);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(
        &attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    pid_t pid = 0;
    const int error = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp.data());
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
        named(QStringLiteral("cannot start /bin/sh for %1: %2")
                  .arg(QString::fromStdString(what), QString::fromUtf8(std::strerror(error))));
        return;
    }
    ++m_started;
    m_running.push_back({pid, what});
    if (m_mode == Mode::Sequential)
        reap(std::chrono::duration_cast<std::chrono::milliseconds>(kTimeout));
    if (m_mode == Mode::Sequential && !m_running.empty()) {
        ::kill(-m_running.back().pid, SIGKILL);  // its process group: the shell and its children
        ::waitpid(m_running.back().pid, nullptr, 0);
        named(QStringLiteral("killed after %1 s for %2")
                  .arg(kTimeout.count())
                  .arg(QString::fromStdString(m_running.back().what)));
        m_running.pop_back();
    }
}

void AlertCommand::reap(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        for (auto it = m_running.begin(); it != m_running.end();) {
            int status = 0;
            const pid_t done = ::waitpid(it->pid, &status, WNOHANG);
            if (done == 0) {
                ++it;
                continue;
            }
            if (done == it->pid && WIFEXITED(status) && WEXITSTATUS(status) != 0)
                named(QStringLiteral("exited with code %1 for %2")
                          .arg(WEXITSTATUS(status))
                          .arg(QString::fromStdString(it->what)));
            else if (done == it->pid && WIFSIGNALED(status))
                named(QStringLiteral("ended by signal %1 for %2")
                          .arg(WTERMSIG(status))
                          .arg(QString::fromStdString(it->what)));
            it = m_running.erase(it);
        }
        if (m_running.empty() || std::chrono::steady_clock::now() >= deadline)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace hitcounter::cli
