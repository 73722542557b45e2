#pragma once

#include "localprovider/stablehash.h"

#include <QList>

#include <algorithm>
#include <array>
#include <cmath>

// Traces must be the same bytes on every platform, so the generator's floating-point steps use
// only + - * / and sqrt (exact in IEEE 754) and must not be fused into FMAs, which GCC and Clang
// do on their own on targets that have them (aarch64, x86-64 with -march=haswell) and which round
// differently. Every generator source includes this header before defining a function, so the
// pragma covers all of them. Times and pixels are rounded to integers after that.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#endif

namespace Bench::Gen {

struct IntRange {
    int min;
    int max; // inclusive
};

// A duration in ms drawn from a lognormal distribution: `medianMs` and `sigma` (the standard
// deviation of its logarithm, so 0.5 puts two thirds of the draws within ×0.6..×1.65 of the
// median). Draws outside [minMs, maxMs] are drawn again: a person's times have a floor and a
// ceiling, and clamping instead would pile draws up on the bounds.
struct Lognormal {
    double medianMs;
    double sigma;
    qint64 minMs;
    qint64 maxMs;
};

// log and exp from + - * / only: libm's may differ in the last bit between platforms, and one bit
// is enough to round a time to the other millisecond. Accurate to a few ulp, which is plenty.
double portableLog(double x); // x > 0
double portableExp(double x); // |x| < 700
double portableLog2(double x);

// The local provider's splitmix64 (as documents.cpp uses it) with the distributions built on it:
// std:: distributions give different numbers with different standard libraries.
class Random
{
public:
    explicit Random(quint64 seed)
        : m_rng(seed)
    {
    }

    quint64 next() { return m_rng.next(); }
    // [0, 1) from 53 random bits, exactly.
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
    double uniform(double low, double high) { return low + (high - low) * uniform(); }
    int below(int n) { return int(next() % quint64(n)); } // bias < 2^-50 for our small n
    int between(IntRange range) { return range.min + below(range.max - range.min + 1); }
    bool chance(double probability) { return uniform() < probability; }

    // Standard normal: Box–Muller in Marsaglia's polar form, which needs no sin/cos.
    double normal();
    qint64 draw(const Lognormal &d);
    // A factor around 1: exp(sigma · N(0, 1)), for multiplicative noise on a computed time.
    double factor(double sigma) { return portableExp(sigma * normal()); }

    template <typename T>
    const T &pick(const QList<T> &list)
    {
        return list.at(below(int(list.size())));
    }

    // Index into `weights`, each chosen with probability weight / sum.
    template <size_t N>
    int weighted(const std::array<int, N> &weights)
    {
        int total = 0;
        for (int w : weights)
            total += w;
        int r = below(total);
        for (size_t i = 0; i < N; ++i) {
            if (r < weights[i])
                return int(i);
            r -= weights[i];
        }
        return int(N) - 1;
    }

    template <typename T>
    void shuffle(QList<T> &list) // Fisher–Yates
    {
        for (qsizetype i = list.size() - 1; i > 0; --i)
            list.swapItemsAt(i, below(int(i + 1)));
    }

private:
    LocalProvider::Rng m_rng;
};

} // namespace Bench::Gen
