// The cpu backend pins its OpenMP workers to the configured CPU set, turns on
// flush-to-zero in each of them, and gives the caller its CPUs back after.
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <catch2/catch.hpp>

#include <set>
#include <thread>

#include "edpbench/config.h"
#include "workloads/cpu_backend.h"
#include "workloads/reference_backend.h"

namespace {

std::set<int> affinity_of_this_thread() {
  cpu_set_t set;
  CPU_ZERO(&set);
  pthread_getaffinity_np(pthread_self(), sizeof set, &set);
  std::set<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.insert(c);
  return cpus;
}

}  // namespace

TEST_CASE("cpu backend pins each worker to its CPU and restores the caller", "[cpu][affinity]") {
  const std::set<int> before = affinity_of_this_thread();
  REQUIRE_FALSE(before.empty());
  const int cpu = *before.rbegin();  // a CPU this process may use
  {
    edp::CpuOptions o;
    o.threads = 2;
    o.cpus = {cpu};
    o.gemm = "eigen";
    auto be = edp::make_cpu_backend(o);
    CHECK(be->describe().at("cpus") == std::to_string(cpu));
    CHECK(be->describe().at("threads") == "2");
    std::vector<std::set<int>> seen(2);
    std::vector<float> tiny(2, 0.0f);
#pragma omp parallel num_threads(2)
    {
      const int t = omp_get_thread_num();
      seen[static_cast<size_t>(t)] = affinity_of_this_thread();
      // Flush-to-zero: the smallest normal float halved underflows to 0.
      volatile float smallest = 1.17549435e-38f;
      tiny[static_cast<size_t>(t)] = smallest * 0.5f;
    }
    for (int t = 0; t < 2; ++t) {
      INFO("worker " << t);
      CHECK(seen[static_cast<size_t>(t)] == std::set<int>{cpu});
      CHECK(tiny[static_cast<size_t>(t)] == 0.0f);
    }
  }
  CHECK(affinity_of_this_thread() == before);
}

TEST_CASE("a CPU the process may not use is an error naming the CPU", "[cpu][affinity]") {
  const std::set<int> allowed = affinity_of_this_thread();
  int outside = 0;
  while (allowed.count(outside)) ++outside;  // the first CPU not in our mask
  edp::CpuOptions o;
  o.threads = 1;
  o.cpus = {outside};
  o.gemm = "eigen";
  CHECK_THROWS_WITH(edp::make_cpu_backend(o),
                    Catch::Contains("cannot pin CPU worker 0 to CPU " + std::to_string(outside)));
  CHECK(affinity_of_this_thread() == allowed);  // nothing left pinned
}

TEST_CASE("every host backend runs with flush-to-zero on its calling thread", "[cpu][ftz]") {
  float result = -1.0f;
  std::thread t([&] {  // a fresh thread: MXCSR/FPCR start with denormals on
    auto be = edp::make_reference_backend();
    volatile float smallest = 1.17549435e-38f;
    result = smallest * 0.5f;
  });
  t.join();
  CHECK(result == 0.0f);
}

#if EDPBENCH_HAVE_OPENBLAS
extern "C" int openblas_getaffinity(int thread_idx, size_t cpusetsize, cpu_set_t* cpu_set);

TEST_CASE("the OpenBLAS thread pool is pinned to the CPU set too", "[cpu][affinity]") {
  const std::set<int> before = affinity_of_this_thread();
  const int cpu = *before.begin();
  edp::CpuOptions o;
  o.threads = 2;
  o.cpus = {cpu};
  o.gemm = "openblas";
  auto be = edp::make_cpu_backend(o);
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(openblas_getaffinity(0, sizeof set, &set) == 0);  // OpenBLAS worker 0
  CHECK(CPU_COUNT(&set) == 1);
  CHECK(CPU_ISSET(cpu, &set));
}
#endif
