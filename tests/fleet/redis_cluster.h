// RedisCluster: a real Redis Cluster for tests: `masters` masters with one replica each, every
// node a RedisServer (redis_server.h) on a free loopback port with --cluster-enabled yes,
// joined by `redis-cli --cluster create ... --cluster-replicas 1 --cluster-yes`. Every process
// is killed (SIGKILL) and reaped when the object goes, also when a test fails half-way.
//
// Not thread-safe; owned by the test thread. start() is bounded: it returns false (with
// error()) if a server does not answer, redis-cli does not finish, or the cluster does not
// reach cluster_state:ok on every node (and a settled map: every slot served, exactly
// `masters` masters) in time. cluster-node-timeout defaults to 3000 ms for tests, so that a
// node slowed by a busy machine is not taken for dead: at 1000 ms a CI run on a loaded machine
// saw 2 masters right after start and a failover that did not settle in 15 s. The failover
// benchmark passes 1000 ms, the figure docs/benchmarks.md quotes.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/fleet/redis_client.h"
#include "tests/fleet/redis_server.h"

class RedisCluster {
public:
    explicit RedisCluster(int masters = 3, int nodeTimeoutMs = 3000)
        : m_masters(masters), m_nodeTimeoutMs(nodeTimeoutMs) {
        for (int i = 0; i < 2 * masters; ++i) {
            m_busPorts.emplace_back();
            m_nodes.emplace_back();
            makeNode(std::size_t(i));
        }
    }
    ~RedisCluster() {
        for (auto& node : m_nodes)
            node->kill();
    }
    RedisCluster(const RedisCluster&) = delete;
    RedisCluster& operator=(const RedisCluster&) = delete;

    bool start(int timeoutMs = 30000) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (std::size_t i = 0; i < m_nodes.size(); ++i) {
            // A free port is free when asked, not when the server binds it: another process
            // (a client's ephemeral port) may take it in between. Then fresh ports, twice.
            for (int attempt = 0; !m_nodes[i]->start(5000); ++attempt) {
                if (attempt == 2)
                    return fail("redis-server on port " + std::to_string(m_nodes[i]->port()) +
                                " did not start: " + m_nodes[i]->output());
                makeNode(i);
            }
        }
        std::vector<std::string> args{"redis-cli", "--cluster", "create"};
        for (auto& node : m_nodes)
            args.push_back("127.0.0.1:" + std::to_string(node->port()));
        for (const char* a : {"--cluster-replicas", "1", "--cluster-yes"})
            args.push_back(a);
        if (m_masters < 3) {
            // redis-cli refuses fewer than 3 masters: join by hand.
            if (!startSmall(deadline))
                return false;
        } else if (!run(args, deadline) || !waitOk(deadline)) {
            return false;
        }
        // Replicas linked (initial sync done), so WAIT 1 is answered at once from the start.
        while (std::chrono::steady_clock::now() < deadline) {
            int linked = 0;
            for (int i = 0; i < size(); ++i) {
                try {
                    const std::string info = on(i, {"INFO", "replication"}).text;
                    if (info.find("role:slave") != std::string::npos &&
                        info.find("master_link_status:up") != std::string::npos)
                        ++linked;
                } catch (const hitcounter::fleet::RedisError&) {
                }
            }
            if (linked == m_masters)
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return fail("the replicas did not finish their first sync in time");
    }

    int size() const { return int(m_nodes.size()); }
    RedisServer& node(int i) { return *m_nodes[std::size_t(i)]; }
    std::string url(int i = 0) const { return m_nodes[std::size_t(i)]->url(); }
    const std::string& error() const { return m_error; }

