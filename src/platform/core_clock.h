// The clock a core really runs at, measured: a chain of dependent integer
// additions retires one addition per cycle on every core edpbench targets
// (x86-64: ADD latency 1, Agner Fog's instruction tables; Cortex-A57: ADD
// latency 1, ARM UAN 0015B §3.3; Cortex-A78: ARM SWOG §3.3), so additions
// per second are cycles per second.
//
// What it is for: a VM or container without cpufreq reports only the
// kernel's "cpu MHz", which on x86 guests is the TSC rate, not the clock the
// core runs at (a Zen 5 guest reads 2.1 GHz while the host boosts it past
// 3.5 GHz), so a peak "at the clock read" is wrong by the boost factor.
//
// Limits: it measures the core of the calling thread (pin it first), at the
// moment of the call; an SMT sibling's load halves it; on Denver (TX2) the
// dynamic code optimiser could in principle fold the chain, which was not
// checked on hardware: prefer cpufreq's scaling_cur_freq where it exists.
#pragma once

namespace edp::platform {

// The calling thread's core clock in Hz: the fastest of `blocks` blocks of
// at least `block_s` of the thread's own CPU time each (CPU time, so that
// preemption inside the guest does not count; the fastest, because stolen
// time and frequency ramps only ever slow a block down). About
// blocks x block_s on an idle core.
double measure_core_clock_hz(double block_s = 0.003, int blocks = 10);

}  // namespace edp::platform
