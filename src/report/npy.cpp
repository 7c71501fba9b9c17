#include "report/npy.h"

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "common/atomic_file.h"

namespace edp::report {

namespace {
bool host_is_little_endian() {
  const uint16_t probe = 1;
  unsigned char first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}
}  // namespace

std::string npy_encode(const float* data, const std::vector<int64_t>& shape) {
  if (!host_is_little_endian()) throw std::runtime_error("npy: big-endian hosts are not supported");
  std::string dims;
  int64_t count = 1;
  for (int64_t d : shape) {
    dims += std::to_string(d) + ",";
    count *= d;
  }
  if (shape.size() > 1) dims.pop_back();  // (3,) for 1-D, (2, 3) otherwise
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  const size_t preamble = 10;  // magic(6) + version(2) + header length(2)
  const size_t total = (preamble + header.size() + 1 + 63) / 64 * 64;
  header.append(total - preamble - header.size() - 1, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  const auto len = static_cast<uint16_t>(header.size());
  out += static_cast<char>(len & 0xff);
  out += static_cast<char>(len >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(data), static_cast<size_t>(count) * sizeof(float));
  return out;
}

void write_npy(const std::string& path, const float* data, const std::vector<int64_t>& shape) {
  write_file_atomic(path, npy_encode(data, shape));
}

NpyArray read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  if (s.size() < 10 || s.compare(0, 6, "\x93NUMPY") != 0)
    throw std::runtime_error(path + ": not a .npy file");
  if (s[6] != 1) throw std::runtime_error(path + ": only .npy version 1.x is supported");
  const size_t hlen = static_cast<unsigned char>(s[8]) | (static_cast<unsigned char>(s[9]) << 8);
  if (s.size() < 10 + hlen) throw std::runtime_error(path + ": truncated header");
  const std::string header = s.substr(10, hlen);
  if (header.find("'descr': '<f4'") == std::string::npos ||
      header.find("'fortran_order': False") == std::string::npos)
    throw std::runtime_error(path + ": expected little-endian float32 in C order");
  std::smatch m;
  if (!std::regex_search(header, m, std::regex("'shape': \\(([0-9, ]*)\\)")))
    throw std::runtime_error(path + ": no shape in header");
  NpyArray a;
  int64_t count = 1;
  std::stringstream dims(m[1].str());
  std::string tok;
  while (std::getline(dims, tok, ',')) {
    if (tok.find_first_not_of(' ') == std::string::npos) continue;
    a.shape.push_back(std::stoll(tok));
    count *= a.shape.back();
  }
  const size_t bytes = static_cast<size_t>(count) * sizeof(float);
  if (s.size() != 10 + hlen + bytes)
    throw std::runtime_error(path + ": data size does not match shape");
  a.data.resize(static_cast<size_t>(count));
  std::memcpy(a.data.data(), s.data() + 10 + hlen, bytes);
  return a;
}

}  // namespace edp::report
