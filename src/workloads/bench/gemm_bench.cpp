// edp_gemm_bench: one GEMM implementation timed at the ops study's GEMM
// shapes, for scripts/bench-gemm.sh, which runs it once per implementation
// (each in its own process, so no thread pool or OpenBLAS setting leaks from
// one to the next) beside NumPy and `edpbench ops`. Not the ops study: no
// energy, no protocol. One line per shape on stdout:
// impl,shape,threads,time_s_median,flop.
//
//   edp_gemm_bench --impl I [--threads N] [--samples N] SHAPE...
//     I: edp-eigen, edp-openblas, edp-blis
//                                 the cpu backend on that path (pinned team,
//                                 its own split, cpu_gemm.h)
//        eigen                    Eigen's own threading (setNbThreads(N))
//        openblas                 OpenBLAS's own pool (openblas_set_num_threads(N)),
//                                 as NumPy calls it
//     SHAPE: MxNxK[:tA][:tB], a square order N, or small|medium|large (the
//            five GEMMs of that MLP size, in mlp_gemm_specs order); with an
//            edp-* impl also fma_peak (the measured ceiling)
//     --cpu-time: process CPU time instead of wall time (see below)
//
//   edp_gemm_bench --split SIZE [--threads N] [--gemm eigen|openblas|blis] [--steps N]
//                  [--programs tensors,autograd,custom_relu]
//     the programs' steps (default tensors and autograd) at SIZE on the cpu
//     backend, the time of each backend call summed by call and shape (where
//     a step's time goes), and the K split's reduction of x w1 timed alone.
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "edpbench/config.h"
#include "platform/platform.h"
#include "workloads/cpu_backend.h"
#include "workloads/cpu_gemm.h"
#include "workloads/mlp.h"
#include "workloads/op_workloads.h"

#if defined(_OPENMP)
#include <omp.h>
#endif
#if EDPBENCH_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

// --cpu-time: the process's CPU time instead of the wall clock. On a busy
// machine this leaves out the time the threads waited for a core, so it
// compares single-threaded kernels (--threads 1) fairly; with more threads
// it also counts their spinning.
bool g_cpu_time = false;

