// The counting Backend decorator: it forwards (same loss as the backend
// alone), counts 2 m n k per GEMM whatever the transposes, and per training
// step of each MLP program gives the GEMM FLOPs of DESIGN §2.1 and the call
// counts the programs' code makes.
#include <catch2/catch.hpp>

#include "workloads/counting_backend.h"
#include "workloads/cpu_backend.h"
#include "workloads/empty_workload.h"
#include "workloads/mlp_step.h"
#include "workloads/reference_backend.h"

namespace {

using namespace edp;

std::unique_ptr<Backend> make_backend(const std::string& kind) {
  if (kind == "reference") return make_reference_backend();
  CpuOptions o;
  o.threads = 1;
  o.gemm = "eigen";
  return make_cpu_backend(o);
}

}  // namespace

TEST_CASE("counting backend: 2 m n k per gemm, whatever the transposes", "[workloads][counting]") {
  auto inner = make_reference_backend();
  CountingBackend cb(*inner);
  CHECK(cb.name() == "reference");
  Tensor a = cb.empty(3, 5), b = cb.empty(5, 7), c = cb.empty(3, 7);
  cb.fill(a, 1.0f);
  cb.fill(b, 2.0f);
  CHECK(cb.counts().memory == 5);
  cb.reset_counts();
  cb.gemm(Trans::N, Trans::N, 1.0f, a, b, 0.0f, c);  // 3x5 * 5x7
  CHECK(cb.counts().gemm_flop == 2.0 * 3 * 7 * 5);
  std::vector<float> host(21);
  cb.download(c, host.data());
  CHECK(host[0] == 10.0f);  // forwarded: 5 x 1 x 2
  Tensor at = cb.empty(5, 3), bt = cb.empty(7, 5);
  cb.fill(at, 1.0f);
  cb.fill(bt, 1.0f);
  cb.reset_counts();
  cb.gemm(Trans::T, Trans::T, 1.0f, at, bt, 0.0f, c);  // (5x3)^T * (7x5)^T
  CHECK(cb.counts().gemm == 1);
  CHECK(cb.counts().gemm_flop == 2.0 * 3 * 7 * 5);
  // A shape mismatch throws in the wrapped backend and is not counted.
  CHECK_THROWS_AS(cb.gemm(Trans::N, Trans::N, 1.0f, a, a, 0.0f, c), std::invalid_argument);
  CHECK(cb.counts().gemm == 1);
  CHECK(cb.counts().batched_gemm == 0);
}

TEST_CASE("counting backend: calls and GEMM FLOPs per MLP step", "[workloads][counting]") {
  const MlpShape shape{4, 16, 8, 2};
  const double flop = 4.0 * shape.n * shape.d_in * shape.h + 6.0 * shape.n * shape.h * shape.d_out;
  struct Expected {
    const char* program;
    int64_t gemm, elementwise, reduction, memory;
  };
  // tensors (mlp_tensors.cpp): h = x w1, y_pred = h_relu w2, grad_h = g w2^T
  // and the two updates fused into GEMMs with beta = 1 (w -= lr a^T b):
  // 5 GEMMs; relu and relu_backward: 2 element-wise; sub_square_sum: 1
  // reduction; no allocation once the first step has made the buffers.
  // autograd (autograd.cpp, mlp_autograd.cpp), per step:
  //   forward: 2 matmul (empty + gemm each), clamp_min (empty + relu),
  //     sub (empty + sub), square (empty + square), sum (empty + sum):
  //     2 gemm, 3 element-wise, 1 reduction, 6 allocations;
  //   backward: seed (empty + fill), sum (empty + broadcast), square
  //     (empty + mul + scale), sub (y needs no gradient: dC passed through,
  //     no call), matmul 2 (h_relu and w2: 2 x empty + gemm), clamp_min
  //     (empty + relu_backward), matmul 1 (x needs no gradient: w1 only,
  //     empty + gemm): 3 gemm, 4 element-wise, 8 memory calls;
  //   update: 2 axpy.
  //   Total 5 gemm, 9 element-wise, 1 reduction, 14 memory calls.
  // custom_relu: the same tape with ReLU as a user Function that also
  // allocates and calls relu / relu_backward: the same counts.
  const std::vector<Expected> expected = {
      {"tensors", 5, 2, 1, 0},
      {"autograd", 5, 9, 1, 14},
      {"custom_relu", 5, 9, 1, 14},
  };
  for (const char* kind : {"reference", "cpu"}) {
    auto inner = make_backend(kind);
    for (const Expected& e : expected) {
      INFO(kind << " " << e.program);
      CountingBackend cb(*inner);
      auto plain = make_mlp_step(e.program, *inner, make_initial_data(shape, 7, 1.0), 1e-3f);
      auto counted = make_mlp_step(e.program, cb, make_initial_data(shape, 7, 1.0), 1e-3f);
      counted->step();  // the first step may allocate what later steps reuse
      plain->step();
      cb.reset_counts();
      counted->step();
      plain->step();
      const CallCounts& c = cb.counts();
      CHECK(c.gemm_flop == flop);
      CHECK(counted->flop_per_step() == flop);
      CHECK(c.gemm == e.gemm);
      CHECK(c.batched_gemm == 0);
      CHECK(c.elementwise == e.elementwise);
      CHECK(c.reduction == e.reduction);
      CHECK(c.memory == e.memory);
      CHECK(counted->result() == plain->result());  // forwarded, bit for bit
    }
  }
}

TEST_CASE("empty workload: does nothing, counts nothing", "[workloads][counting]") {
  auto inner = make_reference_backend();
  CountingBackend cb(*inner);
  auto wl = make_empty_workload(cb);
  CHECK(wl->name() == "empty");
  for (int i = 0; i < 10; ++i) wl->step();
  wl->reset();
  CHECK(wl->flop_per_step() == 0);
  CHECK(wl->bytes_per_step() == 0);
  CHECK(std::isnan(wl->result()));
  CHECK(cb.counts().gemm == 0);
  CHECK(cb.counts().elementwise + cb.counts().reduction + cb.counts().memory == 0);
}
