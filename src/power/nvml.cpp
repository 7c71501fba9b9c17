// NVML through dlopen (see nvml.h). The function types below follow the
// documented NVML C ABI (nvml.h of the CUDA toolkit / driver): every call
// returns nvmlReturn_t (an int enum, NVML_SUCCESS = 0) and devices are opaque
// pointers.
#include "power/nvml.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

#include "power/clock.h"
#include "power/counter.h"

namespace edp::power {
namespace {

using nvmlReturn_t = int;
constexpr nvmlReturn_t kNvmlSuccess = 0;
using nvmlDevice_t = struct nvmlDevice_st*;

using InitFn = nvmlReturn_t (*)();
using ShutdownFn = nvmlReturn_t (*)();
using GetCountFn = nvmlReturn_t (*)(unsigned int*);
using GetHandleFn = nvmlReturn_t (*)(unsigned int, nvmlDevice_t*);
using GetNameFn = nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned int);
using GetEnergyFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);  // mJ
using GetPowerFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*);         // mW
using ErrorStringFn = const char* (*)(nvmlReturn_t);
using GetLimitFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*);  // mW
using GetLimitRangeFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*, unsigned int*);
using GetCudaCcFn = nvmlReturn_t (*)(nvmlDevice_t, int*, int*);

// Plausibility limit of the energy counter (DESIGN §4.2, power/counter.h):
// kLimitFactor x the largest power limit NVML states for the board, among
// nvmlDeviceGetEnforcedPowerLimit (the limit the driver enforces after all
// limiters), nvmlDeviceGetPowerManagementLimit and the maximum of
// nvmlDeviceGetPowerManagementLimitConstraints (the highest limit that can be
// set, so a limit raised during the run stays below ours); all in mW (NVML
// API reference, "Device Queries" / power management). The power management
// algorithm holds the *average* at the limit, and boards exceed it briefly,
// hence a factor of 2. Without any of them: kDefaultMaxPowerW, above the
// rating of the largest data-centre boards (about 1 kW).
constexpr double kLimitFactor = 2;
constexpr double kDefaultMaxPowerW = 2000;
// NVML does not document how often the total energy counter is updated; half
// a second of slack is an assumption that only makes the limit more generous.
constexpr double kNvmlSlackS = 0.5;
// nvmlDeviceGetPowerUsage: "On Ampere (except GA100) or newer GPUs, the API
// returns power averaged over 1 sec interval. On GA100 and older
// architectures, instantaneous power is returned" (NVML API reference). GA100
// is compute capability 8.0; every later architecture has a higher one.
constexpr double kPowerUsageAveragingS = 1.0;

struct NvmlLibrary {
  void* handle = nullptr;
  InitFn init = nullptr;
  ShutdownFn shutdown = nullptr;
  GetCountFn get_count = nullptr;
  GetHandleFn get_handle = nullptr;
  GetNameFn get_name = nullptr;
  GetEnergyFn get_energy = nullptr;
  GetPowerFn get_power = nullptr;
  ErrorStringFn error_string = nullptr;
  // Optional: limits for the plausibility check, compute capability for the
  // timing of nvmlDeviceGetPowerUsage.
  GetLimitFn get_enforced_limit = nullptr;
  GetLimitFn get_management_limit = nullptr;
  GetLimitRangeFn get_limit_constraints = nullptr;
  GetCudaCcFn get_cuda_cc = nullptr;

  NvmlLibrary() = default;
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;
  ~NvmlLibrary() {
    if (handle) {
      if (initialised && shutdown) shutdown();
      ::dlclose(handle);
    }
  }
  bool initialised = false;

  std::string error(nvmlReturn_t rc) const {
    if (error_string) return error_string(rc);
    return "NVML error " + std::to_string(rc);
  }
};

struct Gpu {
  std::string rail;
  nvmlDevice_t device = nullptr;
  // The total energy counter (mJ since the driver loaded), unwrapped from the
  // first reading so the cumulative joules stay small and exact. Empty when
  // the GPU has none and nvmlDeviceGetPowerUsage is sampled instead.
  std::optional<EnergyCounter> counter;
  double power_averaging_s = 0;  // > 0: nvmlDeviceGetPowerUsage is a mean over this
  double max_power_w = 0;        // power readings above it are failures (max_power_w())
};

