// `edpbench exporter` (exporter.h): the Session's running counters behind
// cpp-httplib's server. Each scrape reads the counters, under a lock (the
// server answers on its own threads), keeps them monotonic
// (ExporterCounters) and serializes them with prometheus-cpp's
// TextSerializer. prometheus-cpp's own server (Exposer, civetweb) is not used:
// in a process that has CUDA 13's libcublasLt loaded, as edpbench has, its
// mg_start fails after binding the port ("null context when constructing
// CivetServer"; reproduced with LD_PRELOAD=libcublasLt.so.13 on a ten-line
// program), while cpp-httplib serves.
#include "bench/exporter/exporter.h"

#include <arpa/inet.h>

#include "edpbench/config.h"
#include "edpbench/exporter_config.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#if EDPBENCH_HAVE_PROMETHEUS
#include <httplib.h>
#include <time.h>

#include "bench/exporter/exporter_metrics.h"
#endif
#include "bench/engine/session.h"
#include "common/errors.h"
#include "common/text.h"
#include "platform/board.h"
#include "platform/sysfs.h"

namespace edp::bench {
namespace {

const char* const kListenHelp =
    "; write ADDR:PORT as 127.0.0.1:9477 (loopback, the default), 0.0.0.0:9477 (every "
    "interface), [::1]:9477 (IPv6) or localhost:9477, PORT from 0 (any free port) to 65535";

#if EDPBENCH_HAVE_PROMETHEUS
// The HTTP server's limits (docs/observability.md, "What a client can do").
constexpr size_t kServingThreads = 4;
constexpr size_t kMaxBodyBytes = 1024;  // a sized body past this: 413 (any body is refused first)
constexpr time_t kReadTimeoutS = 2;     // per read and write
constexpr double kStopWaitS = 1.0;      // a stop waits this long for a client (below)

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// One scrape: the session's counters now, kept monotonic, as exposition
// text. Scrapes come on the server's threads; one at a time here.
class Scraper {
 public:
  Scraper(const Session& session, BoardInfo board, double period_s)
      : session_(session), board_(std::move(board)), period_s_(period_s) {}

  std::string scrape() {
    std::lock_guard<std::mutex> lock(mutex_);
    const double t0 = thread_cpu_s();
    refresh_board();
    auto families = exporter_families(counters_.update(session_.counters()), board_, period_s_);
    families.push_back(exporter_self_family("edpbench_exporter_scrapes_total",
                                            "Scrapes of /metrics served before this one",
                                            static_cast<double>(scrapes_)));
    families.push_back(exporter_self_family(
        "edpbench_exporter_scrape_cpu_seconds_total",
        "CPU time spent building /metrics, over the scrapes before this one (s)", cpu_s_));
    std::string text = exposition_text(families);
    cpu_s_ += thread_cpu_s() - t0;
    ++scrapes_;
    return text;
  }

 private:
  // The power mode can change while the exporter runs (`nvpmodel -m N`): the
  // info metric re-reads it, at most once a second (a few small files;
  // review: it kept the start-up mode, so power was joined to the wrong one).
  void refresh_board() {
    const auto now = std::chrono::steady_clock::now();
    if (now - board_read_ < std::chrono::seconds(1)) return;
    board_read_ = now;
    board_.nvpmodel =
        platform::read_board(platform::SysfsRoot(session_.options().sysfs_root)).nvpmodel_mode;
  }

  const Session& session_;
  BoardInfo board_;
  std::chrono::steady_clock::time_point board_read_ = std::chrono::steady_clock::now();
  const double period_s_;
  std::mutex mutex_;
  ExporterCounters counters_;
  size_t scrapes_ = 0;
  double cpu_s_ = 0;
};
#endif

}  // namespace

std::string parse_listen_address(const std::string& spec) {
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    throw UsageError("--listen '" + spec + "' is not ADDR:PORT" + kListenHelp);
  std::string host = spec.substr(0, colon);
  const std::string port = spec.substr(colon + 1);
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::atol(port.c_str()) > 65535)
    throw UsageError("--listen '" + spec + "': the port '" + port +
                     "' is not a number from 0 to 65535" + kListenHelp);
  if (host == "localhost") host = "127.0.0.1";
  unsigned char buf[16];
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    if (inet_pton(AF_INET6, host.substr(1, host.size() - 2).c_str(), buf) != 1)
      throw UsageError("--listen '" + spec + "': '" + host + "' is not an IPv6 address" +
                       kListenHelp);
  } else if (inet_pton(AF_INET, host.c_str(), buf) != 1) {
    throw UsageError("--listen '" + spec + "': '" + host +
                     "' is not an IPv4 address (names other than localhost are not looked up)" +
                     kListenHelp);
  }
  return host + ":" + std::to_string(std::atol(port.c_str()));
}

