// Timing and memory helpers shared by the benchmarks (not part of the library).
#pragma once

#include <chrono>
#include <fstream>
#include <string>

namespace facto::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A field of /proc/self/status in MiB ("VmRSS:" now, "VmHWM:" the peak since the last reset_peak()).
inline double resident_mib(const char* key)
{
    std::ifstream status("/proc/self/status");
    std::string word;
    double kib = 0.0;
    while (status >> word)
        if (word == key) {
            status >> kib;
            break;
        }
    return kib / 1024.0;
}

// Resets VmHWM to the current resident size.
inline void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

}  // namespace facto::bench
