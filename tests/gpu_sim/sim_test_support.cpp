// See sim_test_support.h.
#include "sim_test_support.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "workloads/cuda_factory.h"

namespace edp_sim_test {

ChildResult run_in_child(const std::function<void()>& body) {
  int pipe_fd[2];
  if (::pipe(pipe_fd) != 0) throw std::runtime_error("pipe failed");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // The test framework's handler would report the abort as its own failure.
    std::signal(SIGABRT, SIG_DFL);
    const int null_fd = ::open("/dev/null", O_WRONLY);
    if (null_fd >= 0) ::dup2(null_fd, 1);
    ::dup2(pipe_fd[1], 2);
    ::close(pipe_fd[0]);
    ::close(pipe_fd[1]);
    body();
    std::fflush(nullptr);
    std::_Exit(0);
  }
  ::close(pipe_fd[1]);
  ChildResult r;
  char buffer[4096];
  ssize_t got = 0;
  while ((got = ::read(pipe_fd[0], buffer, sizeof buffer)) > 0) r.err.append(buffer, got);
  ::close(pipe_fd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) r.aborted = WTERMSIG(status) == SIGABRT;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

DeviceFloats::DeviceFloats(std::size_t n) {
  void* p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess) throw std::runtime_error("cudaMalloc");
  p_ = static_cast<float*>(p);
}

DeviceFloats::~DeviceFloats() { (void)cudaFree(p_); }

std::vector<float> download(const DeviceFloats& d, std::size_t n) {
  std::vector<float> host(n);
  if (cudaMemcpy(host.data(), d.get(), n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
    throw std::runtime_error("download: cudaMemcpy failed");
  return host;
}

void upload(const DeviceFloats& d, const std::vector<float>& host) {
  if (cudaMemcpy(d.get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice) !=
      cudaSuccess)
    throw std::runtime_error("upload: cudaMemcpy failed");
}

std::unique_ptr<edp::Backend> gpu(const std::string& relu) {
  edp::CudaOptions o;
  o.relu = relu;
  return edp::make_cuda_backend(o);
}

}  // namespace edp_sim_test
