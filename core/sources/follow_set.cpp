#include "core/sources/follow_set.h"

#include <algorithm>

#include "core/base/saturating.h"
#include "core/sources/bad_lines.h"
#include "core/sources/source_stats_fields.h"

namespace hitcounter {

FollowSet::FollowSet(const std::vector<std::filesystem::path>& files,
                     const FollowOptions& options) {
    for (const auto& file : files) {
        m_paths += (m_paths.empty() ? "" : ", ") + file.string();
        FollowOptions each = options;
        each.file = file;
        m_followers.push_back(std::make_unique<FollowSource>(std::move(each)));
    }
}

FollowSet::~FollowSet() {
    stop();
}

void FollowSet::start(BatchQueue& out) {
    stop();
    for (std::size_t i = 0; i < m_followers.size(); ++i) {
        try {
            m_followers[i]->start(out);
        } catch (const SourceError&) {
            for (std::size_t j = 0; j < i; ++j) {
                m_followers[j]->stop();
            }
            throw;
        }
    }
    m_description = "follow " + m_paths;
}

void FollowSet::check() const {
    for (const auto& follower : m_followers) {
        follower->check();
    }
}

void FollowSet::stop() {
    for (const auto& follower : m_followers) {
        follower->stop();
    }
}

bool FollowSet::running() const {
    return std::any_of(m_followers.begin(), m_followers.end(),
                       [](const auto& follower) { return follower->running(); });
}

SourceStats FollowSet::stats() const {
    SourceStats sum;
    for (const auto& follower : m_followers) {
        sum += follower->stats();
    }
    return sum;
}

std::string FollowSet::describe() const {
    return m_description;
}

std::vector<BadLine> FollowSet::recentBadLines() const {
    std::vector<BadLine> all;
    for (const auto& follower : m_followers) {
        std::vector<BadLine> lines = follower->recentBadLines();
        all.insert(all.end(), std::make_move_iterator(lines.begin()),
                   std::make_move_iterator(lines.end()));
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const BadLine& a, const BadLine& b) { return a.time < b.time; });
    if (all.size() > BadLineLog::kMaxLines) {
        all.erase(all.begin(), all.end() - BadLineLog::kMaxLines);
    }
    return all;
}

FollowStats FollowSet::followStats() const {
    FollowStats sum;
    for (const auto& follower : m_followers) {
        const FollowStats s = follower->followStats();
        sum.rotations = saturatingAdd(sum.rotations, s.rotations);
        sum.truncations = saturatingAdd(sum.truncations, s.truncations);
        sum.lostPartialLines = saturatingAdd(sum.lostPartialLines, s.lostPartialLines);
        sum.refusedFiles = saturatingAdd(sum.refusedFiles, s.refusedFiles);
    }
    return sum;
}

std::optional<Timestamp> FollowSet::newestTime() const {
    std::optional<Timestamp> newest;
    for (const auto& follower : m_followers) {
        if (const auto t = follower->newestTime(); t && (!newest || *t > *newest)) {
            newest = t;
        }
    }
    return newest;
}

}  // namespace hitcounter
