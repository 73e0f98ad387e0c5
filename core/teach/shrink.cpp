#include "core/teach/shrink.h"

#include <algorithm>

namespace hitcounter::teach {

namespace {

// Counts the calls of fails() against the budget; once it is spent every candidate "passes",
// so the shrinking keeps what it has.
class Budget {
public:
    Budget(const FailurePredicate& fails, std::size_t tries) : m_fails(fails), m_left(tries) {}
    bool fails(const std::vector<Operation>& ops) {
        if (m_left == 0 || ops.empty()) {
            return false;
        }
        --m_left;
        return m_fails(ops);
    }

private:
    const FailurePredicate& m_fails;
    std::size_t m_left;
};

std::vector<Operation> without(const std::vector<Operation>& ops, std::size_t from,
                               std::size_t to) {
    std::vector<Operation> out(ops.begin(), ops.begin() + std::ptrdiff_t(from));
    out.insert(out.end(), ops.begin() + std::ptrdiff_t(to), ops.end());
    return out;
}

// Zeller's ddmin: try each chunk alone, then each complement, at finer and finer granularity.
std::vector<Operation> ddmin(std::vector<Operation> ops, Budget& budget) {
    std::size_t n = 2;
    while (ops.size() >= 2) {
        const std::size_t chunk = (ops.size() + n - 1) / n;
        bool reduced = false;
        for (std::size_t from = 0; from < ops.size() && !reduced; from += chunk) {
            const std::size_t to = std::min(ops.size(), from + chunk);
            std::vector<Operation> subset(ops.begin() + std::ptrdiff_t(from),
                                          ops.begin() + std::ptrdiff_t(to));
            if (subset.size() < ops.size() && budget.fails(subset)) {
                ops = std::move(subset);
                n = 2;
                reduced = true;
            }
        }
        for (std::size_t from = 0; from < ops.size() && !reduced; from += chunk) {
            std::vector<Operation> complement =
                without(ops, from, std::min(ops.size(), from + chunk));
            if (budget.fails(complement)) {
                ops = std::move(complement);
                n = std::max<std::size_t>(n - 1, 2);
                reduced = true;
            }
        }
        if (!reduced) {
            if (n >= ops.size()) {
                break;
            }
            n = std::min(ops.size(), n * 2);
        }
    }
    return ops;
}

void fewerRepeats(std::vector<Operation>& ops, Budget& budget) {
    for (Operation& op : ops) {
        while (op.repeat > 1) {
            const Count before = op.repeat;
            for (const Count fewer : {Count{1}, before / 2}) {
                if (fewer < 1 || fewer >= before) {
                    continue;
                }
                op.repeat = fewer;
                if (budget.fails(ops)) {
                    break;
                }
                op.repeat = before;
            }
            if (op.repeat == before) {
                break;
            }
        }
    }
}

std::vector<Operation> shifted(std::vector<Operation> ops, Timestamp by) {
    for (Operation& op : ops) {
        op.second -= by;
    }
    return ops;
}

// Every second down together: whole windows keep each second's slot, then to second 1.
void earlierSeconds(std::vector<Operation>& ops, Budget& budget, Timestamp w) {
    if (ops.empty()) {
        return;
    }
    Timestamp first = ops.front().second;
    for (const Operation& op : ops) {
        first = std::min(first, op.second);
    }
    const Timestamp windows = (first - 1) / w;
    if (windows > 0) {
        if (auto moved = shifted(ops, windows * w); budget.fails(moved)) {
            ops = std::move(moved);
            first -= windows * w;
        }
    }
    if (first > 1) {
        if (auto moved = shifted(ops, first - 1); budget.fails(moved)) {
            ops = std::move(moved);
        }
    }
}

// Each second as low as it still fails, by bisection between the second before it (1 for the
// first) and itself: the order of the seconds stays.
void lowerEachSecond(std::vector<Operation>& ops, Budget& budget) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
        Timestamp low = i == 0 ? 1 : ops[i - 1].second;
        Timestamp high = ops[i].second;
        while (low < high) {
            const Timestamp mid = low + (high - low) / 2;
            std::vector<Operation> candidate = ops;
            candidate[i].second = mid;
            if (budget.fails(candidate)) {
                ops = std::move(candidate);
                high = mid;
            } else {
                low = mid + 1;
            }
        }
    }
}

}  // namespace

std::vector<Operation> shrinkOperations(std::vector<Operation> ops, const FailurePredicate& fails,
                                        std::chrono::seconds window, std::size_t maxTries) {
    Budget budget(fails, maxTries);
    ops = ddmin(std::move(ops), budget);
    fewerRepeats(ops, budget);
    earlierSeconds(ops, budget, window.count());
    lowerEachSecond(ops, budget);
    // Removing a repeat or moving the seconds can make another operation unnecessary.
    ops = ddmin(std::move(ops), budget);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        ops[i].line = int(i) + 1;
        ops[i].column = 1;
    }
    return ops;
}

}  // namespace hitcounter::teach
