// The protocol's own cost per step (issue 11 item 2) and the GEMM call
// counts per step (item 5). Every figure comes through the real code path:
// the batch study's plan items, measured by run_protocol, with the `empty`
// workload (a step that does nothing) in place of the MLP for the overhead.
// Prints the median time per step of `empty` next to that of each program at
// each N on the batch shapes, and their ratio (the share of a step that is
// protocol). Figures are in docs/benchmarks.md.
//
//   edp_protocol_overhead [--device cpu|reference] [--threads T] [--size NAME]
//                         [--n 1,2,4,8] [--programs tensors,...] [--steps S]
//                         [--runs R] [--progress none|plain|tty] [--trace FILE]
//                         [--counts-only]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/protocol/backend_setup.h"
#include "bench/protocol/protocol.h"
#include "bench/studies/batch/batch_study.h"
#include "bench/studies/config_schema.h"
#include "common/text.h"
#include "workloads/counting_backend.h"
#include "workloads/empty_workload.h"
#include "workloads/mlp_step.h"

namespace {

using namespace edp;

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, ',');)
    if (!part.empty()) out.push_back(part);
  return out;
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Median over the runs of the time per step (window / blocks / steps).
double step_s(const report::ItemRecord& rec, int steps) {
  std::vector<double> t;
  for (const auto& r : rec.parts.at(0).run_records) t.push_back(r.time_s / steps);
  return median(t);
}

struct Options {
  std::string device = "cpu", size = "medium", progress = "plain", trace;
  int threads = 1, steps = 500, runs = 5;
  std::vector<std::string> n{"1", "2", "4", "8"}, programs{"tensors"};
  bool counts_only = false;
};

std::string config_yaml(const Options& o) {
  std::string dev =
      "{kind: " + o.device +
      (o.device == "cpu" ? ", gemm: eigen, threads: " + std::to_string(o.threads) : std::string()) +
      "}";
  std::string power = o.trace.empty()
                          ? "{source: none, baseline_s: 0}"
                          : "{source: trace, baseline_s: 0, trace: {file: \"" + o.trace + "\"}}";
  return "studies: [batch]\niterations: " + std::to_string(o.steps) +
         "\nruns: " + std::to_string(o.runs) + "\nwarmup_iterations: 10\nworkloads: [" +
         join(o.programs) + "]\nbatch: {sizes: [" + o.size + "], n: [" + join(o.n) +
         "]}\ndevices: [" + dev + "]\npower: " + power + "\n";
}

// Calls per step of every program on the reference and cpu backends, through
// the counting decorator (the second step: the first may allocate).
void print_counts(const bench::Config& cfg, const bench::Session& session, const Options& o) {
  const bench::SizeSpec* size = nullptr;
  for (const auto& z : cfg.sizes)
    if (z.name == o.size) size = &z;
  std::printf("\nBackend calls per training step (%s layers D_in=%lld H=%lld D_out=%lld):\n",
              o.size.c_str(), static_cast<long long>(size->d_in), static_cast<long long>(size->h),
              static_cast<long long>(size->d_out));
  std::printf("%-12s %-10s %5s %8s %5s %5s %5s", "program", "backend", "gemm", "batched", "ew",
              "red", "mem");
  for (const auto& n : o.n) std::printf("  GFLOP@N=%-4s", n.c_str());
  std::printf("\n");
  for (const char* program_name : {"tensors", "autograd", "custom_relu"})
    for (const char* kind_name : {"reference", "cpu"}) {
      const std::string program = program_name, kind = kind_name;
      bench::DeviceSpec dev;
      dev.kind = kind;
      dev.label = kind;
      dev.threads = o.threads;
      dev.gemm = "eigen";
      bench::BackendSetup setup = bench::make_backend_for(dev, cfg, session.platform());
      CallCounts first{};
      std::vector<double> gflop;
      for (const auto& n_text : o.n) {
        const MlpShape shape{std::atoll(n_text.c_str()), size->d_in, size->h, size->d_out};
        CountingBackend cb(*setup.backend);
        auto wl = make_mlp_step(program, cb, make_initial_data(shape, cfg.seed, cfg.init_scale),
                                static_cast<float>(cfg.learning_rate));
        wl->step();
        cb.reset_counts();
        wl->step();
        if (gflop.empty()) first = cb.counts();
        gflop.push_back(cb.counts().gemm_flop / 1e9);
      }
      std::printf("%-12s %-10s %5lld %8lld %5lld %5lld %5lld", program.c_str(), kind.c_str(),
                  static_cast<long long>(first.gemm), static_cast<long long>(first.batched_gemm),
                  static_cast<long long>(first.elementwise),
                  static_cast<long long>(first.reduction), static_cast<long long>(first.memory));
      for (double g : gflop) std::printf("  %-12.4g", g);
      std::printf("\n");
    }
  std::printf(
      "(gemm: Backend::gemm calls, one SGEMM each; batched: batched-GEMM calls, none "
      "of our backends has one; ew: element-wise calls incl. axpy; red: reductions; "
      "mem: allocations, fills, copies)\n");
}

