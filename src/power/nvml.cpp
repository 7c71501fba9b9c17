// NVML through dlopen (see nvml.h). The function types below follow the
// documented NVML C ABI (nvml.h of the CUDA toolkit / driver): every call
// returns nvmlReturn_t (an int enum, NVML_SUCCESS = 0) and devices are opaque
// pointers.
#include "power/nvml.h"

#include <dlfcn.h>

#include <limits>

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
  bool counter = false;
  unsigned long long first_mj = 0;  // keeps the cumulative joules small and exact
};

class NvmlSensor final : public Sensor {
 public:
  NvmlSensor(std::unique_ptr<NvmlLibrary> lib, std::vector<Gpu> gpus)
      : lib_(std::move(lib)), gpus_(std::move(gpus)) {
    for (const auto& g : gpus_) {
      RailInfo info{g.rail, g.counter ? ValueKind::energy_j : ValueKind::power_w};
      info.timing = g.counter ? Timing::counter : Timing::instantaneous;
      rails_.push_back(std::move(info));
    }
  }
  std::string name() const override { return "nvml"; }
  const std::vector<RailInfo>& rails() const override { return rails_; }

  size_t read(double* values, std::string* error) noexcept override {
    size_t failed = 0;
    for (size_t i = 0; i < gpus_.size(); ++i) {
      const Gpu& g = gpus_[i];
      nvmlReturn_t rc;
      if (g.counter) {
        unsigned long long mj = 0;
        rc = lib_->get_energy(g.device, &mj);
        values[i] = static_cast<double>(mj - g.first_mj) * 1e-3;
      } else {
        unsigned int mw = 0;
        rc = lib_->get_power(g.device, &mw);
        values[i] = mw * 1e-3;
      }
      if (rc != kNvmlSuccess) {
        if (failed == 0 && error) *error = "nvml: " + g.rail + ": " + lib_->error(rc);
        values[i] = std::numeric_limits<double>::quiet_NaN();
        ++failed;
      }
    }
    return failed;
  }

 private:
  std::unique_ptr<NvmlLibrary> lib_;
  std::vector<Gpu> gpus_;
  std::vector<RailInfo> rails_;
};

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
      g.counter = true;
      g.first_mj = mj;
      log->push_back("nvml: found " + g.rail + " (" + name + "), total energy counter");
    } else if (lib->get_power(g.device, &mw) == kNvmlSuccess) {
      log->push_back("nvml: found " + g.rail + " (" + name +
                     "), power readings only (no energy counter)");
    } else {
      log->push_back("nvml: " + g.rail + " (" + name + ") reports neither energy nor power");
      continue;
    }
    gpus.push_back(g);
  }
  if (gpus.empty()) {
    log->push_back("nvml: no GPU with energy or power readings");
    return nullptr;
  }
  return std::make_unique<NvmlSensor>(std::move(lib), std::move(gpus));
}

}  // namespace edp::power
