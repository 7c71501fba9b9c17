// Stage workloads, the profiled pass and memory per tensor (see mlp_stages.h).
#include "workloads/mlp_stages.h"

#include <algorithm>
#include <stdexcept>

#include "common/elapsed.h"
#include "workloads/mlp_step.h"
#include "workloads/step_loop.h"

namespace edp {
namespace {

class MlpStageWorkload final : public Workload, public ProfiledStages {
 public:
  MlpStageWorkload(const std::string& program, const std::string& stage, Backend& be,
                   std::unique_ptr<Backend> owned, MlpData init, float lr)
      : Workload(owned ? *owned : be),
        owned_(std::move(owned)),
        stage_(stage),
        upto_(mlp_stage_upto(stage)),
        program_(program),
        init_(std::move(init)),
        lr_(lr),
        mlp_(make_mlp_workload(program, backend_, init_, lr)) {}
  std::string name() const override { return stage_; }
  void step() override { mlp_->run(upto_); }
  void reset() override { mlp_->reset(init_); }
  double flop_per_step() const override { return mlp_flop_upto(init_.shape, upto_); }
  double bytes_per_step() const override { return 0; }
  double result() override { return backend_.read_scalar(mlp_->loss()); }

  StageProfile profile(int steps, int warmup) override {
    mlp_->reset(init_);
    StageProfile p = profile_mlp_stages(*mlp_, init_, steps, warmup);
    mlp_->reset(init_);
    return p;
  }
  std::vector<TensorBytes> memory_computed() const override {
    return mlp_memory_computed(program_, init_.shape);
  }
  double memory_measured_bytes() override {
    return measure_mlp_memory_bytes(program_, backend_, init_, lr_);
  }

 private:
  std::unique_ptr<Backend> owned_;  // first: destroyed after the tensors it holds
  std::string stage_;
  MlpStage upto_;
  std::string program_;
  MlpData init_;
  float lr_;
  std::unique_ptr<MlpWorkload> mlp_;
};

// Forwards everything to `inner` and counts the bytes of the tensors alive
// that were allocated through it (the storage goes back to `inner` when the
// last reference is gone, as usual).
class LiveBytesBackend final : public Backend {
 public:
  explicit LiveBytesBackend(Backend& inner) : inner_(inner), live_(std::make_shared<Live>()) {}
  double high_water_bytes() const { return live_->high; }

  std::string name() const override { return inner_.name(); }
  Tensor empty(int64_t rows, int64_t cols) override {
    Tensor t = inner_.empty(rows, cols);
    const double bytes = 4.0 * static_cast<double>(rows * cols);
    live_->now += bytes;
    live_->high = std::max(live_->high, live_->now);
    std::shared_ptr<Live> live = live_;
    std::shared_ptr<float> counted(t.data(), [t, live, bytes](float*) { live->now -= bytes; });
    return Tensor(std::move(counted), rows, cols);
  }
  void upload(const float* host, Tensor& t) override { inner_.upload(host, t); }
  void download(const Tensor& t, float* host) override { inner_.download(t, host); }
  void fill(Tensor& t, float v) override { inner_.fill(t, v); }
  void copy(const Tensor& s, Tensor& d) override { inner_.copy(s, d); }
  void gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b, float beta,
            Tensor& c) override {
    inner_.gemm(ta, tb, alpha, a, b, beta, c);
  }
  void axpy(float alpha, const Tensor& x, Tensor& y) override { inner_.axpy(alpha, x, y); }
  void relu(const Tensor& x, Tensor& y) override { inner_.relu(x, y); }
  void relu_backward(const Tensor& gy, const Tensor& x, Tensor& gx) override {
    inner_.relu_backward(gy, x, gx);
  }
  void sub(const Tensor& a, const Tensor& b, Tensor& o) override { inner_.sub(a, b, o); }
  void mul(const Tensor& a, const Tensor& b, Tensor& o) override { inner_.mul(a, b, o); }
  void scale(const Tensor& x, float alpha, Tensor& o) override { inner_.scale(x, alpha, o); }
  void square(const Tensor& x, Tensor& o) override { inner_.square(x, o); }
  void broadcast(const Tensor& s, Tensor& o) override { inner_.broadcast(s, o); }
  void add(const Tensor& a, const Tensor& b, Tensor& o) override { inner_.add(a, b, o); }
  void sigmoid(const Tensor& x, Tensor& o) override { inner_.sigmoid(x, o); }
  void tanh(const Tensor& x, Tensor& o) override { inner_.tanh(x, o); }
  void sum(const Tensor& x, Tensor& o) override { inner_.sum(x, o); }
  void sub_square_sum(const Tensor& a, const Tensor& b, Tensor& d, Tensor& o) override {
    inner_.sub_square_sum(a, b, d, o);
  }
  float read_scalar(const Tensor& s) override { return inner_.read_scalar(s); }
  void synchronize() override { inner_.synchronize(); }

