// GPU simulator: streams and events. The device runs queued work only when
// the host must see it (CUDA Runtime API reference, "API synchronization
// behavior" and "Stream synchronization behavior"): cudaStreamSynchronize,
// cudaEventSynchronize, cudaDeviceSynchronize, a copy to or from pageable host
// memory, cudaMemcpy, cudaFree. Until then nothing has happened, so a missing
// synchronisation leaves the host reading stale data or an event not ready,
// every time rather than by chance.
//
// The legacy default stream (0) synchronises with every blocking stream;
// streams made with cudaStreamNonBlocking do not synchronise with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "cuda_runtime_api.h"

namespace edp_sim {

// Queues `op` on `stream` (0: the legacy stream of the current device).
// cudaErrorInvalidResourceHandle for a destroyed or unknown stream.
cudaError_t enqueue(cudaStream_t stream, std::string name, std::function<void()> op);
// Runs everything queued on `stream` (and what it depends on).
cudaError_t drain_stream(cudaStream_t stream);
void drain_device(int device);
bool valid_stream(cudaStream_t stream);
int stream_device(cudaStream_t stream);
std::size_t pending_count();
// Every queued operation gets the next sequence number: the last one given,
// and the oldest one still queued on any stream (UINT64_MAX when none is).
std::uint64_t last_sequence();
std::uint64_t oldest_pending_sequence();

cudaError_t create_stream(cudaStream_t* stream, unsigned flags);
cudaError_t destroy_stream(cudaStream_t stream);
// cudaStreamQuery: runs one queued operation (the device makes progress),
// then cudaErrorNotReady while work remains.
cudaError_t query_stream(cudaStream_t stream);

cudaError_t create_event(cudaEvent_t* event, unsigned flags);
cudaError_t destroy_event(cudaEvent_t event);
cudaError_t record_event(cudaEvent_t event, cudaStream_t stream);
cudaError_t synchronize_event(cudaEvent_t event);
cudaError_t query_event(cudaEvent_t event);
cudaError_t elapsed_ms(float* ms, cudaEvent_t start, cudaEvent_t end);

void destroy_streams_and_events(int device);

}  // namespace edp_sim