    // The node (index) that is master of `slot` right now, asked of any live node; -1 if none.
    int masterOf(int slot) {
        for (const Row& row : nodesTable())
            if (row.master && slot >= 0 && row.slots.size() > std::size_t(slot) &&
                row.slots[std::size_t(slot)])
                return indexOf(row.port);
        return -1;
    }
    // The replica (index) of the master `master`, -1 if none.
    int replicaOf(int master) {
        const auto rows = nodesTable();
        std::string masterId;
        for (const Row& row : rows)
            if (indexOf(row.port) == master)
                masterId = row.id;
        for (const Row& row : rows)
            if (!row.master && row.masterId == masterId && !masterId.empty())
                return indexOf(row.port);
        return -1;
    }
    std::string nodeId(int i) {
        for (const Row& row : nodesTable())
            if (indexOf(row.port) == i)
                return row.id;
        return {};
    }
    // A command on node i directly (no routing).
    hitcounter::fleet::RedisReply on(int i, const hitcounter::fleet::RedisConnection::Command& c) {
        using namespace hitcounter::fleet;
        RedisConnection connection(parseRedisUrl(url(i)), {std::chrono::milliseconds(500),
                                                           std::chrono::milliseconds(5000)});
        return connection.command(c);
    }
    // Waits (bounded) until every live node says cluster_state:ok, sees every slot served by a
    // master that is not failed, and sees exactly `masters` such masters (a failover is over).
    // On time-out, error() says which node saw what.
    bool waitOk(std::chrono::steady_clock::time_point deadline) {
        while (std::chrono::steady_clock::now() < deadline) {
            if (allOk())
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return fail("the cluster did not reach cluster_state:ok in time: " + m_notOk);
    }
    bool waitOk(int timeoutMs) {
        return waitOk(std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs));
    }
    void kill(int i) {
        m_nodes[std::size_t(i)]->kill();
        m_dead.push_back(i);
    }

private:
    struct Row {
        std::string id;
        int port = 0;
        bool master = false;
        bool failed = false;
        std::string masterId;
        std::vector<bool> slots;
    };

    bool alive(int i) const {
        for (int d : m_dead)
            if (d == i)
                return false;
        return true;
    }
    // Node i on fresh free ports: its own bus port (the default, port + 10000, may be taken
    // or > 65535).
    void makeNode(std::size_t i) {
        m_busPorts[i] = RedisServer::freePort();
        m_nodes[i] = std::make_unique<RedisServer>(std::vector<std::string>{
            "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", std::to_string(m_nodeTimeoutMs),
            "--cluster-require-full-coverage", "yes", "--cluster-port",
            std::to_string(m_busPorts[i])});
    }

