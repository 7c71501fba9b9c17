// The fields of one measured energy window, as one table (DESIGN §5, "one
// record model"). Everything that holds or shows a window is made from it:
// this API's WindowResult and the Python module's Measurement (its
// attributes and dict()), the engine's run record (one row of runs.csv;
// src/report/records.h), the runs.csv columns of these names, and the run
// objects of `edpbench measure --json`. A field added here reaches all of
// them; none copies a window field by field.
//
// EDPBENCH_WINDOW_FIELDS(X) calls X(type, name, initial, kind) once per
// field, in the order of runs.csv's columns (where it has them). `kind`
// says how a field is shown:
//   value    a number or flag, always meaningful
//   measured a number that is NaN when it was not measured (Python: None)
//   clock    a time on a clock (CSV and JSON: microseconds, fixed decimals)
//   text     a string
//
// Only the standard library is needed (this header is installed with
// edpbench/monitor.h).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#define EDPBENCH_NAN std::numeric_limits<double>::quiet_NaN()

// clang-format off
#define EDPBENCH_WINDOW_FIELDS(X)                                                                \
  /* What the window measured. */                                                                \
  X(double, time_s, EDPBENCH_NAN, value)               /* the window's span */                   \
  X(double, energy_j, EDPBENCH_NAN, measured)          /* sum over the total rails */            \
  X(double, dynamic_energy_j, EDPBENCH_NAN, measured)  /* energy_j - baseline_w x time_s */      \
  X(double, edp_js, EDPBENCH_NAN, measured)            /* energy_j x time_s */                   \
  X(double, power_w_mean, EDPBENCH_NAN, measured)      /* mean power of the total rails */       \
  X(double, baseline_w, EDPBENCH_NAN, measured)        /* idle power dynamic_energy_j used */    \
  /* Its evidence (DESIGN §3, §4.2): edges on both clocks, what the sensor did. */              \
  X(std::uint64_t, samples, 0, value)                  /* sampler ticks inside the window */     \
  X(double, start_unix_s, EDPBENCH_NAN, clock)         /* CLOCK_REALTIME */                      \
  X(double, end_unix_s, EDPBENCH_NAN, clock)                                                     \
  X(double, start_monotonic_s, EDPBENCH_NAN, clock)    /* CLOCK_MONOTONIC */                     \
  X(double, end_monotonic_s, EDPBENCH_NAN, clock)                                                \
  X(double, update_interval_s, EDPBENCH_NAN, measured) /* of the total rails; NaN unknown */     \
  X(std::uint64_t, distinct_values, 0, value)          /* least over the total rails */          \
  X(double, largest_gap_s, EDPBENCH_NAN, measured)     /* largest over the total rails */        \
  X(double, lag_correction_s, 0, value)                /* largest shift applied; 0 = none */     \
  X(std::uint64_t, read_failures, 0, value)                                                      \
  X(std::uint64_t, missed_deadlines, 0, value)         /* sampler ticks that came late */        \
  X(std::uint64_t, anomalies, 0, value)                /* readings a sensor flagged */           \
  X(bool, low_confidence, false, value)                /* < 10 updates, unknown period, ... */   \
  X(bool, frozen, false, value)                        /* a total rail did not change */         \
  /* Interference (DESIGN §3): the measured threads' CPU time and run-queue wait per thread */  \
  /* and second of the window, other processes' share of the machine's CPUs. */                \
  X(double, cpu_share, EDPBENCH_NAN, measured)                                                   \
  X(double, preempted_share, EDPBENCH_NAN, measured)                                             \
  X(double, others_cpu_share, EDPBENCH_NAN, measured)                                            \
  X(bool, disturbed, false, value)                     /* preempted > 5%, or the sampler late */ \
  X(std::string, note, std::string(), text)            /* why it is low confidence, ... */
// clang-format on

// Declares the fields as members with their initial values.
#define EDPBENCH_WINDOW_MEMBER(type, name, initial, kind) type name = initial;