int run(const Options& o) {
  const bench::Config cfg = bench::parse_config(config_yaml(o), "edp_protocol_overhead");
  bench::Session session(bench::session_options(cfg, ""));
  session.throw_problems();
  session.start();
  std::unique_ptr<bench::Progress> progress;
  if (o.progress != "none") progress = std::make_unique<bench::Progress>(1e30, o.progress == "tty");
  bench::GemmChooser gemm_chooser;
  bench::ProtocolHooks hooks(cfg);
  hooks.progress = progress.get();
  hooks.gemm_chooser = &gemm_chooser;

  if (!o.counts_only) {
    const std::vector<bench::PlanItem> items = bench::make_batch_study()->plan(cfg);
    if (items.empty()) throw std::runtime_error("no plan items (unknown size?)");
    bench::PlanItem empty = items.front();
    empty.parts = {{"empty", [](Backend& be) { return make_empty_workload(be); }}};
    empty.key += "/empty";
    empty.label = "empty/" + o.device;
    empty.flop_estimate = 0;
    const double empty_s = step_s(bench::run_protocol(session, hooks, empty), o.steps);
    std::printf("protocol overhead on %s (%s, power %s, %d steps x %d runs, progress %s)\n",
                o.device.c_str(),
                o.device == "cpu" ? (std::to_string(o.threads) + " thread(s)").c_str() : "-",
                session.meter().source_name().c_str(), o.steps, o.runs, o.progress.c_str());
    std::printf("empty step: %.1f ns (median over runs)\n\n", empty_s * 1e9);
    std::printf("%-12s %5s %14s %14s %12s\n", "program", "N", "step (us)", "per sample (us)",
                "empty/step");
    for (const auto& item : items) {
      const double t = step_s(bench::run_protocol(session, hooks, item), o.steps);
      std::printf("%-12s %5lld %14.2f %14.2f %11.4f%%\n", item.parts.at(0).name.c_str(),
                  static_cast<long long>(item.values.at("n")), t * 1e6,
                  t * 1e6 / item.values.at("n"), 100.0 * empty_s / t);
    }
  }
  if (progress) progress->finish();
  print_counts(cfg, session, o);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--device") {
      o.device = value();
    } else if (arg == "--threads") {
      o.threads = std::atoi(value().c_str());
    } else if (arg == "--size") {
      o.size = value();
    } else if (arg == "--n") {
      o.n = split(value());
    } else if (arg == "--programs") {
      o.programs = split(value());
    } else if (arg == "--steps") {
      o.steps = std::atoi(value().c_str());
    } else if (arg == "--runs") {
      o.runs = std::atoi(value().c_str());
    } else if (arg == "--progress") {
      o.progress = value();
    } else if (arg == "--trace") {
      o.trace = value();
    } else if (arg == "--counts-only") {
      o.counts_only = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--device cpu|reference] [--threads T] [--size NAME] [--n 1,2,4,8]\n"
                   "       [--programs tensors,...] [--steps S] [--runs R]\n"
                   "       [--progress none|plain|tty] [--trace FILE] [--counts-only]\n",
                   argv[0]);
      return arg == "--help" ? 0 : 2;
    }
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "edp_protocol_overhead: %s\n", e.what());
    return 1;
  }
}