int run_exporter(const ExporterOptions& opt) {
  const std::string listen = parse_listen_address(opt.listen);
  if (!(opt.duration_s >= 0)) throw UsageError("--duration-s must not be negative");
#if !EDPBENCH_HAVE_PROMETHEUS
  throw UsageError(
      "this edpbench was built without prometheus-cpp and cpp-httplib, so it has no exporter; "
      "install prometheus-cpp-dev and libcpp-httplib-dev (scripts/setup-deps.sh --run) and "
      "configure again");
#else
  const size_t colon = listen.rfind(':');
  std::string host = listen.substr(0, colon);
  const int port = std::atoi(listen.c_str() + colon + 1);
  if (host.front() == '[') host = host.substr(1, host.size() - 2);

  Session session(opt.session, opt.option_name);
  session.throw_problems();  // a missing source or trace, an unknown --total-rails
  if (opt.verbose || !session.measures_energy())
    for (const auto& l : session.meter().discovery_log())
      std::cerr << "edpbench: power: " << l << "\n";
  if (!session.measures_energy()) {
    std::cerr << "edpbench: exporter: no power sensor to read; nothing to export "
                 "(see `edpbench sensors`)\n";
    return 1;
  }
  // "energy = VDD_IN (total_rails: auto)", then with -v how it was chosen.
  const std::string why = session.total_rails_why();
  const size_t first_end = std::min(why.find('\n'), why.size());
  std::cerr << "edpbench: power: " << session.meter().source_name() << ", "
            << (first_end == 0 ? "energy = " + join(session.total_rails(), "+")
                               : why.substr(0, first_end))
            << "\n";
  if (opt.verbose)
    for (size_t at = first_end + 1; at < why.size();) {
      const size_t end = std::min(why.find('\n', at), why.size());
      std::cerr << "edpbench: power:   " << why.substr(at, end - at) << "\n";
      at = end + 1;
    }

  BoardInfo board;
  const auto& p = session.platform();
  board.model = p.model;
  board.board = p.board;
  board.l4t = p.l4t_release;
  board.nvpmodel = p.nvpmodel_mode;
  board.source = session.meter().source_name();
  board.total_rails = join(session.total_rails(), "+");
  board.version = EDPBENCH_VERSION;
  Scraper scraper(session, board, 1.0 / session.options().power.rate_hz);

  httplib::Server server;
  // Prometheus scrapes a target one request at a time; the other threads
  // answer a person's curl meanwhile and outlast clients that hold a
  // connection without asking (httplib's default pool has a thread per
  // core). The server owns and deletes the pool.
  server.new_task_queue = [] { return new httplib::ThreadPool(kServingThreads); };
  // Only GET and HEAD without a body are served. Anything else is answered
  // before routing, where httplib would read the body: it reads a chunked
  // or unsized body into memory whatever its size (payload_max_length only
  // bounds a Content-Length one, and skips it byte by byte before its 413).
  // The connection then closes (one request a connection), the body unread.
  // A connection that sends nothing for kReadTimeoutS is closed, so a
  // client holds a thread for at most the time it takes to send its headers
  // (docs/observability.md says what this leaves open).
  server.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.has_header("Transfer-Encoding") ||
        (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0")) {
      res.status = 413;
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.set_payload_max_length(kMaxBodyBytes);
  server.set_read_timeout(kReadTimeoutS, 0);
  server.set_write_timeout(kReadTimeoutS, 0);
  server.set_keep_alive_max_count(1);
  server.set_keep_alive_timeout(kReadTimeoutS);  // the wait for a request's first byte
  server.Get("/metrics", [&scraper](const httplib::Request&, httplib::Response& res) {
    res.set_content(scraper.scrape(), "text/plain; version=0.0.4; charset=utf-8");
  });
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("edpbench exporter: the metrics are on /metrics\n", "text/plain");
  });
  const int bound = port == 0                         ? server.bind_to_any_port(host)
                    : server.bind_to_port(host, port) ? port
                                                      : -1;
  // Not a usage error (exit 2, which the unit does not restart): at boot the
  // board's address may not be up yet, or the port not yet freed by the
  // exporter before; exit 1 lets Restart=on-failure try again.
  if (bound <= 0)
    throw std::runtime_error("--listen " + opt.listen +
                             ": cannot listen there: is the port taken by another program, or "
                             "the address not (yet) one of this host's? Choose another "
                             "ADDR:PORT");
  session.start();
  std::atomic<bool> served{false};
  std::thread serving([&server, &served] {
    server.listen_after_bind();
    served = true;
  });
  std::cerr << "edpbench: exporter: serving http://"
            << (listen.front() == '[' ? "[" + host + "]" : host) << ":" << bound << "/metrics\n";

  int rc = 0;
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    if (const int sig = opt.stop_signal()) {
      rc = 128 + sig;
      break;
    }
    if (opt.duration_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
            opt.duration_s)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  server.stop();
  // stop() closes the listening socket; the serving thread then joins its
  // workers, and one may be reading a client that trickles its headers a
  // byte at a time (httplib 0.11 has no deadline for a whole request). A
  // stop is not held up by a client: after kStopWaitS the process ends here,
  // which loses nothing (the exporter writes no file).
  const auto stop_by = std::chrono::steady_clock::now() + std::chrono::duration<double>(kStopWaitS);
  while (!served && std::chrono::steady_clock::now() < stop_by)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!served) {
    std::cerr << "edpbench: exporter: a client still holds a connection; stopping without it\n";
    std::cerr.flush();
    std::_Exit(rc);
  }
  serving.join();
  return rc;
#endif
}

}  // namespace edp::bench
