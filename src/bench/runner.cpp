#include "bench/runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <memory>
#include <thread>

#include "bench/backend_setup.h"
#include "bench/gemm_choice.h"
#include "bench/progress.h"
#include "bench/results_store.h"
#include "bench/signals.h"
#include "common/errors.h"
#include "common/json.h"
#include "edpbench/config.h"
#include "platform/platform.h"
#include "power/energy_meter.h"
#include "report/csv.h"
#include "report/results_csv.h"
#include "workloads/cuda_factory.h"
#include "workloads/mlp.h"

namespace edp::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

power::PowerOptions power_options(const PowerConfig& p, const std::string& sysfs_root) {
  power::PowerOptions o;
  o.source = p.source;
  o.sysfs_root = sysfs_root;
  o.rate_hz = p.rate_hz;
  o.sampler_cpu = p.sampler_cpu;
  o.ina226 = p.ina226;
  o.trace_file = p.trace.file;
  o.trace_loop = p.trace.loop;
  return o;
}

// Everything a sweep shares between configurations.
struct Sweep {
  const Config& cfg;
  platform::Prober prober;
  power::EnergyMeter meter;
  std::vector<std::string> total_rails;  // rails that make "energy"
  std::map<std::string, double> idle_w;  // per rail
  double idle_total_w = NAN;
  std::map<std::string, std::map<std::string, std::string>> backends;  // device -> describe()
  std::unique_ptr<Progress> progress;
  std::string start_time = utc_now();
  int measured_ok = 0;
  GemmChooser gemm_chooser{};  // `gemm: auto`, one decision per shape, threads and CPUs
};

double idle_total(const Sweep& s) {
  if (s.idle_w.empty()) return NAN;
  double total = 0;
  for (const auto& rail : s.total_rails) {
    auto it = s.idle_w.find(rail);
    if (it == s.idle_w.end()) return NAN;
    total += it->second;
  }
  return total;
}

void measure_baseline(Sweep& s) {
  if (!s.meter.measures_energy() || s.cfg.power.baseline_s <= 0) return;
  if (s.progress)
    s.progress->line("edpbench: measuring idle power for " + fmt("%.1f", s.cfg.power.baseline_s) +
                     " s");
  s.idle_w = s.meter.measure_idle_w(s.cfg.power.baseline_s, [] { return stop_signal() == 0; });
  throw_if_stop_requested();
  for (const auto& rail : s.total_rails)
    if (!s.idle_w.count(rail) && s.progress)
      s.progress->line("edpbench: warning: no idle baseline for " + rail +
                       " (its reads failed); dynamic energy stays empty");
  s.idle_total_w = idle_total(s);
}

std::string context_json(const Sweep& s, bool complete) {
  JsonObject ctx;
  ctx.set("edpbench_version", EDPBENCH_VERSION);
  ctx.set("complete", complete);
  ctx.set("start_time", s.start_time);
  ctx.set("end_time", utc_now());
  ctx.set("config_file", s.cfg.source_path);
  ctx.set("config_yaml", to_yaml(s.cfg));
  ctx.set_raw("board", platform::to_json(s.prober.platform()));
  JsonObject build;
  build.set("compiler", EDPBENCH_CXX_COMPILER);
  build.set("cuda", EDPBENCH_HAVE_CUDA != 0);
  build.set("cudnn", EDPBENCH_HAVE_CUDNN != 0);
  build.set("openblas", EDPBENCH_HAVE_OPENBLAS != 0);
  build.set("cuda_architectures", EDPBENCH_CUDA_ARCHITECTURES);
  ctx.set("build", build);
  JsonObject pw;
  pw.set("source", s.meter.source_name());
  std::string rails;
  for (const auto& r : s.meter.rail_names()) rails += (rails.empty() ? "" : ",") + r;
  pw.set("rails", rails);
  std::string total;
  for (const auto& r : s.total_rails) total += (total.empty() ? "" : "+") + r;
  pw.set("total_rails", total);
  pw.set("rate_hz", s.cfg.power.rate_hz);
  pw.set("baseline_s", s.cfg.power.baseline_s);
  pw.set("baseline_w", s.idle_w);
  pw.set("baseline_total_w", s.idle_total_w);
  std::string log;
  for (const auto& l : s.meter.discovery_log()) log += l + "\n";
  pw.set("discovery", log);
  const auto oh = s.meter.sampler_overhead();
  JsonObject sampler;
  sampler.set("cpu_s", oh.cpu_s);
  sampler.set("wall_s", oh.wall_s);
  sampler.set("cpu_percent", oh.wall_s > 0 ? 100.0 * oh.cpu_s / oh.wall_s : NAN);
  sampler.set("ticks", static_cast<double>(oh.ticks));
  sampler.set("missed_deadlines", static_cast<double>(oh.missed_deadlines));
  sampler.set("read_failures", static_cast<double>(oh.read_failures));
  pw.set("sampler", sampler);
  ctx.set("power", pw);
  JsonObject be;
  for (const auto& [device, facts] : s.backends) be.set(device, facts);
  ctx.set("backends", be);
  JsonObject gpus;
  for (const auto& d : s.cfg.devices) {
    if (d.kind != "gpu") continue;
    auto info = cuda_device_info(d.index);
    const std::string why = cuda_unavailable_reason(d.index);
    if (!why.empty()) info["unavailable"] = why;
    gpus.set(d.label, info);
  }
  ctx.set("gpu", gpus);
  return ctx.str() + "\n";
}

