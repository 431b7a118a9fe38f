#define BOOST_TEST_MODULE facto_core
#include <boost/test/unit_test.hpp>
