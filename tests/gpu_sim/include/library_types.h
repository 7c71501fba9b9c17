// GPU simulator: libraryPropertyType (CUDA Toolkit, library_types.h), asked
// by cublasGetProperty and cudnnGetProperty.
#pragma once

typedef enum libraryPropertyType_t {
  MAJOR_VERSION = 0,
  MINOR_VERSION = 1,
  PATCH_LEVEL = 2
} libraryPropertyType;
