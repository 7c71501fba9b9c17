#include "workloads/mlp_workload.h"

#include <cmath>
#include <random>
#include <stdexcept>

namespace edp {

namespace {

// Fills v with normal(0,1) * scale using the Box-Muller transform on
// mt19937_64 output (both fully specified, unlike std::normal_distribution).
void fill_normal(std::vector<float>& v, uint64_t seed, uint64_t stream, double scale) {
  std::mt19937_64 gen(seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull + 1);
  const double two_pi = 6.283185307179586;
  auto uniform = [&gen] {  // (0, 1]: 53 random bits
    return (static_cast<double>(gen() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
  };
  for (size_t i = 0; i < v.size(); i += 2) {
    const double r = std::sqrt(-2.0 * std::log(uniform()));
    const double t = two_pi * uniform();
    v[i] = static_cast<float>(r * std::cos(t) * scale);
    if (i + 1 < v.size()) v[i + 1] = static_cast<float>(r * std::sin(t) * scale);
  }
}

}  // namespace

MlpData make_initial_data(const MlpShape& s, uint64_t seed, double init_scale) {
  if (s.n <= 0 || s.d_in <= 0 || s.h <= 0 || s.d_out <= 0)
    throw std::invalid_argument("mlp: every dimension must be positive");
  MlpData d;
  d.shape = s;
  d.x.resize(static_cast<size_t>(s.n * s.d_in));
  d.y.resize(static_cast<size_t>(s.n * s.d_out));
  d.w1.resize(static_cast<size_t>(s.d_in * s.h));
  d.w2.resize(static_cast<size_t>(s.h * s.d_out));
  fill_normal(d.x, seed, 0, init_scale);
  fill_normal(d.y, seed, 1, init_scale);
  fill_normal(d.w1, seed, 2, init_scale);
  fill_normal(d.w2, seed, 3, init_scale);
  return d;
}

MlpWorkload::MlpWorkload(Backend& backend, const MlpData& init, float learning_rate)
    : backend_(backend), lr_(learning_rate) {
  const MlpShape& s = init.shape;
  x_ = backend_.empty(s.n, s.d_in);
  y_ = backend_.empty(s.n, s.d_out);
  w1_ = backend_.empty(s.d_in, s.h);
  w2_ = backend_.empty(s.h, s.d_out);
  backend_.upload(init.x.data(), x_);
  backend_.upload(init.y.data(), y_);
  reset(init);
  loss_ = backend_.empty(1, 1);
  backend_.fill(loss_, NAN);
}

void MlpWorkload::reset(const MlpData& init) {
  backend_.upload(init.w1.data(), w1_);
  backend_.upload(init.w2.data(), w2_);
}

}  // namespace edp
