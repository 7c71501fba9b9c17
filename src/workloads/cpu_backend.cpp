#include "workloads/cpu_backend.h"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <Eigen/Core>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "edpbench/config.h"
#include "workloads/cache_flush.h"
#include "workloads/cpu_blis.h"
#include "workloads/cpu_elementwise.h"
#include "workloads/cpu_fma_peak.h"
#include "workloads/cpu_gemm.h"
#include "workloads/host_backend.h"

#if defined(_OPENMP)
#include <omp.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <pmmintrin.h>
#include <xmmintrin.h>
#endif
#if EDPBENCH_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace edp {

void enable_flush_to_zero() {
#if defined(__x86_64__) || defined(__i386__)
  _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
  _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
#elif defined(__aarch64__)
  // FPCR.FZ (bit 24) flushes denormal inputs and outputs to zero (Arm ARM,
  // "FPCR, Floating-point Control Register").
  uint64_t fpcr;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  fpcr |= (uint64_t{1} << 24);
  __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}

bool cpu_has_openblas() { return EDPBENCH_HAVE_OPENBLAS != 0; }

std::string cpu_gemm_path_problem(const std::string& path) {
  const std::vector<std::string> paths = cpu_gemm_paths();
  if (std::find(paths.begin(), paths.end(), path) != paths.end()) return "";
  if (path == "openblas")
    return "cpu gemm: openblas requested but this build has no OpenBLAS (install "
           "libopenblas-dev and reconfigure, or use gemm: eigen|auto)";
  if (path == "blis")
    return "cpu gemm: blis requested, but " + cpu::blis_unusable_reason() +
           " (or use gemm: eigen|auto)";
  return "cpu gemm: unknown path '" + path + "' (expected auto, eigen, openblas or blis)";
}

std::vector<std::string> cpu_gemm_paths() {
  std::vector<std::string> p{"eigen"};
  if (cpu_has_openblas()) p.push_back("openblas");
  if (cpu::blis_available()) p.push_back("blis");
  return p;
}

std::vector<std::string> cpu_auto_gemm_paths() {
  if (cpu_has_openblas()) return {"openblas", "eigen"};
  if (cpu::blis_available()) return {"blis", "eigen"};
  return {"eigen"};
}

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatMap = Eigen::Map<RowMatrix, Eigen::Aligned64>;
using ConstMatMap = Eigen::Map<const RowMatrix, Eigen::Aligned64>;
using ArrMap = Eigen::Map<Eigen::ArrayXf>;
using ConstArrMap = Eigen::Map<const Eigen::ArrayXf>;

// Below this many elements an element-wise op runs on the calling thread:
// waking the team costs more than the work.
constexpr int64_t kParallelMin = 1 << 15;

