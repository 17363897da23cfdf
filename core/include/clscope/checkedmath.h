// Checked size arithmetic: sums and products of unsigned sizes that report overflow instead of wrapping.
// Every size a run computes from user input (buffer bytes, __local sums, NDRange products, initialiser
// lengths) goes through these, so that 2^64-1 plus a little is "too large", never a small number.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <type_traits>

namespace clscope {

// a + b, or nothing when the exact sum does not fit in T.
template<typename T> constexpr std::optional<T> checkedAdd(T a, T b)
{
    static_assert(std::is_unsigned_v<T>, "sizes are unsigned");
    T r{};
    if (__builtin_add_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

// a * b, or nothing when the exact product does not fit in T.
template<typename T> constexpr std::optional<T> checkedMul(T a, T b)
{
    static_assert(std::is_unsigned_v<T>, "sizes are unsigned");
    T r{};
    if (__builtin_mul_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

// The sum of every element of a range of unsigned values, or nothing on overflow.
template<typename T, typename Range> constexpr std::optional<T> checkedSum(const Range &values)
{
    T total = 0;
    for (const auto &v : values) {
        const auto next = checkedAdd<T>(total, T(v));
        if (!next)
            return std::nullopt;
        total = *next;
    }
    return total;
}

// The product of every element (1 for none), or nothing on overflow.
template<typename T, typename Range> constexpr std::optional<T> checkedProduct(const Range &values)
{
    T total = 1;
    for (const auto &v : values) {
        const auto next = checkedMul<T>(total, T(v));
        if (!next)
            return std::nullopt;
        total = *next;
    }
    return total;
}

} // namespace clscope
