// The mark of a long core test case (FACTO_LONG_CASE).
#pragma once

#include <boost/test/unit_test.hpp>

namespace facto::test {

// A long case (seconds in a Release build, run in every build but the sanitizers'): the sanitizers' build,
// 4-5 times slower, skips it, reported as skipped, because the suite's short cases take the same paths
// of its solvers; what it adds, iterations and size, is held under every OpenBLAS kernel
// (tests/README.md, "What a test may cost"). Use as BOOST_AUTO_TEST_CASE(name, FACTO_LONG_CASE).
inline boost::test_tools::assertion_result run_unless_instrumented(boost::unit_test::test_unit_id)
{
#if defined(__SANITIZE_ADDRESS__)
    boost::test_tools::assertion_result skip(false);
    skip.message() << "a long case: the sanitizers' build runs the suite's short ones (tests/README.md)";
    return skip;
#else
    return true;
#endif
}
#define FACTO_LONG_CASE *boost::unit_test::precondition(facto::test::run_unless_instrumented)

}  // namespace facto::test
