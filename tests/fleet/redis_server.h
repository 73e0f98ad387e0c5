// RedisServer: a real redis-server for tests, started on a free loopback port in a temporary
// folder and stopped (SIGKILL) when the object goes. Reusable by every Redis test (the cluster
// tests can start several).
//
// Not thread-safe; owned by the test thread. start() waits, bounded, until the server answers.
// kill() ends it abruptly (SIGKILL); start() again restarts it on the same port and folder
// (with persistence options, it reloads its data). The server is started with posix_spawn, not
// fork(): ThreadSanitizer forbids new threads in a process that forked while multi-threaded.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/fleet/redis_connection.h"

extern char** environ;

class RedisServer {
public:
    explicit RedisServer(std::vector<std::string> extraArguments = {})
        : m_extra(std::move(extraArguments)), m_port(freePort()) {
        std::string pattern = (std::filesystem::temp_directory_path() / "hc-redis-XXXXXX").string();
        if (::mkdtemp(pattern.data()))
            m_dir = pattern;
    }
    ~RedisServer() {
        kill();
        if (!m_dir.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(m_dir, ignored);
        }
    }
    RedisServer(const RedisServer&) = delete;
    RedisServer& operator=(const RedisServer&) = delete;

    // Starts (or restarts) the server; false if it did not answer within `timeoutMs`.
    bool start(int timeoutMs = 10000) {
        if (m_dir.empty() || m_port == 0 || m_pid > 0)
            return false;
        std::vector<std::string> args{"redis-server",
                                      "--port",
                                      std::to_string(m_port),
                                      "--bind",
                                      "127.0.0.1",
                                      "--save",
                                      "",
                                      "--appendonly",
                                      "no",
                                      "--dir",
                                      m_dir,
                                      "--protected-mode",
                                      "no"};
        args.insert(args.end(), m_extra.begin(), m_extra.end());
        std::vector<char*> argv;
        for (std::string& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        const std::string log = m_dir + "/redis.log";
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                         0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        const int failed =
            ::posix_spawnp(&m_pid, "redis-server", &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (failed) {
            m_pid = -1;
            return false;
        }
        for (int waited = 0; waited < timeoutMs; waited += 50) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = -1;
                return false;
            }
            if (answers())
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return false;
    }

    void kill() {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
            m_pid = -1;
        }
    }

    // Freezes the server (SIGSTOP): connects still complete, nothing is answered, until resume().
    void suspend() { signal(SIGSTOP); }
    void resume() { signal(SIGCONT); }

    std::uint16_t port() const { return m_port; }
    std::string url(const std::string& password = {}) const {
        return "redis://" + (password.empty() ? std::string() : ":" + password + "@") +
               "127.0.0.1:" + std::to_string(m_port);
    }
    // What the server wrote (for failure messages).
    std::string output() const {
        std::ifstream in(m_dir + "/redis.log");
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    // A free TCP port on 127.0.0.1 (bound to port 0, then released).
    static std::uint16_t freePort() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        std::uint16_t port = 0;
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            port = ntohs(address.sin_port);
        if (fd >= 0)
            ::close(fd);
        return port;
    }

private:
    void signal(int number) {
        if (m_pid > 0)
            ::kill(m_pid, number);
    }

    bool answers() const {
        using namespace hitcounter::fleet;
        try {
            RedisConnection c(RedisUrl{"127.0.0.1", m_port, 0, {}, {}},
                              {std::chrono::milliseconds(200), std::chrono::milliseconds(500)});
            return true;
        } catch (const RedisError& e) {
            // A password-protected server answers too (it refuses the missing password).
            return e.kind() == RedisError::Kind::Rejected;
        }
    }

    std::vector<std::string> m_extra;
    std::uint16_t m_port;
    std::string m_dir;
    pid_t m_pid = -1;
};
