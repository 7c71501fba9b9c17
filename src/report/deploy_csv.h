// deploy.csv (DESIGN §9.4, docs/deploy.md): the deploy study's rows, pure
// functions of an item's record (its steady-burst part, measured with the
// full protocol, and the values its extra pass left, named below), and the
// model's candidates read back from the file. recommend --rate, the report
// and the study's own open-loop check all read candidates this one way.
#pragma once

#include <string>
#include <vector>

#include "report/csv.h"
#include "report/deploy_model.h"
#include "report/records.h"

namespace edp::report {

// mode,workload,size,batch,device,operating_point,measure,state,idle_s,
// rate_hz,repeats,time_s,time_s_ci95,energy_j,energy_j_ci95,extra_time_s,
// extra_energy_j,extra_energy_j_ci95,power_w,power_w_ci95,predicted_w,
// predicted_w_ci95,error,latency_p50_s,latency_p90_s,latency_p99_s,
// gate_delay_s,status,note
const std::vector<std::string>& required_deploy_columns();
// The required columns, then the checks' realisation
// (predicted_realised_w,predicted_realised_w_ci95,error_realised,arrivals,
// arrivals_expected: optional, a deploy.csv from before them still reads),
// then n,d_in,h,d_out,key.
const std::vector<std::string>& deploy_columns();

// Names of ItemRecord::values the deploy study's pass fills (units in the names).
namespace deploy_values {
// The gating delay the idle states follow (NaN: none), where it was read
// (kGateFromBoard, kGateFromSimulated), or why there is none.
constexpr const char* kGateDelayS = "gate_delay_s";
constexpr const char* kGateSource = "gate_source";
constexpr double kGateFromBoard = 1, kGateFromSimulated = 2;
constexpr const char* kGateAbsent = "gate_absent";
constexpr double kNoGateOnCpu = 1, kRailgateDisabled = 2, kNoRailgateFile = 3;
// Idle power of a state (host, context, gated): "idle|<state>|<what>".
std::string idle(const std::string& state, const std::string& what);
// The timed warm bursts: "burst|<what>" (count, mean_s, ci95_s, p50_s, p90_s, p99_s).
std::string burst(const std::string& what);
// A first burst after `idle_s` with the context kept ("wake") or released
// ("cold"): "<kind>|<idle_s>|<what>" (gap_s, repeats, time_s, time_s_ci95,
// energy_j, energy_j_ci95).
std::string first(const std::string& kind, double idle_s, const std::string& what);
// An open-loop check at `rate_hz`: "check|<rate_hz>|<what>" (seconds,
// requests, arrivals, arrivals_expected, measured_w, predicted_w,
// predicted_w_ci95, realised_w, realised_w_ci95, latency_p99_s).
std::string check(double rate_hz, const std::string& what);
// The same for an open-loop check of the `release` policy (a cold start per
// burst): "check_release|<rate_hz>|<what>", with its realised gaps kept
// until the model can price them (gap#<i>, lead_s, after_s).
std::string release_check(double rate_hz, const std::string& what);
// The host state was measured right after a release, inside the item (1),
// rather than taken from the sweep's baseline.
constexpr const char* kHostAfterRelease = "idle|host|after_release";
}  // namespace deploy_values

// Every row of one deploy item: its idle states (host, context, gated, the
// absent ones with why), the warm burst (energy per burst from the part's
// runs, latency percentiles from the timed bursts), the wake costs (kept
// context) and cold starts (released), and the open-loop checks.
std::vector<std::vector<std::string>> deploy_rows(const ItemRecord& rec);

// The candidates of a deploy.csv (ok rows only): per item, one with the
// context kept, and one released where cold starts were measured. Its task
// is "infer/<size>" or "train:<workload>/<size>". Throws
// edp::UsageError naming `origin` when a required column is missing.
std::vector<Candidate> deploy_candidates(const CsvTable& table, const std::string& origin);
// The task a deploy.csv row serves: "infer/<size>" (every batch serves the
// same requests) or "train:<workload>/<size>".
std::string deploy_task(const CsvTable& table, size_t row);
// The tasks of `candidates`, in order of first appearance.
std::vector<std::string> deploy_tasks(const std::vector<Candidate>& candidates);

// The values of a deploy.csv that a reader prices (ok rows only), checked
// as the deploy study writes them: a number (or empty: not measured); none
// below zero but the differences (a first burst's energy, the extra time
// and energy of a wake or cold start, a check's relative error); a burst's
// time above zero; no magnitude above kDeployMaxMagnitude; a measured
// quantity (a power, energy, time or rate; not a CI or a difference) either
// 0 or at least kDeployMinMagnitude; a first burst's extra energy and time
// its own less the warm burst's; one row per measurement. Throws
// edp::UsageError naming `origin`, the line, the column and the value. A
// cell outside that is a corrupt or edited file: 1e-300 W made a device
// last 1.7e300 hours, and was called confident.
inline constexpr double kDeployMinMagnitude = 1e-15;  // 1 fJ, fs, fW
inline constexpr double kDeployMaxMagnitude = 1e9;    // 1 GJ, GW; 31 years
void check_deploy_values(const CsvTable& table, const std::string& origin);

// Reads DIR/deploy.csv (or the file itself); throws edp::UsageError naming
// it when it is missing, malformed, lacks columns or holds a value that
// check_deploy_values refuses.
CsvTable load_deploy_csv(const std::string& path);

}  // namespace edp::report