class NvmlSensor final : public Sensor {
 public:
  NvmlSensor(std::unique_ptr<NvmlLibrary> lib, std::vector<Gpu> gpus)
      : lib_(std::move(lib)), gpus_(std::move(gpus)) {
    for (const auto& g : gpus_) {
      RailInfo info{g.rail, g.counter ? ValueKind::energy_j : ValueKind::power_w};
      if (g.counter) {
        info.timing = Timing::counter;
        info.max_power_w = g.counter->spec().max_power_w;
      } else if (g.power_averaging_s > 0) {
        info.timing = Timing::averaging;
        info.averaging_s = g.power_averaging_s;
      } else {
        info.timing = Timing::instantaneous;
      }
      rails_.push_back(std::move(info));
    }
  }
  std::string name() const override { return "nvml"; }
  const std::vector<RailInfo>& rails() const override { return rails_; }

  size_t read(double* values, std::string* error) noexcept override {
    size_t failed = 0;
    for (size_t i = 0; i < gpus_.size(); ++i) {
      Gpu& g = gpus_[i];
      nvmlReturn_t rc;
      if (g.counter) {
        unsigned long long mj = 0;
        rc = lib_->get_energy(g.device, &mj);
        if (rc == kNvmlSuccess) {
          const size_t before = g.counter->anomalies();
          g.counter->feed(static_cast<double>(mj), now_s());
          if (g.counter->anomalies() != before) {
            anomalies_ += g.counter->anomalies() - before;
            last_anomaly_ = "nvml: " + g.counter->last_anomaly();
          }
        }
        values[i] = g.counter->joules();
      } else {
        unsigned int mw = 0;
        rc = lib_->get_power(g.device, &mw);
        values[i] = mw * 1e-3;
        // The limit the counters use (a multiple of the board's power limit).
        if (rc == kNvmlSuccess && g.max_power_w > 0 && values[i] > g.max_power_w) {
          if (failed == 0 && error)
            *error = "nvml: " + g.rail + ": power " + std::to_string(values[i]) +
                     " W is above the plausible " + std::to_string(g.max_power_w) + " W";
          values[i] = std::numeric_limits<double>::quiet_NaN();
          ++failed;
          continue;
        }
      }
      if (rc != kNvmlSuccess) {
        if (failed == 0 && error) *error = "nvml: " + g.rail + ": " + lib_->error(rc);
        values[i] = std::numeric_limits<double>::quiet_NaN();
        ++failed;
      }
    }
    return failed;
  }

  size_t anomalies() const noexcept override { return anomalies_; }
  std::string last_anomaly() const override { return last_anomaly_; }

 private:
  std::unique_ptr<NvmlLibrary> lib_;
  std::vector<Gpu> gpus_;
  std::vector<RailInfo> rails_;
  size_t anomalies_ = 0;
  std::string last_anomaly_;
};

// kLimitFactor x the largest stated power limit, or the default; *source
// says which, for the discovery log.
double max_power_w(const NvmlLibrary& lib, nvmlDevice_t device, std::string* source) {
  unsigned int largest_mw = 0, mw = 0, min_mw = 0;
  if (lib.get_enforced_limit && lib.get_enforced_limit(device, &mw) == kNvmlSuccess)
    largest_mw = std::max(largest_mw, mw);
  if (lib.get_management_limit && lib.get_management_limit(device, &mw) == kNvmlSuccess)
    largest_mw = std::max(largest_mw, mw);
  if (lib.get_limit_constraints && lib.get_limit_constraints(device, &min_mw, &mw) == kNvmlSuccess)
    largest_mw = std::max(largest_mw, mw);
  char buf[96];
  if (largest_mw > 0) {
    std::snprintf(buf, sizeof(buf), "%g x the %g W power limit", kLimitFactor, largest_mw * 1e-3);
    *source = buf;
    return kLimitFactor * largest_mw * 1e-3;
  }
  *source = "default, NVML states no power limit";
  return kDefaultMaxPowerW;
}

// The averaging period of nvmlDeviceGetPowerUsage: 1 s above GA100 (compute
// capability 8.0), 0 (instantaneous) up to it or when unknown.
double power_usage_averaging_s(const NvmlLibrary& lib, nvmlDevice_t device) {
  int major = 0, minor = 0;
  if (!lib.get_cuda_cc || lib.get_cuda_cc(device, &major, &minor) != kNvmlSuccess) return 0;
  return (major > 8 || (major == 8 && minor > 0)) ? kPowerUsageAveragingS : 0;
}