double now_s() {
  if (!g_cpu_time) return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median seconds per call of f: one warm-up call, then `samples` samples of
// enough calls for >= 50 ms each.
double time_calls(const std::function<void()>& f, int samples) {
  f();
  double t0 = now_s();
  f();
  const double one = now_s() - t0;
  const int calls = std::max(1, static_cast<int>(0.05 / std::max(one, 1e-9)));
  std::vector<double> per_call;
  for (int s = 0; s < samples; ++s) {
    t0 = now_s();
    for (int i = 0; i < calls; ++i) f();
    per_call.push_back((now_s() - t0) / calls);
  }
  return median(per_call);
}

const std::map<std::string, edp::MlpShape>& sizes() {
  static const std::map<std::string, edp::MlpShape> s{{"small", {64, 15000, 100, 150}},
                                                      {"medium", {192, 20000, 300, 200}},
                                                      {"large", {384, 40000, 600, 400}}};
  return s;
}

std::string shape_text(const edp::OpSpec& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
         (s.trans_a ? ":tA" : "") + (s.trans_b ? ":tB" : "");
}

// "1024", "192x300x20000:tA", "medium" -> specs; exits 2 on anything else.
std::vector<edp::OpSpec> parse_shape(const std::string& text) {
  if (const auto it = sizes().find(text); it != sizes().end())
    return edp::mlp_gemm_specs(it->second);
  edp::OpSpec s;
  s.op = "gemm";
  long long m = 0, n = 0, k = 0;
  int used = 0;
  if (std::sscanf(text.c_str(), "%lldx%lldx%lld%n", &m, &n, &k, &used) == 3) {
    s.m = m;
    s.n = n;
    s.k = k;
    const std::string rest = text.substr(static_cast<size_t>(used));
    s.trans_a = rest.find(":tA") != std::string::npos;
    s.trans_b = rest.find(":tB") != std::string::npos;
  } else if (std::sscanf(text.c_str(), "%lld%n", &n, &used) == 1 &&
             used == static_cast<int>(text.size())) {
    s.m = s.n = s.k = n;
  }
  if (s.m <= 0 || s.n <= 0 || s.k <= 0) {
    std::fprintf(stderr,
                 "edp_gemm_bench: '%s' is not a shape (MxNxK[:tA][:tB], an order such as 1024, "
                 "or small|medium|large)\n",
                 text.c_str());
    std::exit(2);
  }
  return {s};
}

// Operands of one peer GEMM, filled as the ops study's Gemm workload fills its own.
struct Operands {
  explicit Operands(const edp::OpSpec& s)
      : a(static_cast<size_t>(s.m * s.k), 0.01f),
        b(static_cast<size_t>(s.k * s.n), 0.02f),
        c(static_cast<size_t>(s.m * s.n), 0.0f) {}
  std::vector<float> a, b, c;
};

std::function<void()> eigen_gemm(const edp::OpSpec& s, Operands& o) {
  using Row = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Map = Eigen::Map<Row>;
  using CMap = Eigen::Map<const Row>;
  return [&s, &o] {
    CMap a(o.a.data(), s.trans_a ? s.k : s.m, s.trans_a ? s.m : s.k);
    CMap b(o.b.data(), s.trans_b ? s.n : s.k, s.trans_b ? s.k : s.n);
    Map c(o.c.data(), s.m, s.n);
    if (!s.trans_a && !s.trans_b) c.noalias() = a * b;
    if (s.trans_a && !s.trans_b) c.noalias() = a.transpose() * b;
    if (!s.trans_a && s.trans_b) c.noalias() = a * b.transpose();
    if (s.trans_a && s.trans_b) c.noalias() = a.transpose() * b.transpose();
  };
}

std::function<void()> openblas_gemm([[maybe_unused]] const edp::OpSpec& s,
                                    [[maybe_unused]] Operands& o) {
#if EDPBENCH_HAVE_OPENBLAS
  return [&s, &o] {
    cblas_sgemm(CblasRowMajor, s.trans_a ? CblasTrans : CblasNoTrans,
                s.trans_b ? CblasTrans : CblasNoTrans, static_cast<int>(s.m), static_cast<int>(s.n),
                static_cast<int>(s.k), 1.0f, o.a.data(), static_cast<int>(s.trans_a ? s.m : s.k),
                o.b.data(), static_cast<int>(s.trans_b ? s.k : s.n), 0.0f, o.c.data(),
                static_cast<int>(s.n));
  };
#else
  std::fprintf(stderr, "edp_gemm_bench: this build has no OpenBLAS\n");
  std::exit(2);
#endif
}

std::unique_ptr<edp::Backend> cpu_backend(int threads, const std::string& gemm) {
  const auto platform = edp::platform::probe();
  std::vector<int> cpus = platform.online_cpus();
  if (static_cast<int>(cpus.size()) > threads) cpus.resize(static_cast<size_t>(threads));
  edp::CpuOptions options;
  options.threads = threads;
  options.cpus = cpus;
  options.gemm = gemm;
  return edp::make_cpu_backend(options);
}

int time_shapes(const std::string& impl, int threads, int samples,
                const std::vector<std::string>& shapes) {
  std::unique_ptr<edp::Backend> backend;
  if (impl == "edp-eigen" || impl == "edp-openblas" || impl == "edp-blis") {
    backend = cpu_backend(threads, impl.substr(4));
  } else if (impl == "eigen") {
    Eigen::setNbThreads(threads);
  } else if (impl == "openblas") {
#if EDPBENCH_HAVE_OPENBLAS
    openblas_set_num_threads(threads);
#endif
  } else {
    std::fprintf(stderr,
                 "edp_gemm_bench: unknown --impl '%s' (edp-eigen, edp-openblas, edp-blis, "
                 "eigen, openblas)\n",
                 impl.c_str());
    return 2;
  }
  for (const std::string& text : shapes) {
    if (text == "fma_peak" && backend) {  // the ceiling, as the ops study measures it
      auto w = edp::make_op_workload(edp::OpSpec{"fma_peak"}, *backend);
      const double t = time_calls([&] { w->step(); }, samples);
      std::printf("%s,fma_peak,%d,%.6e,%.6e\n", impl.c_str(), threads, t, w->flop_per_step());
      continue;
    }
    for (const edp::OpSpec& spec : parse_shape(text)) {
      double t = 0;
      if (backend) {
        auto w = edp::make_op_workload(spec, *backend);
        t = time_calls([&] { w->step(); }, samples);
      } else {
        Operands o(spec);
        t = time_calls(impl == "eigen" ? eigen_gemm(spec, o) : openblas_gemm(spec, o), samples);
      }
      std::printf("%s,%s,%d,%.6e,%.6e\n", impl.c_str(), shape_text(spec).c_str(), threads, t,
                  2.0 * spec.m * spec.n * spec.k);
      std::fflush(stdout);
    }
  }
  return 0;
}

// ---- where a training step's time goes ---------------------------------------

// Forwards every call to the backend it wraps and adds its wall time (the cpu
// backend's calls are synchronous) to a total per call and shape.
class TimingBackend final : public edp::Backend {
 public:
  explicit TimingBackend(edp::Backend& inner) : in_(inner) {}
  std::map<std::string, double> totals;

  std::string name() const override { return in_.name(); }
  edp::Tensor empty(int64_t r, int64_t c) override {
    return timed("empty", r, c, [&] { return in_.empty(r, c); });
  }
  void upload(const float* h, edp::Tensor& t) override { in_.upload(h, t); }
  void download(const edp::Tensor& t, float* h) override { in_.download(t, h); }
  void fill(edp::Tensor& t, float v) override {
    run("fill", t, [&] { in_.fill(t, v); });
  }
  void copy(const edp::Tensor& s, edp::Tensor& d) override {
    run("copy", s, [&] { in_.copy(s, d); });
  }
  void gemm(edp::Trans ta, edp::Trans tb, float alpha, const edp::Tensor& a, const edp::Tensor& b,
            float beta, edp::Tensor& c) override {
    const int64_t k = ta == edp::Trans::N ? a.cols() : a.rows();
    const std::string what = std::string("gemm ") + (ta == edp::Trans::T ? "T" : "N") +
                             (tb == edp::Trans::T ? "T" : "N") + (beta != 0 ? " beta=1" : "") +
                             " k=" + std::to_string(k);
    run(what.c_str(), c, [&] { in_.gemm(ta, tb, alpha, a, b, beta, c); });
  }
  void axpy(float al, const edp::Tensor& x, edp::Tensor& y) override {
    run("axpy", x, [&] { in_.axpy(al, x, y); });
  }
  void relu(const edp::Tensor& x, edp::Tensor& y) override {
    run("relu", x, [&] { in_.relu(x, y); });
  }
  void relu_backward(const edp::Tensor& g, const edp::Tensor& x, edp::Tensor& gx) override {
    run("relu_backward", x, [&] { in_.relu_backward(g, x, gx); });
  }
  void sub(const edp::Tensor& a, const edp::Tensor& b, edp::Tensor& o) override {
    run("sub", a, [&] { in_.sub(a, b, o); });
  }
  void mul(const edp::Tensor& a, const edp::Tensor& b, edp::Tensor& o) override {
    run("mul", a, [&] { in_.mul(a, b, o); });
  }
  void scale(const edp::Tensor& x, float al, edp::Tensor& o) override {
    run("scale", x, [&] { in_.scale(x, al, o); });
  }
  void square(const edp::Tensor& x, edp::Tensor& o) override {
    run("square", x, [&] { in_.square(x, o); });
  }
  void broadcast(const edp::Tensor& s, edp::Tensor& o) override {
    run("broadcast", o, [&] { in_.broadcast(s, o); });
  }
  void add(const edp::Tensor& a, const edp::Tensor& b, edp::Tensor& o) override {
    run("add", a, [&] { in_.add(a, b, o); });
  }
  void sigmoid(const edp::Tensor& x, edp::Tensor& o) override {
    run("sigmoid", x, [&] { in_.sigmoid(x, o); });
  }
  void tanh(const edp::Tensor& x, edp::Tensor& o) override {
    run("tanh", x, [&] { in_.tanh(x, o); });
  }
  void sum(const edp::Tensor& x, edp::Tensor& o) override {
    run("sum", x, [&] { in_.sum(x, o); });
  }
  void sub_square_sum(const edp::Tensor& a, const edp::Tensor& b, edp::Tensor& d,
                      edp::Tensor& o) override {
    run("sub_square_sum", a, [&] { in_.sub_square_sum(a, b, d, o); });
  }
  float read_scalar(const edp::Tensor& s) override { return in_.read_scalar(s); }
  void synchronize() override { in_.synchronize(); }

 private:
  template <class F>
  auto timed(const char* what, int64_t rows, int64_t cols, F f) -> decltype(f()) {
    const double t0 = now_s();
    auto out = f();
    totals[std::string(what) + " " + std::to_string(rows) + "x" + std::to_string(cols)] +=
        now_s() - t0;
    return out;
  }
  template <class F>
  void run(const char* what, const edp::Tensor& t, F f) {
    timed(what, t.rows(), t.cols(), [&] {
      f();
      return 0;
    });
  }
  edp::Backend& in_;
};

// The timed steps, on their own so that a simulator can count them alone:
//   valgrind --tool=callgrind --toggle-collect='*measured_steps*' --cache-sim=yes ...
// (valgrind has no AVX-512: use a build for AVX2, -DEDPBENCH_NATIVE=OFF
// -DCMAKE_CXX_FLAGS="-mavx2 -mfma").
[[gnu::noinline]] double measured_steps(edp::MlpWorkload& wl, int steps) {
  const double t0 = now_s();
  for (int i = 0; i < steps; ++i) wl.step();
  return now_s() - t0;
}

// The K split's reduction alone, as gemm_split in cpu_backend.cpp does it
// after its parts: `parts` - 1 partials of m x n added into C in part order,
// C's rows shared by the team. A backend call times it together with the
// products, so --split prints it on its own line too (ms per call, best of 5
// repetitions of 20 calls: the least disturbed by other processes).
double k_reduction_ms(int64_t m, int64_t n, int parts, int threads) {
  std::vector<float> c(static_cast<size_t>(m * n), 1.0f);
  std::vector<float> scratch(static_cast<size_t>(m * n * (parts - 1)), 0.5f);
  const int calls = 20;
  double best = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    const double t0 = now_s();
    for (int call = 0; call < calls; ++call) {
#pragma omp parallel num_threads(threads)
      {
#if defined(_OPENMP)
        const int tid = omp_get_thread_num(), team = omp_get_num_threads();
#else
        const int tid = 0, team = 1;
#endif
        const edp::cpu::Range rows = edp::cpu::part_range(m, team, tid, 1);
        for (int64_t i = rows.begin; i < rows.end; ++i) {
          Eigen::Map<Eigen::ArrayXf> ci(c.data() + i * n, n);
          for (int p = 1; p < parts; ++p)
            ci += Eigen::Map<const Eigen::ArrayXf>(scratch.data() + (p - 1) * m * n + i * n, n);
        }
      }
    }
    best = std::min(best, (now_s() - t0) / calls);
  }
  return 1e3 * best;
}

