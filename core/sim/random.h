// Small, portable random numbers for the simulator: the same seed gives the same traffic on
// every compiler and standard library (std:: distributions do not promise that).
//
// Not thread-safe: one generator per use; generators are cheap to make (one 64-bit word),
// so the traffic model makes a fresh one per (seed, second, stream) and needs no state.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

namespace hitcounter::sim {

// Mixes words into one well-spread 64-bit seed (the SplitMix64 finalizer).
constexpr std::uint64_t mixSeed(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
    std::uint64_t z = a ^ (b * 0x9E3779B97F4A7C15ULL) ^ (c * 0xC2B2AE3D27D4EB4FULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// SplitMix64: passes BigCrush, one word of state.
class Random {
public:
    explicit constexpr Random(std::uint64_t seed) : m_state(seed) {}

    constexpr std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    // Uniform in [0, n); n > 0. Multiply-shift: unbiased enough for n far below 2^32.
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
    }

    // Standard normal (Box-Muller).
    double normal() {
        const double u1 = 1.0 - uniform();  // (0, 1]: log is finite
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

    // Poisson with mean `mean` >= 0: exact (Knuth) below 30, the normal approximation above,
    // where its error is far below what a traffic shape needs.
    std::uint64_t poisson(double mean) {
        if (mean <= 0) {
            return 0;
        }
        if (mean < 30) {
            const double limit = std::exp(-mean);
            std::uint64_t k = 0;
            for (double p = uniform(); p > limit; p *= uniform()) {
                ++k;
            }
            return k;
        }
        const double x = std::round(mean + std::sqrt(mean) * normal());
        return x <= 0 ? 0 : static_cast<std::uint64_t>(x);
    }

private:
    std::uint64_t m_state;
};

}  // namespace hitcounter::sim