// Mean current clock of `cpus` (all CPUs when empty), MHz; NaN if unknown.
double cpu_mhz(const platform::Platform& p, const platform::Snapshot& s,
               const std::vector<int>& cpus) {
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < p.cpus.size() && i < s.cpu_cur_khz.size(); ++i) {
    if (s.cpu_cur_khz[i] < 0) continue;
    if (!cpus.empty() && std::find(cpus.begin(), cpus.end(), p.cpus[i].id) == cpus.end()) continue;
    sum += s.cpu_cur_khz[i] / 1e3;
    ++n;
  }
  return n ? sum / n : NAN;
}

double gpu_mhz(const platform::Snapshot& s) { return s.gpu_cur_hz < 0 ? NAN : s.gpu_cur_hz / 1e6; }

// Usage errors a device entry can only reveal on this machine: a CPU set the
// platform lacks, or a cuDNN ReLU in a build without cuDNN.
void validate_devices(const Config& cfg, const platform::Platform& platform) {
  for (const auto& d : cfg.devices) {
    if (d.kind == "cpu") platform::resolve_cpu_set(platform, d.cpus);  // throws UsageError
    if (d.kind == "gpu" && cfg.gpu.relu == "cudnn" && EDPBENCH_HAVE_CUDA && !EDPBENCH_HAVE_CUDNN)
      throw UsageError(cfg.source_path +
                       ": gpu.relu is cudnn but this build has no cuDNN (install cuDNN and "
                       "reconfigure with -DEDPBENCH_WITH_CUDNN=ON, or use relu: kernel)");
  }
}

