#pragma once
// Errors are values at the core boundary (ARCHITECTURE.md §3.1): a function that can fail on user
// input returns Expected<T>, which holds either the value or an Error whose message names the file,
// field, value and allowed range. Nothing in core throws across its public interface.
#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace tandem::core {

// Messages stay readable whatever the input held: one longer than kMaxErrorChars (a hostile
// file can put a megabyte into a name that a message quotes) keeps its beginning, which names
// the file and the place, and its end, which says what is allowed, around a marker.
inline constexpr std::size_t kMaxErrorChars = 1000;

inline std::string shortenMessage(std::string text) {
    if (text.size() <= kMaxErrorChars) return text;
    auto boundary = [&text](std::size_t i) {  // back to the start of a UTF-8 sequence
        while (i > 0 && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) --i;
        return i;
    };
    const std::size_t head = boundary(600);
    const std::size_t tail = boundary(text.size() - 300);
    return text.substr(0, head) + " … (" + std::to_string(tail - head) +
           " characters left out) … " + text.substr(tail);
}

struct Error {
    Error() = default;
    Error(std::string text) : message(shortenMessage(std::move(text))) {}  // NOLINT: implicit
    std::string message;
};

template <class T>
class Expected {
public:
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}      // NOLINT
    Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return std::get<0>(state_); }
    T& value() & { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }

    const Error& error() const { return std::get<1>(state_); }
    const std::string& message() const { return error().message; }

private:
    std::variant<T, Error> state_;
};

// Success or an Error, for operations without a result value.
class Status {
public:
    Status() = default;
    Status(Error error) : message_(std::move(error.message)), failed_(true) {}  // NOLINT
    static Status success() { return {}; }

    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const std::string& message() const { return message_; }

private:
    std::string message_;
    bool failed_ = false;
};

}  // namespace tandem::core
