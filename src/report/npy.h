// NumPy .npy files (format version 1.0), little-endian float32, C order:
// what `edpbench dump` writes so that any framework can check the arithmetic.
// Format: "\x93NUMPY", major 1, minor 0, uint16 LE header length, an ASCII
// dict padded with spaces and ended by '\n' so that the data starts on a
// multiple of 64 bytes (numpy/lib/format.py documents the layout).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace edp::report {

struct NpyArray {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

std::string npy_encode(const float* data, const std::vector<int64_t>& shape);
void write_npy(const std::string& path, const float* data, const std::vector<int64_t>& shape);
// Reads '<f4' C-order arrays only; throws std::runtime_error otherwise.
NpyArray read_npy(const std::string& path);

}  // namespace edp::report
