#include "core/counters/counter_factory.h"

#include <array>

#include "core/counters/coarse_counter.h"
#include "core/counters/deque_counter.h"
#include "core/counters/estimate_counter.h"
#include "core/counters/naive_counter.h"
#include "core/counters/ring_counter.h"
#include "core/counters/scan_ring_counter.h"
#include "core/counters/sorted_counter.h"

namespace hitcounter {

namespace {
constexpr std::array<std::string_view, 7> kAll{"ring",     "deque", "sorted",  "coarse",
                                               "estimate", "naive", "scanring"};
constexpr std::array<std::string_view, 5> kExact{"ring", "deque", "sorted", "naive", "scanring"};
}  // namespace

std::span<const std::string_view> policyNames() {
    return kAll;
}
std::span<const std::string_view> exactPolicyNames() {
    return kExact;
}

std::unique_ptr<WindowCounter> makeCounter(std::string_view name, const CounterOptions& options) {
    if (name == "ring")
        return std::make_unique<RingCounter>(options.window);
    if (name == "deque")
        return std::make_unique<DequeCounter>(options.window);
    if (name == "sorted")
        return std::make_unique<SortedCounter>(options.window);
    if (name == "coarse")
        return std::make_unique<CoarseCounter>(options.window, options.bucket);
    if (name == "estimate")
        return std::make_unique<EstimateCounter>(options.window);
    if (name == "naive")
        return std::make_unique<NaiveCounter>(options.window);
    if (name == "scanring")
        return std::make_unique<ScanRingCounter>(options.window);
    return nullptr;
}

}  // namespace hitcounter