template <typename Fn>
bool bind(void* handle, const char* symbol, Fn* out) {
  *out = reinterpret_cast<Fn>(::dlsym(handle, symbol));
  return *out != nullptr;
}

}  // namespace

std::unique_ptr<Sensor> discover_nvml(std::vector<std::string>* log, const std::string& library) {
  auto lib = std::make_unique<NvmlLibrary>();
  lib->handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle) {
    log->push_back("nvml: " + library + " not found (no NVIDIA driver)");
    return nullptr;
  }
  bind(lib->handle, "nvmlErrorString", &lib->error_string);
  bind(lib->handle, "nvmlShutdown", &lib->shutdown);
  bind(lib->handle, "nvmlDeviceGetTotalEnergyConsumption", &lib->get_energy);
  bind(lib->handle, "nvmlDeviceGetEnforcedPowerLimit", &lib->get_enforced_limit);
  bind(lib->handle, "nvmlDeviceGetPowerManagementLimit", &lib->get_management_limit);
  bind(lib->handle, "nvmlDeviceGetPowerManagementLimitConstraints", &lib->get_limit_constraints);
  bind(lib->handle, "nvmlDeviceGetCudaComputeCapability", &lib->get_cuda_cc);
  if (!bind(lib->handle, "nvmlInit_v2", &lib->init) ||
      !bind(lib->handle, "nvmlDeviceGetCount_v2", &lib->get_count) ||
      !bind(lib->handle, "nvmlDeviceGetHandleByIndex_v2", &lib->get_handle) ||
      !bind(lib->handle, "nvmlDeviceGetName", &lib->get_name) ||
      !bind(lib->handle, "nvmlDeviceGetPowerUsage", &lib->get_power)) {
    log->push_back("nvml: " + library + " lacks the expected symbols");
    return nullptr;
  }
  nvmlReturn_t rc = lib->init();
  if (rc != kNvmlSuccess) {
    log->push_back("nvml: nvmlInit_v2 failed: " + lib->error(rc));
    return nullptr;
  }
  lib->initialised = true;
  unsigned int count = 0;
  rc = lib->get_count(&count);
  if (rc != kNvmlSuccess) {
    log->push_back("nvml: nvmlDeviceGetCount_v2 failed: " + lib->error(rc));
    return nullptr;
  }
  std::vector<Gpu> gpus;
  for (unsigned int i = 0; i < count; ++i) {
    Gpu g;
    g.rail = "gpu" + std::to_string(i);
    if (lib->get_handle(i, &g.device) != kNvmlSuccess) continue;
    char name[96] = {};
    if (lib->get_name(g.device, name, sizeof(name)) != kNvmlSuccess) name[0] = '\0';
    unsigned long long mj = 0;
    unsigned int mw = 0;
    if (lib->get_energy && lib->get_energy(g.device, &mj) == kNvmlSuccess) {
      CounterSpec spec;
      spec.rail = g.rail;
      spec.unit = "mJ";
      spec.unit_j = 1e-3;
      spec.max_range = 0;  // unsigned long long mJ: does not wrap in practice
      std::string limit_source;
      spec.max_power_w = max_power_w(*lib, g.device, &limit_source);
      spec.slack_s = kNvmlSlackS;
      spec.resets_to_zero = true;  // driver reload, GPU reset
      g.counter.emplace(spec);
      g.counter->start(static_cast<double>(mj), now_s());
      char limit[48];
      std::snprintf(limit, sizeof(limit), "%g W", spec.max_power_w);
      log->push_back("nvml: found " + g.rail + " (" + name +
                     "), total energy counter; plausibility limit " + limit + " (" + limit_source +
                     ")");
    } else if (lib->get_power(g.device, &mw) == kNvmlSuccess) {
      g.power_averaging_s = power_usage_averaging_s(*lib, g.device);
      std::string limit_source;
      g.max_power_w = max_power_w(*lib, g.device, &limit_source);
      log->push_back("nvml: found " + g.rail + " (" + name +
                     "), power readings only (no energy counter)" +
                     (g.power_averaging_s > 0 ? ", each a 1 s average" : ""));
    } else {
      log->push_back("nvml: " + g.rail + " (" + name + ") reports neither energy nor power");
      continue;
    }
    gpus.push_back(std::move(g));
  }
  if (gpus.empty()) {
    log->push_back("nvml: no GPU with energy or power readings");
    return nullptr;
  }
  return std::make_unique<NvmlSensor>(std::move(lib), std::move(gpus));
}

}  // namespace edp::power
