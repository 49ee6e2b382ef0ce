// Bad input found before anything was written: the commands of yeex and yeex-p2p exit with code 2
// and print the message.
#pragma once

#include <stdexcept>

namespace yeex {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace yeex
