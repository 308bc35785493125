#pragma once
// Int64 arithmetic for tensor sizes that remembers whether anything overflowed. Builders compute
// dozens of products of user-supplied sizes (microbatch × sequence × hidden × bytes…); rather
// than checking each one at its call site, they route them through one CheckedArithmetic and ask
// once at the end, turning absurd inputs into an error instead of undefined behaviour. After an
// overflow the results are meaningless (0) but the flag stays set.
#include <cstdint>
#include <initializer_list>

namespace tandem::core::model {

class CheckedArithmetic {
public:
    std::int64_t mul(std::initializer_list<std::int64_t> factors) {
        std::int64_t product = 1;
        for (std::int64_t f : factors) {
            if (__builtin_mul_overflow(product, f, &product)) return fail();
        }
        return product;
    }
    std::int64_t add(std::initializer_list<std::int64_t> terms) {
        std::int64_t sum = 0;
        for (std::int64_t x : terms) {
            if (__builtin_add_overflow(sum, x, &sum)) return fail();
        }
        return sum;
    }
    // ⌈a / b⌉ for a ≥ 0, b > 0 (callers validate b).
    std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
        if (b <= 0 || a < 0) return fail();
        return a / b + (a % b != 0 ? 1 : 0);
    }
    bool overflowed() const { return overflowed_; }

private:
    std::int64_t fail() {
        overflowed_ = true;
        return 0;
    }
    bool overflowed_ = false;
};

}  // namespace tandem::core::model
