# Default CUDA architectures when the user set none:
#  - a GPU visible at configure time: "native" (CMake >= 3.24);
#  - otherwise the newest few real architectures the local nvcc accepts, plus
#    PTX of the oldest so newer GPUs can JIT.
# The Jetson toolchain (toolchains/jetson.cmake) pins sm_62 for the TX2; the
# CUDA 13 on a development host cannot target it (nvcc 13 dropped < sm_75).
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()
set(_nvcc "${CMAKE_CUDA_COMPILER}")
execute_process(COMMAND nvidia-smi -L OUTPUT_VARIABLE _gpus ERROR_QUIET RESULT_VARIABLE _smi)
if(_smi EQUAL 0 AND _gpus MATCHES "GPU 0" AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.24)
  set(CMAKE_CUDA_ARCHITECTURES native CACHE STRING "CUDA architectures")
  return()
endif()
execute_process(COMMAND ${_nvcc} --list-gpu-arch OUTPUT_VARIABLE _archs ERROR_QUIET RESULT_VARIABLE _rc)
set(_chosen "")
if(_rc EQUAL 0)
  string(REGEX MATCHALL "compute_[0-9]+" _list "${_archs}")
  foreach(_want 62 70 75 80 90)
    if("compute_${_want}" IN_LIST _list)
      list(APPEND _chosen ${_want})
    endif()
  endforeach()
endif()
if(NOT _chosen)
  set(_chosen 75)
endif()
list(GET _chosen 0 _oldest)
list(TRANSFORM _chosen APPEND "-real")
list(APPEND _chosen "${_oldest}-virtual")
set(CMAKE_CUDA_ARCHITECTURES "${_chosen}" CACHE STRING "CUDA architectures")
