#include "workloads/reference_backend.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "workloads/host_backend.h"

namespace edp {

namespace {

class ReferenceBackend final : public HostBackend {
 public:
  std::string name() const override { return "reference"; }
  std::map<std::string, std::string> describe() const override {
    return {{"backend", "reference"}, {"threads", "1"}, {"gemm_path", "naive loops"}};
  }

  void fill(Tensor& t, float value) override {
    for (int64_t i = 0; i < t.numel(); ++i) t.data()[i] = value;
  }
  void copy(const Tensor& src, Tensor& dst) override {
    check_same_shape("copy", src, dst);
    std::memmove(dst.data(), src.data(), sizeof(float) * src.numel());
  }

  void gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b, float beta,
            Tensor& c) override {
    check_gemm_shapes(ta, tb, a, b, c);
    const int64_t m = c.rows(), n = c.cols();
    const int64_t k = ta == Trans::N ? a.cols() : a.rows();
    const float* A = a.data();
    const float* B = b.data();
    auto at = [&](int64_t i, int64_t p) {
      return ta == Trans::N ? A[i * a.cols() + p] : A[p * a.cols() + i];
    };
    auto bt = [&](int64_t p, int64_t j) {
      return tb == Trans::N ? B[p * b.cols() + j] : B[j * b.cols() + p];
    };
    std::vector<double> acc(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int64_t p = 0; p < k; ++p) {
        const double aip = at(i, p);
        for (int64_t j = 0; j < n; ++j) acc[static_cast<size_t>(j)] += aip * bt(p, j);
      }
      float* crow = c.data() + i * n;
      for (int64_t j = 0; j < n; ++j) {
        const double prior = beta == 0.0f ? 0.0 : static_cast<double>(beta) * crow[j];
        crow[j] = static_cast<float>(alpha * acc[static_cast<size_t>(j)] + prior);
      }
    }
  }

  void axpy(float alpha, const Tensor& x, Tensor& y) override {
    check_same_shape("axpy", x, y);
    for (int64_t i = 0; i < x.numel(); ++i) y.data()[i] += alpha * x.data()[i];
  }
  void relu(const Tensor& x, Tensor& y) override {
    check_same_shape("relu", x, y);
    // x < 0 ? 0 : x keeps NaN (as torch.clamp and the CUDA kernel do).
    for (int64_t i = 0; i < x.numel(); ++i) y.data()[i] = x.data()[i] < 0.0f ? 0.0f : x.data()[i];
  }
  void relu_backward(const Tensor& gy, const Tensor& x, Tensor& gx) override {
    check_same_shape("relu_backward", gy, x);
    check_same_shape("relu_backward", x, gx);
    for (int64_t i = 0; i < x.numel(); ++i) gx.data()[i] = x.data()[i] < 0.0f ? 0.0f : gy.data()[i];
  }
  void sub(const Tensor& a, const Tensor& b, Tensor& out) override {
    binary("sub", a, b, out, [](float p, float q) { return p - q; });
  }
  void mul(const Tensor& a, const Tensor& b, Tensor& out) override {
    binary("mul", a, b, out, [](float p, float q) { return p * q; });
  }
  void scale(const Tensor& x, float alpha, Tensor& out) override {
    check_same_shape("scale", x, out);
    for (int64_t i = 0; i < x.numel(); ++i) out.data()[i] = alpha * x.data()[i];
  }
  void square(const Tensor& x, Tensor& out) override {
    check_same_shape("square", x, out);
    for (int64_t i = 0; i < x.numel(); ++i) out.data()[i] = x.data()[i] * x.data()[i];
  }
  void broadcast(const Tensor& s, Tensor& out) override {
    check_scalar("broadcast", s);
    const float v = s.data()[0];
    for (int64_t i = 0; i < out.numel(); ++i) out.data()[i] = v;
  }
  void sum(const Tensor& x, Tensor& out) override {
    check_scalar("sum", out);
    double acc = 0;
    for (int64_t i = 0; i < x.numel(); ++i) acc += x.data()[i];
    out.data()[0] = static_cast<float>(acc);
  }
  void sub_square_sum(const Tensor& a, const Tensor& b, Tensor& diff, Tensor& out) override {
    check_same_shape("sub_square_sum", a, b);
    check_same_shape("sub_square_sum", a, diff);
    check_scalar("sub_square_sum", out);
    double acc = 0;
    for (int64_t i = 0; i < a.numel(); ++i) {
      const float d = a.data()[i] - b.data()[i];
      diff.data()[i] = d;
      acc += static_cast<double>(d) * d;
    }
    out.data()[0] = static_cast<float>(acc);
  }

  // ---- operator workloads ----------------------------------------------------
  void add(const Tensor& a, const Tensor& b, Tensor& out) override {
    binary("add", a, b, out, [](float p, float q) { return p + q; });
  }
  // In double, then rounded once: the oracle the vectorised approximations of
  // the other backends are compared with. exp(+inf) = inf gives 1/inf = 0 at
  // x = -inf; NaN propagates through exp and the division.
  void sigmoid(const Tensor& x, Tensor& out) override {
    check_same_shape("sigmoid", x, out);
    for (int64_t i = 0; i < x.numel(); ++i)
      out.data()[i] = static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(x.data()[i]))));
  }
  void tanh(const Tensor& x, Tensor& out) override {
    check_same_shape("tanh", x, out);
    for (int64_t i = 0; i < x.numel(); ++i)
      out.data()[i] = static_cast<float>(std::tanh(static_cast<double>(x.data()[i])));
  }
  // Eight scalar chains: a sequential baseline, not a peak.
  double fma_peak_flop(int64_t rounds) const override {
    return 2.0 * kFmaChains * static_cast<double>(rounds);
  }
  void fma_peak(int64_t rounds, Tensor& sink) override {
    check_scalar("fma_peak", sink);
    float acc[kFmaChains];
    for (int j = 0; j < kFmaChains; ++j) acc[j] = static_cast<float>(j);
    for (int64_t r = 0; r < rounds; ++r)
      for (int j = 0; j < kFmaChains; ++j) acc[j] = std::fma(acc[j], 0.999999f, 1e-3f);
    float total = 0.0f;
    for (float v : acc) total += v;
    sink.data()[0] = total;
  }

 private:
  static constexpr int kFmaChains = 8;

  template <class F>
  static void binary(const char* op, const Tensor& a, const Tensor& b, Tensor& out, F f) {
    check_same_shape(op, a, b);
    check_same_shape(op, a, out);
    for (int64_t i = 0; i < a.numel(); ++i) out.data()[i] = f(a.data()[i], b.data()[i]);
  }
};

}  // namespace

std::unique_ptr<Backend> make_reference_backend() { return std::make_unique<ReferenceBackend>(); }

}  // namespace edp
