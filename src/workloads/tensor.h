// A 2-D, row-major float32 tensor whose storage belongs to a Backend.
//
// Workloads never touch the elements: the pointer may be host or device
// memory. Storage is reference counted and returned to the owning backend's
// pool when the last Tensor referring to it goes away, so the autograd tape
// can create temporaries every iteration without hitting malloc/cudaMalloc.
#pragma once

#include <cstdint>
#include <memory>

namespace edp {

class Tensor {
 public:
  Tensor() = default;
  Tensor(std::shared_ptr<float> storage, int64_t rows, int64_t cols)
      : storage_(std::move(storage)), rows_(rows), cols_(cols) {}

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  int64_t numel() const { return rows_ * cols_; }
  bool defined() const { return static_cast<bool>(storage_); }
  bool same_shape(const Tensor& o) const { return rows_ == o.rows_ && cols_ == o.cols_; }

  // Host or device address, depending on the backend that created it.
  float* data() const { return storage_.get(); }

 private:
  std::shared_ptr<float> storage_;
  int64_t rows_ = 0;
  int64_t cols_ = 0;
};

}  // namespace edp
