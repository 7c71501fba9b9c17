// The counting decorator (see counting_backend.h).
#include "workloads/counting_backend.h"

namespace edp {

Tensor CountingBackend::empty(int64_t rows, int64_t cols) {
  ++counts_.memory;
  return inner_.empty(rows, cols);
}
void CountingBackend::upload(const float* host, Tensor& t) {
  ++counts_.memory;
  inner_.upload(host, t);
}
void CountingBackend::download(const Tensor& t, float* host) {
  ++counts_.memory;
  inner_.download(t, host);
}
void CountingBackend::fill(Tensor& t, float value) {
  ++counts_.memory;
  inner_.fill(t, value);
}
void CountingBackend::copy(const Tensor& src, Tensor& dst) {
  ++counts_.memory;
  inner_.copy(src, dst);
}

void CountingBackend::gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b,
                           float beta, Tensor& c) {
  // c is m x n; k is the inner dimension of op(a).
  const int64_t k = ta == Trans::N ? a.cols() : a.rows();
  inner_.gemm(ta, tb, alpha, a, b, beta, c);  // throws on a shape mismatch: not counted
  ++counts_.gemm;
  counts_.gemm_flop +=
      2.0 * static_cast<double>(c.rows()) * static_cast<double>(c.cols()) * static_cast<double>(k);
}
void CountingBackend::axpy(float alpha, const Tensor& x, Tensor& y) {
  ++counts_.elementwise;
  inner_.axpy(alpha, x, y);
}

void CountingBackend::relu(const Tensor& x, Tensor& y) {
  ++counts_.elementwise;
  inner_.relu(x, y);
}
void CountingBackend::relu_backward(const Tensor& grad_y, const Tensor& x, Tensor& grad_x) {
  ++counts_.elementwise;
  inner_.relu_backward(grad_y, x, grad_x);
}
void CountingBackend::sub(const Tensor& a, const Tensor& b, Tensor& out) {
  ++counts_.elementwise;
  inner_.sub(a, b, out);
}
void CountingBackend::mul(const Tensor& a, const Tensor& b, Tensor& out) {
  ++counts_.elementwise;
  inner_.mul(a, b, out);
}
void CountingBackend::scale(const Tensor& x, float alpha, Tensor& out) {
  ++counts_.elementwise;
  inner_.scale(x, alpha, out);
}
void CountingBackend::square(const Tensor& x, Tensor& out) {
  ++counts_.elementwise;
  inner_.square(x, out);
}
void CountingBackend::broadcast(const Tensor& s, Tensor& out) {
  ++counts_.elementwise;
  inner_.broadcast(s, out);
}
void CountingBackend::add(const Tensor& a, const Tensor& b, Tensor& out) {
  ++counts_.elementwise;
  inner_.add(a, b, out);
}
void CountingBackend::sigmoid(const Tensor& x, Tensor& out) {
  ++counts_.elementwise;
  inner_.sigmoid(x, out);
}
void CountingBackend::tanh(const Tensor& x, Tensor& out) {
  ++counts_.elementwise;
  inner_.tanh(x, out);
}

void CountingBackend::sum(const Tensor& x, Tensor& out) {
  ++counts_.reduction;
  inner_.sum(x, out);
}
void CountingBackend::sub_square_sum(const Tensor& a, const Tensor& b, Tensor& diff, Tensor& out) {
  ++counts_.reduction;
  inner_.sub_square_sum(a, b, diff, out);
}

}  // namespace edp
