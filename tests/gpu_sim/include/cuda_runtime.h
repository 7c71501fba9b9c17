// GPU simulator: cuda_runtime.h is the runtime API plus, in a .cu file
// compiled as C++, the SIMT device layer.
#pragma once

#include "cuda_runtime_api.h"
#ifdef EDPBENCH_SIM_DEVICE_CODE
#include "edp_sim/device.h"
#endif
