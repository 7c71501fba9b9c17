// The autograd tape: every differentiable op against central finite
// differences, gradient accumulation, and the custom Function API.
#include <catch2/catch.hpp>

#include <random>

#include "workloads/autograd.h"
#include "workloads/reference_backend.h"

using namespace edp;
using autograd::Tape;
using autograd::Variable;

namespace {

struct Host {
  int64_t rows, cols;
  std::vector<float> v;
};

Host random_host(int64_t rows, int64_t cols, uint64_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 gen(static_cast<unsigned>(seed));
  std::uniform_real_distribution<float> d(lo, hi);
  Host h{rows, cols, std::vector<float>(static_cast<size_t>(rows * cols))};
  for (auto& x : h.v) x = d(gen);
  return h;
}

Tensor to_backend(Backend& be, const Host& h) {
  Tensor t = be.empty(h.rows, h.cols);
  be.upload(h.v.data(), t);
  return t;
}

std::vector<float> to_host(Backend& be, const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numel()));
  be.download(t, v.data());
  return v;
}

// f(inputs) -> scalar Variable, built on a fresh tape each call.
using Graph = std::function<Variable(Tape&, std::vector<Variable>&)>;

double eval(Backend& be, const Graph& g, const std::vector<Host>& in) {
  Tape tape(be);
  std::vector<Variable> vars;
  for (const auto& h : in) vars.push_back(tape.leaf(to_backend(be, h), false));
  return be.read_scalar(g(tape, vars).value());
}

// Checks d f / d input[k] from backward() against central differences in
// double precision of the perturbation; the graphs below are at most
// quadratic in each input, so the central difference has no truncation
// error and the tolerance only covers float32 rounding.
void check_gradients(const Graph& g, std::vector<Host> in, double step = 1e-2) {
  auto be = make_reference_backend();
  Tape tape(*be);
  std::vector<Variable> vars;
  for (const auto& h : in) vars.push_back(tape.leaf(to_backend(*be, h), true));
  tape.backward(g(tape, vars));
  for (size_t k = 0; k < in.size(); ++k) {
    const std::vector<float> grad = to_host(*be, vars[k].grad());
    REQUIRE(grad.size() == in[k].v.size());
    for (size_t i = 0; i < grad.size(); ++i) {
      const float x0 = in[k].v[i];
      in[k].v[i] = static_cast<float>(x0 + step);
      const double fp = eval(*be, g, in);
      in[k].v[i] = static_cast<float>(x0 - step);
      const double fm = eval(*be, g, in);
      in[k].v[i] = x0;
      const double fd = (fp - fm) / (2 * step);
      INFO("input " << k << " element " << i << ": backward " << grad[i] << ", fd " << fd);
      CHECK(grad[i] == Approx(fd).epsilon(2e-3).margin(2e-3));
    }
  }
}

// Turns any tensor into a scalar with a non-uniform gradient,
// sum((t - c)^2) for a fixed random c.
Variable weighted(Tape& tape, const Variable& t, uint64_t seed) {
  Host c = random_host(t.value().rows(), t.value().cols(), seed);
  Variable cv = tape.leaf(to_backend(tape.backend(), c), false);
  return tape.sum(tape.square(tape.sub(t, cv)));
}

}  // namespace

TEST_CASE("matmul gradient matches finite differences for both operands", "[autograd]") {
  check_gradients(
      [](Tape& t, std::vector<Variable>& v) { return weighted(t, t.matmul(v[0], v[1]), 7); },
      {random_host(3, 4, 1), random_host(4, 5, 2)});
}

TEST_CASE("clamp_min gradient is the input gradient where x >= 0 and zero below", "[autograd]") {
  // Values kept away from 0 so that a finite-difference step never crosses the kink.
  Host x = random_host(4, 6, 3, 0.2f, 1.0f);
  for (size_t i = 0; i < x.v.size(); i += 2) x.v[i] = -x.v[i];
  check_gradients(
      [](Tape& t, std::vector<Variable>& v) { return weighted(t, t.clamp_min(v[0], 0), 9); }, {x});
}

TEST_CASE("sub gradient is +1 for the first operand and -1 for the second", "[autograd]") {
  check_gradients(
      [](Tape& t, std::vector<Variable>& v) { return weighted(t, t.sub(v[0], v[1]), 11); },
      {random_host(3, 3, 4), random_host(3, 3, 5)});
}

TEST_CASE("square gradient is 2x", "[autograd]") {
  check_gradients([](Tape& t, std::vector<Variable>& v) { return t.sum(t.square(t.square(v[0]))); },
                  {random_host(2, 5, 6)}, 1e-3);
}

TEST_CASE("sum gradient broadcasts the upstream gradient", "[autograd]") {
  check_gradients([](Tape& t, std::vector<Variable>& v) { return t.sum(v[0]); },
                  {random_host(3, 7, 8)});
}

TEST_CASE("a variable used twice accumulates both gradients", "[autograd]") {
  // x and y reach the loss through two paths whose gradients cancel exactly:
  // f = sum(((x - y) - (x - y))^2) has zero gradient everywhere.
  auto be = make_reference_backend();
  Tape tape(*be);
  Variable x = tape.leaf(to_backend(*be, random_host(2, 2, 12)), true);
  Variable y = tape.leaf(to_backend(*be, random_host(2, 2, 13)), true);
  Variable f = tape.sum(tape.square(tape.sub(tape.sub(x, y), tape.sub(x, y))));
  tape.backward(f);
  for (float g : to_host(*be, x.grad())) CHECK(g == 0.0f);
  // And a case where they do not cancel: f = sum(matmul(x, x)) for a square x.
  check_gradients([](Tape& t, std::vector<Variable>& v) { return t.sum(t.matmul(v[0], v[0])); },
                  {random_host(3, 3, 14)});
}

TEST_CASE("backward walks only the recorded tape and clears it", "[autograd]") {
  auto be = make_reference_backend();
  Tape tape(*be);
  Variable x = tape.leaf(to_backend(*be, random_host(2, 3, 15)), true);
  Variable c = tape.leaf(to_backend(*be, random_host(2, 3, 16)), false);
  Variable f = tape.sum(tape.square(tape.sub(x, c)));
  CHECK(tape.recorded() == 3);
  tape.backward(f);
  CHECK(tape.recorded() == 0);
  // No graph was recorded for an op whose inputs need no gradient.
  tape.sum(c);
  CHECK(tape.recorded() == 0);
}

namespace {
// A user-defined Function: y = 3x, with a saved tensor it does not need, to
// check that the context keeps what forward saved.
class Triple final : public autograd::Function {
 public:
  std::string name() const override { return "Triple"; }
  Tensor forward(autograd::Context& ctx, const std::vector<Tensor>& in) override {
    ctx.save_for_backward({in[0]});
    Tensor y = ctx.backend().empty(in[0].rows(), in[0].cols());
    ctx.backend().scale(in[0], 3.0f, y);
    return y;
  }
  std::vector<Tensor> backward(autograd::Context& ctx, const Tensor& g) override {
    REQUIRE(ctx.saved_tensors().size() == 1);
    Tensor dx = ctx.backend().empty(g.rows(), g.cols());
    ctx.backend().scale(g, 3.0f, dx);
    return {dx};
  }
};
}  // namespace

TEST_CASE("a user-defined Function takes part in backward like a built-in op", "[autograd]") {
  check_gradients(
      [](Tape& t, std::vector<Variable>& v) {
        return weighted(t, t.apply(std::make_shared<Triple>(), {v[0]}), 17);
      },
      {random_host(3, 2, 18)});
}