 private:
  struct Live {
    double now = 0, high = 0;
  };
  Backend& inner_;
  std::shared_ptr<Live> live_;
};

double f32(int64_t a, int64_t b) { return 4.0 * static_cast<double>(a) * static_cast<double>(b); }

}  // namespace

const std::vector<std::string>& mlp_stage_workload_names() {
  static const std::vector<std::string> names{"forward", "forward_backward", "step"};
  return names;
}

MlpStage mlp_stage_upto(const std::string& s) {
  if (s == "forward") return MlpStage::forward;
  if (s == "forward_backward") return MlpStage::backward;
  if (s == "step") return MlpStage::update;
  throw std::invalid_argument("unknown stage workload '" + s +
                              "' (expected forward, forward_backward or step)");
}

double mlp_stage_flop(const MlpShape& s, MlpStage stage) {
  const double ndh = static_cast<double>(s.n) * s.d_in * s.h;
  const double nho = static_cast<double>(s.n) * s.h * s.d_out;
  switch (stage) {
    case MlpStage::forward:
      return 2 * ndh + 2 * nho;  // h = x w1; y_pred = h_relu w2
    case MlpStage::backward:
      return 2 * ndh + 4 * nho;  // grad_w1; grad_w2 and grad_h
    case MlpStage::update:
      return 0;  // no GEMM of its own
  }
  return 0;
}

double mlp_flop_upto(const MlpShape& s, MlpStage upto) {
  double f = 0;
  for (int st = 0; st <= static_cast<int>(upto); ++st) f += mlp_stage_flop(s, MlpStage(st));
  return f;
}

double mlp_update_flop(const MlpShape& s) {
  return 2.0 * (static_cast<double>(s.d_in) * s.h + static_cast<double>(s.h) * s.d_out);
}

double mlp_profiled_stage_flop(const std::string& program, const MlpShape& s, MlpStage stage) {
  const double nho = static_cast<double>(s.n) * s.h * s.d_out;
  if (stage == MlpStage::update)
    return mlp_update_flop(s) +
           (program == "tensors" ? mlp_stage_flop(s, MlpStage::backward) - 2 * nho : 0.0);
  if (stage == MlpStage::backward && program == "tensors") return 2 * nho;
  return mlp_stage_flop(s, stage);
}

std::unique_ptr<Workload> make_mlp_stage_workload(const std::string& program,
                                                  const std::string& stage, Backend& backend,
                                                  MlpData init, float lr,
                                                  std::unique_ptr<Backend> owned) {
  return std::make_unique<MlpStageWorkload>(program, stage, backend, std::move(owned),
                                            std::move(init), lr);
}

ProfiledStages* as_profiled_stages(Workload& w) { return dynamic_cast<ProfiledStages*>(&w); }

