// Creating counting policies by name ("ring", "deque", "sorted", "coarse", "estimate",
// "naive", "scanring"), for the CLI, the GUI and the tests.
#pragma once

#include <chrono>
#include <memory>
#include <span>
#include <string_view>

#include "core/counters/window_counter.h"

namespace hitcounter {

struct CounterOptions {
    std::chrono::seconds window = kDefaultWindow;
    std::chrono::seconds bucket{60};  // coarse only
};

// Every policy name, in display order.
std::span<const std::string_view> policyNames();
// The exact policies: they give identical answers for every sequence of calls.
std::span<const std::string_view> exactPolicyNames();

// nullptr if the name is unknown. Throws std::invalid_argument for a window or bucket < 1 s.
std::unique_ptr<WindowCounter> makeCounter(std::string_view name,
                                           const CounterOptions& options = {});

}  // namespace hitcounter