    int indexOf(int port) const {
        for (std::size_t i = 0; i < m_nodes.size(); ++i)
            if (m_nodes[i]->port() == port)
                return int(i);
        return -1;
    }
    std::vector<Row> nodesTable() {
        for (int i = 0; i < size(); ++i) {
            if (!alive(i))
                continue;
            try {
                return parseNodes(on(i, {"CLUSTER", "NODES"}).text);
            } catch (const hitcounter::fleet::RedisError&) {
            }
        }
        return {};
    }
    static std::vector<Row> parseNodes(const std::string& text) {
        std::vector<Row> rows;
        std::istringstream lines(text);
        std::string line;
        while (std::getline(lines, line)) {
            std::istringstream words(line);
            std::vector<std::string> w;
            for (std::string word; words >> word;)
                w.push_back(word);
            if (w.size() < 8)
                continue;
            Row row;
            row.id = w[0];
            const auto colon = w[1].find(':');
            const auto at = w[1].find('@');
            row.port = std::stoi(w[1].substr(colon + 1, at - colon - 1));
            row.master = w[2].find("master") != std::string::npos;
            row.failed = w[2].find("fail") != std::string::npos;
            row.masterId = w[3];
            row.slots.assign(hitcounter::fleet::kClusterSlots, false);
            for (std::size_t k = 8; k < w.size(); ++k) {
                if (w[k].front() == '[')
                    continue;  // a slot being migrated or imported
                const auto dash = w[k].find('-');
                const int first = std::stoi(w[k].substr(0, dash));
                const int last =
                    dash == std::string::npos ? first : std::stoi(w[k].substr(dash + 1));
                for (int s = first; s <= last; ++s)
                    row.slots[std::size_t(s)] = true;
            }
            rows.push_back(std::move(row));
        }
        return rows;
    }
    bool allOk() {
        for (int i = 0; i < size(); ++i) {
            if (!alive(i))
                continue;
            const std::string which = "node " + std::to_string(i) + " (port " +
                                      std::to_string(m_nodes[std::size_t(i)]->port()) + ") ";
            try {
                if (on(i, {"CLUSTER", "INFO"}).text.find("cluster_state:ok") == std::string::npos)
                    return notOk(which + "is not in cluster_state:ok");
                // Every slot served by a master that is not failed, as this node sees it.
                const std::string nodes = on(i, {"CLUSTER", "NODES"}).text;
                std::vector<bool> covered(hitcounter::fleet::kClusterSlots, false);
                int serving = 0;
                for (const Row& row : parseNodes(nodes)) {
                    if (!row.master || row.failed)
                        continue;
                    bool any = false;
                    for (std::size_t s = 0; s < covered.size(); ++s)
                        if (row.slots[s])
                            covered[s] = any = true;
                    serving += any ? 1 : 0;
                }
                for (bool c : covered)
                    if (!c)
                        return notOk(which + "sees slots no live master serves:\n" + nodes);
                if (serving != m_masters)
                    return notOk(which + "sees " + std::to_string(serving) +
                                 " masters serving slots, not " + std::to_string(m_masters) +
                                 ":\n" + nodes);
            } catch (const hitcounter::fleet::RedisError& e) {
                return notOk(which + "does not answer: " + e.what());
            }
        }
        return true;
    }
    bool notOk(std::string why) {
        m_notOk = std::move(why);
        return false;
    }
    bool startSmall(std::chrono::steady_clock::time_point deadline) {
        const int n = m_masters;
        for (int i = 1; i < n; ++i)
            on(i, {"CLUSTER", "MEET", "127.0.0.1", std::to_string(m_nodes[0]->port()),
                   std::to_string(m_busPorts[0])});
        for (int i = 0; i < n; ++i) {
            hitcounter::fleet::RedisConnection::Command add{"CLUSTER", "ADDSLOTSRANGE"};
            add.push_back(std::to_string(i * hitcounter::fleet::kClusterSlots / n));
            add.push_back(std::to_string((i + 1) * hitcounter::fleet::kClusterSlots / n - 1));
            on(i, add);
        }
        // Node n + i replicates master i, once it has heard of it through the gossip.
        for (int i = 0; i < n; ++i) {
            const std::string masterId = on(i, {"CLUSTER", "MYID"}).text;
            on(n + i, {"CLUSTER", "MEET", "127.0.0.1", std::to_string(m_nodes[0]->port()),
                       std::to_string(m_busPorts[0])});
            while (true) {
                try {
                    on(n + i, {"CLUSTER", "REPLICATE", masterId});
                    break;
                } catch (const hitcounter::fleet::RedisError&) {
                    if (std::chrono::steady_clock::now() > deadline)
                        return fail("a replica never learned of its master");
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                }
            }
        }
        return waitOk(deadline);
    }
    bool run(std::vector<std::string> args, std::chrono::steady_clock::time_point deadline) {
        std::vector<char*> argv;
        for (std::string& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        pid_t pid = -1;
        const int failed =
            ::posix_spawnp(&pid, args.front().c_str(), &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (failed)
            return fail("cannot start redis-cli");
        while (true) {
            int status = 0;
            if (::waitpid(pid, &status, WNOHANG) == pid)
                return WIFEXITED(status) && WEXITSTATUS(status) == 0
                           ? true
                           : fail("redis-cli --cluster create failed");
            if (std::chrono::steady_clock::now() > deadline) {
                ::kill(pid, SIGKILL);
                ::waitpid(pid, nullptr, 0);
                return fail("redis-cli --cluster create did not finish in time");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    bool fail(const std::string& why) {
        m_error = why;
        return false;
    }

    int m_masters;
    int m_nodeTimeoutMs;
    std::vector<std::unique_ptr<RedisServer>> m_nodes;
    std::vector<std::uint16_t> m_busPorts;
    std::vector<int> m_dead;
    std::string m_error;
    std::string m_notOk;  // why allOk() last said no
};