// Waits for cooldown_s and for the hottest zone to fall below
// max_start_temp_c (at most 10 minutes), so runs start from the same state.
std::string cool_down(Sweep& s) {
  if (s.cfg.cooldown_s > 0) {
    const auto until = Clock::now() + std::chrono::duration<double>(s.cfg.cooldown_s);
    while (Clock::now() < until) {
      throw_if_stop_requested();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  if (s.cfg.max_start_temp_c <= 0) return "";
  const auto t0 = Clock::now();
  while (true) {
    const double t = s.prober.snapshot().max_temp_c;
    if (std::isnan(t) || t < s.cfg.max_start_temp_c) return "";
    if (seconds_since(t0) > 600)
      return "started at " + fmt("%.1f", t) + " C after waiting 600 s to cool below " +
             fmt("%.1f", s.cfg.max_start_temp_c) + " C";
    throw_if_stop_requested();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

report::ConfigRecord run_configuration(Sweep& s, const std::string& workload, const SizeSpec& size,
                                       const DeviceSpec& dev) {
  const Config& cfg = s.cfg;
  report::ConfigRecord rec;
  rec.workload = workload;
  rec.size = size.name;
  rec.device = dev.label;
  rec.n = size.n;
  rec.d_in = size.d_in;
  rec.h = size.h;
  rec.d_out = size.d_out;
  rec.iterations = cfg.iterations;
  rec.runs = cfg.runs;
  rec.gflop_per_iteration = size.gemm_flop_per_iteration() / 1e9;
  rec.power_source = s.meter.source_name();
  for (const auto& r : s.total_rails) rec.energy_rails += (rec.energy_rails.empty() ? "" : "+") + r;
  const std::string label = workload + "/" + size.name + "/" + dev.label;
  const double units_per_iteration = size.gemm_flop_per_iteration();

  // 1. Set-up: backend, data from the seed, allocation and copy to the device.
  const auto t_setup = Clock::now();
  BackendSetup setup = make_backend_for(dev, cfg, s.prober.platform());
  if (!setup.backend) {
    rec.status = "skipped";
    rec.note = setup.skip_reason;
    return rec;
  }
  Backend& be = *setup.backend;
  rec.threads = setup.threads;
  const MlpShape shape{size.n, size.d_in, size.h, size.d_out};
  const MlpData init = make_initial_data(shape, cfg.seed, cfg.init_scale);
  auto mlp = make_mlp_workload(workload, be, init, static_cast<float>(cfg.learning_rate));
  be.synchronize();
  rec.setup_s = seconds_since(t_setup);
  if (dev.kind == "cpu" && dev.gemm == "auto") s.gemm_chooser.choose(be, *mlp, init);
  s.backends[dev.label] = be.describe();

  // 2. Warm-up, starting with the step whose loss is the initial loss.
  mlp->step();
  rec.initial_loss = be.read_scalar(mlp->loss());
  for (int i = 1; i < cfg.warmup_iterations; ++i) {
    throw_if_stop_requested();
    mlp->step();
    if (s.progress) s.progress->advance(0, label + " warm-up");
  }
  be.synchronize();

  // 3. Runs: each starts from the initial weights, inside its own window.
  const std::vector<int> cpus = setup.cpus;
  for (int run = 1; run <= cfg.runs; ++run) {
    report::RunRecord r;
    r.run = run;
    mlp->reset(init);
    r.note = cool_down(s);
    be.synchronize();
    be.device_elapsed_s();  // restart the device timer
    const platform::Snapshot before = s.prober.snapshot();
    const std::string window = label + "#" + std::to_string(run);
    const auto t0 = Clock::now();
    s.meter.begin_window(window);
    int blocks = 0;
    try {
      do {
        for (int i = 0; i < cfg.iterations; ++i) {
          throw_if_stop_requested();
          mlp->step();
          if (s.progress) s.progress->advance(blocks == 0 ? units_per_iteration : 0, label);
        }
        ++blocks;
        be.synchronize();
      } while (seconds_since(t0) < cfg.power.min_run_s);
    } catch (...) {
      s.meter.end_window(window);  // the sampler must not keep integrating it
      throw;
    }
    const double window_s = seconds_since(t0);
    const power::Measurement m = s.meter.end_window(window);
    const double gpu_s = be.device_elapsed_s();
    const platform::Snapshot after = s.prober.snapshot();

    r.blocks = blocks;
    r.time_s = window_s / blocks;
    if (gpu_s >= 0) r.gpu_time_s = gpu_s / blocks;
    r.final_loss = be.read_scalar(mlp->loss());
    r.start_temp_c = before.max_temp_c;
    r.end_temp_c = after.max_temp_c;
    r.start_cpu_mhz = cpu_mhz(s.prober.platform(), before, cpus);
    r.end_cpu_mhz = cpu_mhz(s.prober.platform(), after, cpus);
    r.start_gpu_mhz = gpu_mhz(before);
    r.end_gpu_mhz = gpu_mhz(after);
    std::string why;
    // Judged on the snapshot taken right after the last synchronise, while
    // the clocks are still at load: before the run, idle governors
    // (schedutil, nvhost_podgov) have legitimately lowered them.
    r.throttled =
        platform::throttled(s.prober.platform(), after, cpus, dev.kind == "gpu", 0.95, &why);
    if (r.throttled) r.note += (r.note.empty() ? "" : "; ") + ("throttled: " + why);
    if (s.meter.measures_energy()) {
      r.samples = m.samples;
      r.update_interval_s = m.update_interval_s;
      r.low_confidence = m.update_interval_s > 0 && window_s < 10 * m.update_interval_s;
      for (const auto& rail : m.rails)
        r.rails.push_back({rail.rail, rail.energy_j / blocks, rail.power_w_mean});
      // Only failures on the rails that make "energy" spoil it; a flaky rail
      // outside the total is reported but does not discard good data.
      std::string total_failure, other_failure;
      for (const auto& rail : m.rails) {
        const bool total =
            std::find(s.total_rails.begin(), s.total_rails.end(), rail.rail) != s.total_rails.end();
        if (rail.read_failures == 0 && !std::isnan(rail.energy_j)) continue;
        std::string& why = total ? total_failure : other_failure;
        if (why.empty())
          why = rail.rail + ": " + std::to_string(rail.read_failures) + " failed read(s)" +
                (m.error.empty() ? "" : " (" + m.error + ")");
      }
      if (total_failure.empty() && !m.complete && m.read_failures == 0)
        total_failure = m.error;  // the sampler did not cover the window's end
      if (!total_failure.empty()) {
        rec.status = "failed";
        const std::string err =
            "energy incomplete in run " + std::to_string(run) + ": " + total_failure;
        if (rec.note.find("energy incomplete") == std::string::npos)
          rec.note += (rec.note.empty() ? "" : "; ") + err;
        r.note += (r.note.empty() ? "" : "; ") + err;
      } else {
        r.energy_j = m.energy_j(s.total_rails) / blocks;
        r.power_w_mean = m.power_w_mean(s.total_rails);  // over the window's own edges
        r.edp_js = r.energy_j * r.time_s;
        if (!std::isnan(s.idle_total_w))
          r.dynamic_energy_j = r.energy_j - s.idle_total_w * r.time_s;
        if (!other_failure.empty())
          r.note += (r.note.empty() ? "" : "; ") + ("outside the total: " + other_failure);
      }
    }
    rec.run_records.push_back(r);
    if (s.progress) {
      std::string msg = "edpbench: " + label + " run " + std::to_string(run) + "/" +
                        std::to_string(cfg.runs) + ": " + fmt("%.4f s", r.time_s);
      if (!std::isnan(r.energy_j)) msg += ", " + fmt("%.3f J", r.energy_j);
      msg += ", loss " + fmt("%.6g", r.final_loss);
      if (r.low_confidence) msg += " (low confidence: window < 10 sensor updates)";
      s.progress->line(msg);
    }
  }
  const double final_loss = rec.run_records.back().final_loss;
  rec.diverged = !std::isfinite(final_loss) || !std::isfinite(rec.initial_loss) ||
                 final_loss > rec.initial_loss;
  if (rec.diverged)
    rec.note += std::string(rec.note.empty() ? "" : "; ") + "diverged: loss went from " +
                fmt("%.6g", rec.initial_loss) + " to " + fmt("%.6g", final_loss);
  int low = 0;
  for (const auto& r : rec.run_records) low += r.low_confidence;
  if (low)
    rec.note += std::string(rec.note.empty() ? "" : "; ") + std::to_string(low) +
                " run(s) low_confidence: shorter than 10 sensor updates; raise power.min_run_s";
  return rec;
}

}  // namespace

int run_sweep(const Config& cfg, const RunOptions& opt) {
  // Everything that can be wrong with the config or this machine is checked
  // before the output directory is touched, so a fixed config can start
  // afresh in the same --out (and a usage error exits 2, not as a failed row).
  Sweep s{cfg,
          platform::Prober(opt.sysfs_root),
          power::EnergyMeter::open(power_options(cfg.power, opt.sysfs_root)),
          {},
          {},
          NAN,
          {},
          nullptr};
  s.total_rails = cfg.power.total_rails;
  const auto rails = s.meter.rail_names();
  if (s.total_rails.empty()) s.total_rails = rails;
  for (const auto& r : s.total_rails)
    if (s.meter.measures_energy() && std::find(rails.begin(), rails.end(), r) == rails.end()) {
      std::string have;
      for (const auto& x : rails) have += (have.empty() ? "" : ", ") + x;
      throw UsageError(cfg.source_path + ": power.total_rails names '" + r + "', which the " +
                       s.meter.source_name() + " source does not have (it has: " + have + ")");
    }
  validate_devices(cfg, s.prober.platform());
  // The sampler thread starts now, before any backend pins this thread: it
  // inherits this thread's CPU mask (unless power.sampler_cpu pins it).
  s.meter.start();

  ResultsStore store(opt.out_dir, to_yaml(cfg), opt.resume);
  install_stop_handlers();

  // The plan, and how much of it is left (progress counts GEMM FLOPs).
  struct Item {
    std::string workload;
    const SizeSpec* size;
    const DeviceSpec* device;
  };
  std::vector<Item> plan;
  double total_units = 0;
  for (const auto& w : cfg.workloads)
    for (const auto& size : cfg.sizes)
      for (const auto& dev : cfg.devices) {
        if (store.done(w, size.name, dev.label)) continue;
        plan.push_back({w, &size, &dev});
        total_units += size.gemm_flop_per_iteration() * cfg.iterations * cfg.runs;
      }
  s.progress = std::make_unique<Progress>(total_units, Progress::stderr_is_tty());
  if (s.progress) {
    for (const auto& l : s.meter.discovery_log()) s.progress->line("edpbench: power: " + l);
    if (!s.meter.measures_energy())
      s.progress->line("edpbench: warning: no power source; energy columns stay empty");
    if (store.completed())
      s.progress->line("edpbench: resuming: " + std::to_string(store.completed()) +
                       " configuration(s) already done, " + std::to_string(plan.size()) + " left");
  }

  int interrupted = 0;
  try {
    measure_baseline(s);
    int since_baseline = 0;
    for (const Item& it : plan) {
      throw_if_stop_requested();
      if (cfg.power.baseline_every > 0 && since_baseline == cfg.power.baseline_every) {
        measure_baseline(s);
        since_baseline = 0;
      }
      report::ConfigRecord rec;
      try {
        rec = run_configuration(s, it.workload, *it.size, *it.device);
      } catch (const Interrupted&) {
        throw;
      } catch (const std::exception& e) {
        // One configuration failing (CUDA out of memory, a bad CPU set) must
        // not end the sweep: record why and go on.
        rec.workload = it.workload;
        rec.size = it.size->name;
        rec.device = it.device->label;
        rec.n = it.size->n;
        rec.d_in = it.size->d_in;
        rec.h = it.size->h;
        rec.d_out = it.size->d_out;
        rec.iterations = cfg.iterations;
        rec.runs = cfg.runs;
        rec.power_source = s.meter.source_name();
        rec.status = "failed";
        rec.note = e.what();
      }
      ++since_baseline;
      if (rec.status == "ok") ++s.measured_ok;
      if (s.progress && rec.status != "ok")
        s.progress->line("edpbench: " + it.workload + "/" + it.size->name + "/" + it.device->label +
                         ": " + rec.status + ": " + rec.note);
      store.append(rec);
      store.flush(context_json(s, false));
    }
  } catch (const Interrupted& i) {
    interrupted = i.signal;
  }
  if (s.progress) s.progress->finish();
  store.flush(context_json(s, interrupted == 0));
  if (interrupted) {
    if (s.progress)
      s.progress->line("edpbench: interrupted by signal " + std::to_string(interrupted) +
                       "; completed configurations are saved in " + opt.out_dir +
                       " (continue with --resume)");
    return 128 + interrupted;
  }
  if (!plan.empty() && s.measured_ok == 0) {
    if (s.progress) s.progress->line("edpbench: error: no configuration could be measured");
    return 1;
  }
  return 0;
}

}  // namespace edp::bench