int online_cpus() {
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

// Eigen allocates its GEMM packing buffers (tens to hundreds of KiB) on
// every call and frees them after. With glibc's defaults the freed top of the
// heap is trimmed and handed back to the kernel, so the next call faults the
// same pages in again: at the small size that was a quarter of a 1-thread
// training step (4.5 instead of 3.3 ms), and it depended on the process's
// heap history, which made Eigen against OpenBLAS a coin toss between
// sweeps. Keep freed memory in the process instead (process-wide, set once;
// glibc only). Both settings are needed: setting either one fixes the
// otherwise adaptive mmap threshold at 128 KiB.
void keep_freed_heap() {
#if defined(__GLIBC__)
  static const bool once = [] {
    ::mallopt(M_MMAP_THRESHOLD, 32 << 20);   // glibc's maximum on 64-bit
    ::mallopt(M_TRIM_THRESHOLD, 512 << 20);  // trim only beyond 512 MiB free at the top
    return true;
  }();
  (void)once;
#endif
}

enum class GemmPath { Eigen, OpenBlas, Blis };

GemmPath path_of(const std::string& name) {
  return name == "openblas" ? GemmPath::OpenBlas
         : name == "blis"   ? GemmPath::Blis
                            : GemmPath::Eigen;
}

const char* path_name(GemmPath p) {
  return p == GemmPath::OpenBlas ? "openblas" : p == GemmPath::Blis ? "blis" : "eigen";
}

class CpuBackend final : public HostBackend {
 public:
  explicit CpuBackend(const CpuOptions& o)
      : cpus_(o.cpus), stream_min_bytes_(last_level_cache_bytes()) {
    threads_ = o.threads > 0 ? o.threads
                             : (cpus_.empty() ? online_cpus() : static_cast<int>(cpus_.size()));
    ::pthread_getaffinity_np(::pthread_self(), sizeof(saved_mask_), &saved_mask_);
    keep_freed_heap();
    pin_team();
#if EDPBENCH_HAVE_OPENBLAS
    // The backend splits each GEMM over its own team (workloads/cpu_gemm.h):
    // OpenBLAS runs on the thread that calls it, its pool stays asleep.
    openblas_set_num_threads(1);
#endif
    if (o.gemm == "auto") {
      gemm_choice_ = cpu_auto_gemm_paths().size() > 1
                         ? "eigen (not yet measured)"
                         : "eigen (the only GEMM path: OpenBLAS and BLIS are not in "
                           "this build, or not usable here)";
    } else if (o.gemm == "eigen" || o.gemm == "openblas" || o.gemm == "blis") {
      if (const std::string why = cpu_gemm_path_problem(o.gemm); !why.empty())
        throw std::runtime_error(why);
      path_ = path_of(o.gemm);
      gemm_choice_ = o.gemm + " (configured)";
    } else {
      throw std::invalid_argument("cpu gemm: unknown path '" + o.gemm +
                                  "' (expected auto, eigen, openblas or blis)");
    }
  }

  ~CpuBackend() override {
    // Give the calling thread back the CPUs it had before this backend.
    ::pthread_setaffinity_np(::pthread_self(), sizeof(saved_mask_), &saved_mask_);
  }

  std::string name() const override { return "cpu"; }

  std::map<std::string, std::string> describe() const override {
    std::string cpus;
    for (int c : cpus_) cpus += (cpus.empty() ? "" : ",") + std::to_string(c);
    std::map<std::string, std::string> d{
        {"backend", "cpu"},
        {"threads", std::to_string(threads_)},
        {"cpus", cpus.empty() ? "unpinned" : cpus},
        {"gemm_path", path_name(path_)},
        {"gemm_choice", gemm_choice_},
        {"eigen_version", std::to_string(EIGEN_WORLD_VERSION) + "." +
                              std::to_string(EIGEN_MAJOR_VERSION) + "." +
                              std::to_string(EIGEN_MINOR_VERSION)},
        {"eigen_simd", Eigen::SimdInstructionSetsInUse()},
        {"flush_to_zero", "on"},
        {"streaming_stores",
         cpu::streaming_stores_available()
             ? "element-wise outputs of working sets >= " + std::to_string(stream_min_bytes_) +
                   " bytes (the last-level cache)"
             : "none (AArch64: the core's write streaming mode)"}};
#if EDPBENCH_HAVE_OPENBLAS
    d["openblas_config"] = openblas_get_config();
#endif
    for (auto& [k, v] : cpu::blis_facts()) d[k] = v;
    return d;
  }

  void fill(Tensor& t, float value) override {
    for_chunks(t.numel(), [&](int64_t b, int64_t n) { arr(t, b, n).setConstant(value); });
  }
  void copy(const Tensor& src, Tensor& dst) override {
    check_same_shape("copy", src, dst);
    const bool stream = streams(src.numel(), 2);
    for_chunks(src.numel(), [&](int64_t b, int64_t n) {
      cpu::copy_chunk(src.data() + b, dst.data() + b, n, stream);
    });
  }

  void gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b, float beta,
            Tensor& c) override {
    check_gemm_shapes(ta, tb, a, b, c);
    const int64_t m = c.rows(), n = c.cols(), k = ta == Trans::N ? a.cols() : a.rows();
    GemmArgs g{ta, tb, m, n, k, alpha, a.data(), a.cols(), b.data(), b.cols(), beta, c.data(), n};
    const cpu::GemmSplit split = cpu::plan_gemm_split(m, n, k, threads_);
    if (split.parts < 2) {
      kernel(g);
      return;
    }
    gemm_split(g, split);
  }

  void axpy(float alpha, const Tensor& x, Tensor& y) override {
    check_same_shape("axpy", x, y);
    for_chunks(x.numel(), [&](int64_t b, int64_t n) { arr(y, b, n) += alpha * carr(x, b, n); });
  }
  void relu(const Tensor& x, Tensor& y) override {
    check_same_shape("relu", x, y);
    // select(x < 0, 0, x) rather than max(x, 0): it keeps NaN, as the other
    // backends do, where SIMD max may return either operand.
    for_chunks(x.numel(), [&](int64_t b, int64_t n) {
      arr(y, b, n) = (carr(x, b, n) < 0.0f).select(0.0f, carr(x, b, n));
    });
  }
  void relu_backward(const Tensor& gy, const Tensor& x, Tensor& gx) override {
    check_same_shape("relu_backward", gy, x);
    check_same_shape("relu_backward", x, gx);
    for_chunks(x.numel(), [&](int64_t b, int64_t n) {
      arr(gx, b, n) = (carr(x, b, n) < 0.0f).select(0.0f, carr(gy, b, n));
    });
  }
  void sub(const Tensor& a, const Tensor& b, Tensor& out) override {
    check_same_shape("sub", a, b);
    check_same_shape("sub", a, out);
    for_chunks(a.numel(),
               [&](int64_t s, int64_t n) { arr(out, s, n) = carr(a, s, n) - carr(b, s, n); });
  }
  void mul(const Tensor& a, const Tensor& b, Tensor& out) override {
    check_same_shape("mul", a, b);
    check_same_shape("mul", a, out);
    const bool stream = streams(a.numel(), 3);
    for_chunks(a.numel(), [&](int64_t s, int64_t n) {
      cpu::mul_chunk(a.data() + s, b.data() + s, out.data() + s, n, stream);
    });
  }
  void scale(const Tensor& x, float alpha, Tensor& out) override {
    check_same_shape("scale", x, out);
    const bool stream = streams(x.numel(), 2);
    for_chunks(x.numel(), [&](int64_t b, int64_t n) {
      cpu::scale_chunk(x.data() + b, alpha, out.data() + b, n, stream);
    });
  }
  void square(const Tensor& x, Tensor& out) override {
    check_same_shape("square", x, out);
    for_chunks(x.numel(), [&](int64_t b, int64_t n) { arr(out, b, n) = carr(x, b, n).square(); });
  }
  void broadcast(const Tensor& s, Tensor& out) override {
    check_scalar("broadcast", s);
    const float v = s.data()[0];
    for_chunks(out.numel(), [&](int64_t b, int64_t n) { arr(out, b, n).setConstant(v); });
  }
  void sum(const Tensor& x, Tensor& out) override {
    check_scalar("sum", out);
    out.data()[0] = static_cast<float>(reduce(
        x.numel(), [&](int64_t b, int64_t n) { return carr(x, b, n).cast<double>().sum(); }));
  }
  void sub_square_sum(const Tensor& a, const Tensor& b, Tensor& diff, Tensor& out) override {
    check_same_shape("sub_square_sum", a, b);
    check_same_shape("sub_square_sum", a, diff);
    check_scalar("sub_square_sum", out);
    out.data()[0] = static_cast<float>(reduce(a.numel(), [&](int64_t s, int64_t n) {
      auto d = arr(diff, s, n);
      d = carr(a, s, n) - carr(b, s, n);
      return d.cast<double>().square().sum();
    }));
  }

  std::vector<std::string> gemm_paths() const override {
    std::vector<std::string> p = cpu_auto_gemm_paths();
    if (p.size() < 2) p.clear();  // one path: nothing to choose
    return p;
  }
  void set_gemm_path(const std::string& path, const std::string& why) override {
    const std::vector<std::string> paths = cpu_gemm_paths();
    if (std::find(paths.begin(), paths.end(), path) == paths.end())
      throw std::invalid_argument("cpu gemm: no path '" + path + "' in this build");
    path_ = path_of(path);
    gemm_choice_ = path + " (" + why + ")";
  }

  // ---- operator workloads (kernels: cpu_elementwise.cpp, cpu_fma_peak.cpp) ---
  void add(const Tensor& a, const Tensor& b, Tensor& out) override {
    check_same_shape("add", a, b);
    check_same_shape("add", a, out);
    const bool stream = streams(a.numel(), 3);
    for_chunks(a.numel(), [&](int64_t s, int64_t n) {
      cpu::add_chunk(a.data() + s, b.data() + s, out.data() + s, n, stream);
    });
  }
  void sigmoid(const Tensor& x, Tensor& out) override {
    check_same_shape("sigmoid", x, out);
    const bool stream = streams(x.numel(), 2);
    for_chunks(x.numel(), [&](int64_t s, int64_t n) {
      cpu::sigmoid_chunk(x.data() + s, out.data() + s, n, stream);
    });
  }
  void tanh(const Tensor& x, Tensor& out) override {
    check_same_shape("tanh", x, out);
    const bool stream = streams(x.numel(), 2);
    for_chunks(x.numel(), [&](int64_t s, int64_t n) {
      cpu::tanh_chunk(x.data() + s, out.data() + s, n, stream);
    });
  }
  // Every pinned worker runs the chains at once: per-core rate x threads.
  double fma_peak_flop(int64_t rounds) const override {
    return threads_ * cpu::fma_peak_flop_per_worker(rounds);
  }
  void fma_peak(int64_t rounds, Tensor& sink) override {
    check_scalar("fma_peak", sink);
    std::vector<float> partial(static_cast<size_t>(threads_), 0.0f);
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (int t = 0; t < threads_; ++t)
      partial[static_cast<size_t>(t)] = cpu::fma_peak_worker(rounds);
    float total = 0.0f;
    for (float p : partial) total += p;
    sink.data()[0] = total;
  }

 private:
  static ArrMap arr(Tensor& t, int64_t begin, int64_t n) { return ArrMap(t.data() + begin, n); }
  static ConstArrMap carr(const Tensor& t, int64_t begin, int64_t n) {
    return ConstArrMap(t.data() + begin, n);
  }

  // Whether an element-wise op over `arrays` arrays of n floats streams its
  // output (cpu_elementwise.h): when its working set does not fit the
  // last-level cache, the output would not survive in it anyway.
  bool streams(int64_t n, int arrays) const {
    return static_cast<double>(n) * 4.0 * arrays >= static_cast<double>(stream_min_bytes_);
  }

  // Splits [0, n) into one contiguous chunk per thread (cache-line aligned).
  template <class F>
  void for_chunks(int64_t n, F f) {
    if (n < kParallelMin || threads_ == 1) {
      f(0, n);
      return;
    }
    const int64_t per = ((n + threads_ - 1) / threads_ + 15) / 16 * 16;
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (int t = 0; t < threads_; ++t) {
      const int64_t b = t * per;
      if (b < n) f(b, std::min(per, n - b));
    }
  }

  template <class F>
  double reduce(int64_t n, F f) {
    if (n < kParallelMin || threads_ == 1) return f(0, n);
    const int64_t per = ((n + threads_ - 1) / threads_ + 15) / 16 * 16;
    std::vector<double> partial(static_cast<size_t>(threads_), 0.0);
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (int t = 0; t < threads_; ++t) {
      const int64_t b = t * per;
      if (b < n) partial[static_cast<size_t>(t)] = f(b, std::min(per, n - b));
    }
    double total = 0;
    for (double p : partial) total += p;  // fixed order: deterministic
    return total;
  }

  // Pins OpenMP worker i to cpus[i % size] and turns on FTZ/DAZ in every
  // worker (MXCSR/FPCR are per thread). libgomp reuses the same pool threads
  // for later teams of the same size, which Eigen's GEMM also uses.
  void pin_team() {
    // Exceptions must not leave an OpenMP region: collect the first failure.
    std::vector<int> failed(static_cast<size_t>(threads_), 0);
    auto setup = [&](int tid) {
      enable_flush_to_zero();
      if (cpus_.empty()) return;
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpus_[static_cast<size_t>(tid) % cpus_.size()], &set);
      failed[static_cast<size_t>(tid)] =
          ::pthread_setaffinity_np(::pthread_self(), sizeof(set), &set);
    };
#if defined(_OPENMP)
#pragma omp parallel num_threads(threads_)
    setup(omp_get_thread_num());
#else
    setup(0);
#endif
#if EDPBENCH_HAVE_OPENBLAS
    // OpenBLAS has its own pthread pool, created when the library loaded
    // (before any pinning): pin its workers too, or the OpenBLAS GEMM path
    // would run outside the configured CPU set. Worker i of OpenBLAS's pool
    // helps the calling thread (OpenMP worker 0), so it takes cpus[i + 1].
    if (!cpus_.empty()) {
      openblas_set_num_threads(threads_);
      for (int i = 0; i + 1 < threads_; ++i) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpus_[static_cast<size_t>(i + 1) % cpus_.size()], &set);
        if (openblas_setaffinity(i, sizeof(set), &set) != 0 && failed[0] == 0)
          failed[static_cast<size_t>(i + 1)] = errno ? errno : EINVAL;
      }
    }
