#include "base/error.hpp"
#include "problems/problem.hpp"
#include "sets/row_simplices.hpp"

namespace facto {

OutputSpec labels_spec(int64_t n) { return {"labels", FACTO_OUTPUT_INT64, n, 1}; }

Output labels_output(const std::string& name, const Matrix& X)
{
    require(name == "labels", FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (this problem has: labels)");
    return Output{labels_spec(static_cast<int64_t>(X.shape()[0])), {}, row_argmax(X)};
}

}  // namespace facto
