// FACTO_TARGET_CLONES before a hot function compiles it for AVX2 + FMA as well as for the baseline
// x86-64, and the loader picks the clone the CPU runs (GCC on x86-64; elsewhere a no-op). Not under
// ThreadSanitizer: the loader runs the clones' resolver before TSan's runtime is up, and the
// instrumented resolver crashes. The CMake option FACTO_TARGET_CLONES=OFF (FACTO_NO_TARGET_CLONES)
// builds the baseline alone, so that the path a CPU without AVX2 takes is tested on any machine.
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_THREAD__) && \
    !defined(FACTO_NO_TARGET_CLONES)
#define FACTO_TARGET_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define FACTO_TARGET_CLONES
#endif

// FACTO_NO_CONTRACTION: no a * b + c fused into an FMA, so that a kernel's clones round alike (GCC, whose
// AVX2 clone may fuse; elsewhere there is no clone to differ).
#if defined(__GNUC__) && !defined(__clang__)
#define FACTO_NO_CONTRACTION __attribute__((optimize("fp-contract=off")))
#else
#define FACTO_NO_CONTRACTION
#endif