StageProfile profile_mlp_stages(MlpWorkload& mlp_ref, const MlpData& init, int steps, int warmup) {
  MlpWorkload* mlp = &mlp_ref;
  Backend& be = mlp->backend();
  StageProfile p;
  p.steps = std::max(1, steps);
  be.synchronize();
  auto t0 = SteadyClock::now();
  {
    const MlpShape& s = init.shape;
    Tensor x = be.empty(s.n, s.d_in), y = be.empty(s.n, s.d_out);
    Tensor w1 = be.empty(s.d_in, s.h), w2 = be.empty(s.h, s.d_out);
    be.synchronize();
    t0 = SteadyClock::now();
    be.upload(init.x.data(), x);
    be.upload(init.y.data(), y);
    be.upload(init.w1.data(), w1);
    be.upload(init.w2.data(), w2);
    be.synchronize();
    p.h2d_copy_s = seconds_since(t0);
  }
  for (int i = 0; i < warmup; ++i) mlp->step();
  be.synchronize();

  // A mark after each stage: the device timer where there is one (the stop
  // waits for its own mark), else synchronise and the host clock.
  double stage_s[3] = {0, 0, 0};
  SteadyClock::time_point host_mark;
  bool device = false;
  auto start = [&] {
    be.start_device_timer();
    host_mark = SteadyClock::now();
  };
  mlp->set_stage_hook([&](MlpStage st) {
    double t = be.stop_device_timer_s();
    if (t < 0) {
      be.synchronize();
      t = seconds_since(host_mark);
    } else {
      device = true;
    }
    stage_s[static_cast<int>(st)] += t;
    if (st != MlpStage::update) start();
  });
  // The steps, one per block, each marked from its start and followed by
  // the loss readback (which waits for the step).
  double readback = 0;
  StepLoop loop;
  loop.synchronize_blocks = false;
  loop.another = [&](const StepLoopResult& done) { return done.blocks < p.steps; };
  const auto read_loss = [&](const StepLoopResult&) {
    const auto r0 = SteadyClock::now();
    (void)be.read_scalar(mlp->loss());
    readback += seconds_since(r0);
  };
  const double wall = run_steps(
                          be, loop, [mlp] { mlp->step(); }, start, read_loss)
                          .elapsed_s;
  mlp->set_stage_hook(nullptr);
  be.synchronize();
  p.device_timer = device;
  p.forward_s = stage_s[0] / p.steps;
  p.backward_s = stage_s[1] / p.steps;
  p.update_s = stage_s[2] / p.steps;
  p.loss_readback_s = readback / p.steps;
  p.step_wall_s = wall / p.steps;
  return p;
}

std::vector<TensorBytes> mlp_memory_computed(const std::string& program, const MlpShape& s) {
  const int64_t n = s.n, d = s.d_in, h = s.h, o = s.d_out;
  std::vector<TensorBytes> t{
      {"x", "activation", f32(n, d)},     {"y", "activation", f32(n, o)},
      {"w1", "weight", f32(d, h)},        {"w2", "weight", f32(h, o)},
      {"h", "activation", f32(n, h)},     {"h_relu", "activation", f32(n, h)},
      {"y_pred", "activation", f32(n, o)}};
  if (program == "tensors") {
    // grad_w1 and grad_w2 are never materialised: the update GEMMs
    // accumulate into w1 and w2 (beta = 1).
    t.push_back({"diff", "gradient", f32(n, o)});  // y_pred - y (g = 2 diff)
    t.push_back({"grad_h", "gradient", f32(n, h)});
    t.push_back({"loss", "workspace", f32(1, 1)});
    return t;
  }
  if (program != "autograd" && program != "custom_relu")
    throw std::invalid_argument("unknown workload '" + program + "'");
  // The tape's temporaries: sub and square outputs, the loss.
  t.push_back({"diff", "activation", f32(n, o)});
  t.push_back({"diff_sq", "activation", f32(n, o)});
  t.push_back({"loss", "activation", f32(1, 1)});
  // What backward() reads from the contexts (references, no copies).
  t.push_back({"saved:x", "saved", f32(n, d)});
  t.push_back({"saved:w1", "saved", f32(d, h)});
  t.push_back({"saved:h", "saved", f32(n, h)});  // clamp_min / MyReLU input
  t.push_back({"saved:h_relu", "saved", f32(n, h)});
  t.push_back({"saved:w2", "saved", f32(h, o)});
  t.push_back({"saved:diff", "saved", f32(n, o)});  // square's input
  // Gradients backward() allocates (sub passes its gradient through).
  t.push_back({"grad_loss", "gradient", f32(1, 1)});
  t.push_back({"grad_diff_sq", "gradient", f32(n, o)});
  t.push_back({"grad_diff", "gradient", f32(n, o)});
  t.push_back({"grad_h_relu", "gradient", f32(n, h)});
  t.push_back({"grad_h", "gradient", f32(n, h)});
  t.push_back({"grad_w2", "gradient", f32(h, o)});
  t.push_back({"grad_w1", "gradient", f32(d, h)});
  return t;
}

double mlp_memory_total(const std::vector<TensorBytes>& tensors) {
  double total = 0;
  for (const auto& t : tensors)
    if (t.kind != "saved") total += t.bytes;
  return total;
}

double measure_mlp_memory_bytes(const std::string& program, Backend& backend, const MlpData& init,
                                float lr) {
  LiveBytesBackend counting(backend);
  {
    std::unique_ptr<MlpWorkload> mlp = make_mlp_workload(program, counting, init, lr);
    mlp->step();
    mlp->step();
    counting.synchronize();
  }
  return counting.high_water_bytes();
}

}  // namespace edp