int split_step(const std::string& size, int threads, const std::string& gemm, int steps,
               const std::vector<std::string>& programs) {
  const auto it = sizes().find(size);
  if (it == sizes().end()) {
    std::fprintf(stderr, "edp_gemm_bench: --split takes small, medium or large\n");
    return 2;
  }
  auto backend = cpu_backend(threads, gemm);
  const edp::MlpData init = edp::make_initial_data(it->second, 0, 0.01);
  const edp::MlpShape& s = it->second;
  const double flop = 4.0 * s.n * s.d_in * s.h + 6.0 * s.n * s.h * s.d_out;
  for (const std::string& program : programs) {
    TimingBackend timing(*backend);
    auto wl = edp::make_mlp_workload(program, timing, init, 1e-6f);
    for (int i = 0; i < 2; ++i) wl->step();  // warm-up: pool, first touch
    timing.totals.clear();
    const double step_ms = 1e3 * measured_steps(*wl, steps) / steps;
    std::printf("%s %s, %d threads, %s: %.3f ms per step, %.1f GFLOP/s\n", program.c_str(),
                size.c_str(), threads, gemm.c_str(), step_ms, flop / step_ms / 1e6);
    std::vector<std::pair<double, std::string>> rows;
    double calls = 0;
    for (const auto& [what, t] : timing.totals) {
      rows.push_back({1e3 * t / steps, what});
      calls += 1e3 * t / steps;
    }
    std::sort(rows.rbegin(), rows.rend());
    for (const auto& [ms, what] : rows)
      std::printf("  %8.3f ms %5.1f%%  %s\n", ms, 100 * ms / step_ms, what.c_str());
    std::printf("  %8.3f ms %5.1f%%  outside the backend's calls\n", step_ms - calls,
                100 * (step_ms - calls) / step_ms);
    // x w1 (n x h, k = d_in) is the step's K-split product: its reduction.
    const edp::cpu::GemmSplit ks = edp::cpu::plan_gemm_split(s.n, s.h, s.d_in, threads);
    if (ks.dim == edp::cpu::SplitDim::K) {
      const double red_ms = k_reduction_ms(s.n, s.h, ks.parts, threads);
      std::printf(
          "  %8.3f ms %5.1f%%  of which the K split's reduction in gemm NN k=%d %dx%d "
          "(%d partials, timed alone, warm caches)\n",
          red_ms, 100 * red_ms / step_ms, static_cast<int>(s.d_in), static_cast<int>(s.n),
          static_cast<int>(s.h), ks.parts - 1);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2, samples = 5, steps = 20;
  std::string impl, split, gemm = "eigen";
  std::vector<std::string> shapes, programs{"tensors", "autograd"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a == "--threads" && more) {
      threads = std::atoi(argv[++i]);
    } else if (a == "--samples" && more) {
      samples = std::atoi(argv[++i]);
    } else if (a == "--impl" && more) {
      impl = argv[++i];
    } else if (a == "--split" && more) {
      split = argv[++i];
    } else if (a == "--gemm" && more) {
      gemm = argv[++i];
    } else if (a == "--programs" && more) {
      programs.clear();
      for (std::string rest = argv[++i]; !rest.empty();) {
        const size_t comma = rest.find(',');
        programs.push_back(rest.substr(0, comma));
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
      }
    } else if (a == "--cpu-time") {
      g_cpu_time = true;
    } else if (a == "--steps" && more) {
      steps = std::atoi(argv[++i]);
    } else if (!a.empty() && a[0] != '-') {
      shapes.push_back(a);
    } else {
      std::fprintf(stderr,
                   "usage: edp_gemm_bench --impl edp-eigen|edp-openblas|edp-blis|eigen|openblas "
                   "[--threads N] [--samples N] SHAPE...\n"
                   "       edp_gemm_bench --split small|medium|large [--threads N] "
                   "[--gemm eigen|openblas|blis] [--steps N] [--programs P,...]\n");
      return 2;
    }
  }
  if (threads < 1 || samples < 1 || steps < 1) {
    std::fprintf(stderr, "edp_gemm_bench: --threads, --samples and --steps must be >= 1\n");
    return 2;
  }
  if (!split.empty()) return split_step(split, threads, gemm, steps, programs);
  if (impl.empty() || shapes.empty()) {
    std::fprintf(stderr, "edp_gemm_bench: give --impl and at least one shape (or --split)\n");
    return 2;
  }
  return time_shapes(impl, threads, samples, shapes);
}
