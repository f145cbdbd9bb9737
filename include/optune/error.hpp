// optune::Error and the status codes shared with the C API (optune_status in
// optune/optune.h, the same names as OPTUNE_UPPER_SNAKE_CASE).
#pragma once

#include <stdexcept>
#include <string>

namespace optune {

// Values are stable: the C API returns them as optune_status.
enum class Status : int {
  Success = 0,
  InvalidArgument = 1,    // a value is out of range or inconsistent
  InvalidShape = 2,       // shapes, strides or sizes do not fit together
  InvalidType = 3,        // unsupported or mismatched data type
  BufferTooSmall = 4,     // a buffer cannot hold offset + extent
  Overflow = 5,           // index arithmetic would overflow
  DeviceNotFound = 6,     // OPTUNE_DEVICE or a device spec names nothing
  Unsupported = 7,        // the device lacks a feature the call needs
  BuildFailure = 8,       // a kernel did not compile; the message holds the log
  OutOfResources = 9,     // device memory, local memory, work-group limits
  DeviceError = 10,       // any other failure reported by the driver
  BackendUnavailable = 11,  // driver or compiler library could not be loaded
  IoError = 12,           // cache or database file problems
  NotFound = 13,          // a named entry does not exist
  Internal = 14,          // a bug in optune
};

const char* status_name(Status s) noexcept;

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

}  // namespace optune
