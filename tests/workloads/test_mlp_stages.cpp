// Stage workloads (DESIGN §2.2): FLOPs that add up to the step's, the same
// loss as the step, the profiled pass, memory per tensor from the shapes.
#include <catch2/catch.hpp>

#include "workloads/mlp_stages.h"
#include "workloads/mlp_step.h"
#include "workloads/reference_backend.h"

using namespace edp;

namespace {
const MlpShape kShape{8, 300, 16, 4};
}

TEST_CASE("stage FLOPs add up to the step's 4 N D_in H + 6 N H D_out", "[workloads][stages]") {
  for (const MlpShape& s : {kShape, MlpShape{64, 15000, 100, 150}, MlpShape{3, 5, 7, 11}}) {
    const double sum = mlp_stage_flop(s, MlpStage::forward) +
                       mlp_stage_flop(s, MlpStage::backward) + mlp_stage_flop(s, MlpStage::update);
    CHECK(sum == Approx(mlp_step_flop(s)).epsilon(1e-12));
    CHECK(mlp_stage_flop(s, MlpStage::forward) ==
          Approx(2.0 * s.n * s.d_in * s.h + 2.0 * s.n * s.h * s.d_out));
    CHECK(mlp_flop_upto(s, MlpStage::update) == Approx(mlp_step_flop(s)));
    // The profiled attribution moves FLOPs between stages, never adds GEMM ones.
    for (const char* p : {"tensors", "autograd", "custom_relu"}) {
      double prof = 0;
      for (MlpStage st : {MlpStage::forward, MlpStage::backward, MlpStage::update})
        prof += mlp_profiled_stage_flop(p, s, st);
      CHECK(prof == Approx(mlp_step_flop(s) + mlp_update_flop(s)));
    }
  }
  // small (DESIGN §2.1): 0.39 GFLOP per step.
  CHECK(mlp_step_flop({64, 15000, 100, 150}) / 1e9 == Approx(0.39).margin(0.005));
}

TEST_CASE("the three stage workloads give the step's loss and only step updates",
          "[workloads][stages]") {
  const MlpData init = make_initial_data(kShape, 7, 0.1);
  for (const std::string program : {"tensors", "autograd", "custom_relu"}) {
    INFO(program);
    auto be = make_reference_backend();
    auto step = make_mlp_step(program, *be, init, 1e-3f);
    auto fwd = make_mlp_stage_workload(program, "forward", *be, init, 1e-3f);
    auto fb = make_mlp_stage_workload(program, "forward_backward", *be, init, 1e-3f);
    auto st = make_mlp_stage_workload(program, "step", *be, init, 1e-3f);
    CHECK(fwd->flop_per_step() == Approx(mlp_stage_flop(kShape, MlpStage::forward)));
    CHECK(st->flop_per_step() == Approx(mlp_step_flop(kShape)));
    step->step();
    fwd->step();
    fb->step();
    st->step();
    const double loss0 = step->result();
    CHECK(fwd->result() == Approx(loss0).epsilon(1e-6));
    CHECK(fb->result() == Approx(loss0).epsilon(1e-6));
    CHECK(st->result() == Approx(loss0).epsilon(1e-6));
    // Second iteration: forward and forward_backward never change the weights.
    step->step();
    fwd->step();
    fb->step();
    st->step();
    CHECK(fwd->result() == Approx(loss0).epsilon(1e-6));
    CHECK(fb->result() == Approx(loss0).epsilon(1e-6));
    CHECK(st->result() == Approx(step->result()).epsilon(1e-6));
    CHECK(step->result() < loss0);
  }
}

TEST_CASE("profiled stages add up to the profiled step", "[workloads][stages]") {
  const MlpShape shape{16, 2000, 32, 8};
  const MlpData init = make_initial_data(shape, 3, 0.1);
  for (const std::string program : {"tensors", "autograd"}) {
    INFO(program);
    auto be = make_reference_backend();
    auto wl = make_mlp_stage_workload(program, "step", *be, init, 1e-4f);
    ProfiledStages* ps = as_profiled_stages(*wl);
    REQUIRE(ps);
    const StageProfile p = ps->profile(10, 2);
    CHECK(p.steps == 10);
    CHECK_FALSE(p.device_timer);
    CHECK(p.forward_s > 0);
    CHECK(p.backward_s > 0);
    CHECK(p.update_s > 0);
    CHECK(p.h2d_copy_s > 0);
    const double sum = p.forward_s + p.backward_s + p.update_s + p.loss_readback_s;
    CHECK(sum <= p.step_wall_s * (1 + 1e-9));
    CHECK(sum >= 0.9 * p.step_wall_s);
  }
  // Not a stage workload: nothing to profile.
  auto be = make_reference_backend();
  auto plain = make_mlp_step("tensors", *be, init, 1e-4f);
  CHECK(as_profiled_stages(*plain) == nullptr);
}

TEST_CASE("memory per tensor from the shapes, by hand for one size", "[workloads][stages]") {
  // N=2, D_in=3, H=5, D_out=7, float32.
  const MlpShape s{2, 3, 5, 7};
  auto t = mlp_memory_computed("tensors", s);
  auto bytes = [&](const std::string& name) {
    for (const auto& x : t)
      if (x.tensor == name) return x.bytes;
    return -1.0;
  };
  CHECK(bytes("x") == 2 * 3 * 4);
  CHECK(bytes("y") == 2 * 7 * 4);
  CHECK(bytes("w1") == 3 * 5 * 4);
  CHECK(bytes("w2") == 5 * 7 * 4);
  CHECK(bytes("h") == 2 * 5 * 4);
  CHECK(bytes("h_relu") == 2 * 5 * 4);
  CHECK(bytes("y_pred") == 2 * 7 * 4);
  CHECK(bytes("grad_h") == 2 * 5 * 4);
  // x 24 + y 56 + w1 60 + w2 140 + h 40 + h_relu 40 + y_pred 56 + diff 56 +
  // grad_h 40 + loss 4 = 516
  CHECK(mlp_memory_total(t) == 516);
  auto be = make_reference_backend();
  CHECK(measure_mlp_memory_bytes("tensors", *be, make_initial_data(s, 1, 0.1), 1e-3f) == 516);

  t = mlp_memory_computed("autograd", s);
  CHECK(bytes("grad_w1") == 3 * 5 * 4);
  CHECK(bytes("saved:h") == 2 * 5 * 4);
  // The tape frees intermediate gradients as it goes: measured <= computed.
  const double measured =
      measure_mlp_memory_bytes("autograd", *be, make_initial_data(s, 1, 0.1), 1e-3f);
  CHECK(measured > 0);
  CHECK(measured <= mlp_memory_total(t));
}
