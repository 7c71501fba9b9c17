#include "workloads/backend.h"

#include <stdexcept>
#include <string>

namespace edp {

namespace {
std::string shape(const Tensor& t) {
  return std::to_string(t.rows()) + "x" + std::to_string(t.cols());
}
}  // namespace

void check_same_shape(const char* op, const Tensor& a, const Tensor& b) {
  if (!a.same_shape(b))
    throw std::invalid_argument(std::string(op) + ": shape mismatch " + shape(a) + " vs " +
                                shape(b));
}

void check_scalar(const char* op, const Tensor& s) {
  if (s.rows() != 1 || s.cols() != 1)
    throw std::invalid_argument(std::string(op) + ": expected a 1x1 tensor, got " + shape(s));
}

void check_gemm_shapes(Trans ta, Trans tb, const Tensor& a, const Tensor& b, const Tensor& c) {
  const int64_t m = ta == Trans::N ? a.rows() : a.cols();
  const int64_t k = ta == Trans::N ? a.cols() : a.rows();
  const int64_t kb = tb == Trans::N ? b.rows() : b.cols();
  const int64_t n = tb == Trans::N ? b.cols() : b.rows();
  if (k != kb || c.rows() != m || c.cols() != n)
    throw std::invalid_argument("gemm: op(a) " + std::to_string(m) + "x" + std::to_string(k) +
                                " * op(b) " + std::to_string(kb) + "x" + std::to_string(n) +
                                " does not fit c " + shape(c));
}

}  // namespace edp
