// Result<T>: the value or the reason it could not be produced. Every model function that
// can refuse returns one, so callers (the CLI, the simulator, the live mode) can say why.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace chaintwin::model {

struct Error {
  std::string message;
};

template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const std::string& error() const { return std::get<Error>(v_).message; }

 private:
  std::variant<T, Error> v_;
};

// Status: a Result that carries no value.
struct Ok {};
using Status = Result<Ok>;

inline Error err(std::string message) { return Error{std::move(message)}; }

}  // namespace chaintwin::model
