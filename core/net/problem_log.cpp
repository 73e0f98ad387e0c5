#include "core/net/problem_log.h"

#include "core/base/saturating.h"

namespace hitcounter {

void ProblemLog::note(std::string_view kind, std::string message) {
    std::lock_guard lock(m_mutex);
    const auto find = [this](std::string_view name) {
        auto it = m_problems.begin();
        while (it != m_problems.end() && it->kind != name) {
            ++it;
        }
        return it;
    };
    auto it = find(kind);
    if (it == m_problems.end()) {
        // The last slot is kept for "other problems", so the list stays bounded.
        const std::string_view name =
            m_problems.size() + 1 < kMaxKinds ? kind : std::string_view("other problems");
        it = find(name);
        if (it == m_problems.end()) {
            it = m_problems.insert(m_problems.end(), ProblemCount{std::string(name), 0, {}});
        }
    }
    it->count = saturatingAdd(it->count, 1);
    it->last = message;
    m_last = std::move(message);
}

std::string ProblemLog::last() const {
    std::lock_guard lock(m_mutex);
    return m_last;
}

std::vector<ProblemCount> ProblemLog::problems() const {
    std::lock_guard lock(m_mutex);
    return m_problems;
}

}  // namespace hitcounter