#endif
    for (int tid = 0; tid < threads_; ++tid) {
      if (const int err = failed[static_cast<size_t>(tid)]) {
        ::pthread_setaffinity_np(::pthread_self(), sizeof(saved_mask_), &saved_mask_);
        throw std::runtime_error(
            "cannot pin CPU worker " + std::to_string(tid) + " to CPU " +
            std::to_string(cpus_[static_cast<size_t>(tid) % cpus_.size()]) + ": " +
            std::strerror(err) +
            " (is the CPU online, and allowed to this process? see `edpbench probe` and "
            "the cgroup's cpuset)");
      }
    }
  }

  // One row-major GEMM on strided operands (the cblas convention): op(A) is
  // m x k, op(B) k x n, C m x n with leading dimensions lda, ldb, ldc.
  struct GemmArgs {
    Trans ta, tb;
    int64_t m, n, k;
    float alpha;
    const float* a;
    int64_t lda;
    const float* b;
    int64_t ldb;
    float beta;
    float* c;
    int64_t ldc;
  };

  // The part of g that `r` selects along `dim`, with `beta`.
  static GemmArgs part_of(const GemmArgs& g, cpu::SplitDim dim, cpu::Range r) {
    GemmArgs p = g;
    const int64_t len = r.end - r.begin;
    if (dim == cpu::SplitDim::M) {  // rows of op(A) and of C
      p.m = len;
      p.a += g.ta == Trans::N ? r.begin * g.lda : r.begin;
      p.c += r.begin * g.ldc;
    } else if (dim == cpu::SplitDim::N) {  // columns of op(B) and of C
      p.n = len;
      p.b += g.tb == Trans::N ? r.begin : r.begin * g.ldb;
      p.c += r.begin;
    } else if (dim == cpu::SplitDim::K) {  // columns of op(A), rows of op(B)
      p.k = len;
      p.a += g.ta == Trans::N ? r.begin : r.begin * g.lda;
      p.b += g.tb == Trans::N ? r.begin * g.ldb : r.begin;
    }
    return p;
  }

  // Runs the parts on the team. Parts of a K split other than the first go
  // to scratch partials that are then added into C in a fixed order, so the
  // result depends on the thread count only.
  void gemm_split(const GemmArgs& g, cpu::GemmSplit split) {
    const int parts = split.parts;
    const bool by_k = split.dim == cpu::SplitDim::K;
    const int64_t mn = g.m * g.n;
    if (by_k) {
      const size_t need = static_cast<size_t>(mn * (parts - 1));
      if (scratch_.size() < need) scratch_.resize(need);
    }
    float* scratch = scratch_.data();
    // Aligned to 16 floats along N and K (whole SIMD vectors and cache
    // lines), 8 along M (a multiple of every micro-kernel's row count).
    const int64_t total = split.dim == cpu::SplitDim::M ? g.m : by_k ? g.k : g.n;
    const int64_t align = split.dim == cpu::SplitDim::M ? 8 : 16;
#pragma omp parallel num_threads(threads_)
    {
#if defined(_OPENMP)
      const int tid = omp_get_thread_num(), team = omp_get_num_threads();
#else
      const int tid = 0, team = 1;
#endif
#pragma omp for schedule(dynamic, 1)
      for (int p = 0; p < parts; ++p) {
        GemmArgs part = part_of(g, split.dim, cpu::part_range(total, parts, p, align));
        if (by_k && p > 0) {
          part.beta = 0.0f;
          part.c = scratch + static_cast<int64_t>(p - 1) * mn;
          part.ldc = g.n;
        }
        kernel(part);
      }
      if (by_k) {  // after the implicit barrier of the loop above
        const cpu::Range rows = cpu::part_range(g.m, team, tid, 1);
        for (int64_t i = rows.begin; i < rows.end; ++i) {
          Eigen::Map<Eigen::ArrayXf> ci(g.c + i * g.ldc, g.n);
          for (int p = 1; p < parts; ++p)
            ci += Eigen::Map<const Eigen::ArrayXf>(scratch + (p - 1) * mn + i * g.n, g.n);
        }
      }
    }
  }

  // A single-threaded GEMM on the calling thread, by the chosen path.
  void kernel(const GemmArgs& g) {
    if (g.m == 0 || g.n == 0) return;
    // The rank-k kernel stands in for Eigen only: a configured OpenBLAS or
    // BLIS path runs every GEMM, as context.json's gemm_path says.
    if (path_ == GemmPath::OpenBlas)
      kernel_openblas(g);
    else if (path_ == GemmPath::Blis)
      cpu::blis_sgemm(g.ta == Trans::T, g.tb == Trans::T, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b,
                      g.ldb, g.beta, g.c, g.ldc);
    else if (g.k >= 1 && g.k <= kSmallK && g.tb == Trans::N)
      kernel_small_k(g);
    else
      kernel_eigen(g);
  }

  // A product of inner dimension k <= 4 (the weight gradients at batch sizes
  // 1 to 4: x^T grad_h is 15000 x N times N x 100) is a rank-k update bound
  // by writing C. Eigen packs both operands and, for beta = 0, sweeps C
  // twice (zeroes it, then accumulates): at k = 1 on 15000 x 100 that took
  // 296 us against 143 us for beta = 1. Here each element of C is read (if
  // beta != 0) and written once, the k rows of B stay in L1, and the k
  // products are summed in order p = 0..k-1. For op(B) = B only, whose rows
  // are contiguous. Beyond k = 4 the k loads of B per element of C cost more
  // than the second sweep (k = 8, beta = 1: 231 us against Eigen's 157 us),
  // and Eigen's register blocking, which reuses B across rows, wins.
  static constexpr int64_t kSmallK = 4;
  template <int K>
  static void small_k_rows(const GemmArgs& g) {
    const float* b = g.b;
    const int64_t ldb = g.ldb, n = g.n;
    for (int64_t i = 0; i < g.m; ++i) {
      float s[K];
      for (int p = 0; p < K; ++p)
        s[p] = g.alpha * (g.ta == Trans::N ? g.a[i * g.lda + p] : g.a[p * g.lda + i]);
      float* c = g.c + i * g.ldc;
      if (g.beta == 0.0f) {  // C is not read: it may hold NaN
#pragma omp simd
        for (int64_t j = 0; j < n; ++j) {
          float acc = s[0] * b[j];
          for (int p = 1; p < K; ++p) acc += s[p] * b[p * ldb + j];
          c[j] = acc;
        }
      } else {
        const float beta = g.beta;
#pragma omp simd
        for (int64_t j = 0; j < n; ++j) {
          float acc = beta * c[j];
          for (int p = 0; p < K; ++p) acc += s[p] * b[p * ldb + j];
          c[j] = acc;
        }
      }
    }
  }
  static void kernel_small_k(const GemmArgs& g) {
    switch (g.k) {
      case 1:
        return small_k_rows<1>(g);
      case 2:
        return small_k_rows<2>(g);
      case 3:
        return small_k_rows<3>(g);
      default:
        return small_k_rows<4>(g);
    }
  }

  static void kernel_eigen(const GemmArgs& g) {
    using Stride = Eigen::OuterStride<>;
    using ConstStrided = Eigen::Map<const RowMatrix, Eigen::Unaligned, Stride>;
    using Strided = Eigen::Map<RowMatrix, Eigen::Unaligned, Stride>;
    Eigen::setNbThreads(1);  // the backend does its own splitting
    ConstStrided A(g.a, g.ta == Trans::N ? g.m : g.k, g.ta == Trans::N ? g.k : g.m, Stride(g.lda));
    ConstStrided B(g.b, g.tb == Trans::N ? g.k : g.n, g.tb == Trans::N ? g.n : g.k, Stride(g.ldb));
    Strided C(g.c, g.m, g.n, Stride(g.ldc));
    if (g.beta == 0.0f) {
      C.setZero();  // C may hold NaN, which 0 * C would keep
    } else if (g.beta != 1.0f) {
      C *= g.beta;
    }
    if (g.k == 0) return;
    // Each branch is one GEMM call that accumulates into C (no temporary).
    if (g.ta == Trans::N && g.tb == Trans::N)
      C.noalias() += g.alpha * A * B;
    else if (g.ta == Trans::T && g.tb == Trans::N)
      C.noalias() += g.alpha * A.transpose() * B;
    else if (g.ta == Trans::N && g.tb == Trans::T)
      C.noalias() += g.alpha * A * B.transpose();
    else
      C.noalias() += g.alpha * A.transpose() * B.transpose();
  }

  static void kernel_openblas([[maybe_unused]] const GemmArgs& g) {
#if EDPBENCH_HAVE_OPENBLAS
    // OpenBLAS runs on the calling thread (openblas_set_num_threads(1) in the
    // constructor); concurrent calls from the team are safe in its threaded
    // builds, which lock their buffer allocation.
    cblas_sgemm(CblasRowMajor, g.ta == Trans::N ? CblasNoTrans : CblasTrans,
                g.tb == Trans::N ? CblasNoTrans : CblasTrans, static_cast<int>(g.m),
                static_cast<int>(g.n), static_cast<int>(g.k), g.alpha, g.a, static_cast<int>(g.lda),
                g.b, static_cast<int>(g.ldb), g.beta, g.c, static_cast<int>(g.ldc));
#endif
  }

  std::vector<float> scratch_;  // partials of K-split GEMMs
  std::vector<int> cpus_;
  int threads_ = 1;
  int64_t stream_min_bytes_;
  GemmPath path_ = GemmPath::Eigen;
  std::string gemm_choice_;
  cpu_set_t saved_mask_{};
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(const CpuOptions& options) {
  return std::make_unique<CpuBackend>(options);
}

}  // namespace edp
