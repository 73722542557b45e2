#include "random.h"

namespace Bench::Gen {

namespace {
constexpr double Ln2 = 0.693147180559945309417;
}

double portableLog(double x)
{
    int exponent = 0;
    double m = std::frexp(x, &exponent); // exact: x = m * 2^exponent, m in [0.5, 1)
    if (m < 0.70710678118654752) {
        m *= 2;
        --exponent;
    }
    // ln m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), |s| < 0.18
    const double s = (m - 1) / (m + 1);
    const double s2 = s * s;
    double term = s;
    double sum = 0;
    for (int k = 1; k < 40; k += 2) {
        sum += term / k;
        term *= s2;
    }
    return 2 * sum + exponent * Ln2;
}

double portableExp(double x)
{
    const double k = std::floor(x / Ln2 + 0.5);
    const double r = x - k * Ln2; // |r| <= ln2 / 2
    double term = 1;
    double sum = 1;
    for (int n = 1; n <= 24; ++n) {
        term = term * r / n;
        sum += term;
    }
    return std::ldexp(sum, int(k));
}

double portableLog2(double x)
{
    return portableLog(x) / Ln2;
}

double Random::normal()
{
    for (;;) {
        const double u = 2 * uniform() - 1;
        const double v = 2 * uniform() - 1;
        const double s = u * u + v * v;
        if (s > 0 && s < 1)
            return u * std::sqrt(-2 * portableLog(s) / s);
    }
}

qint64 Random::draw(const Lognormal &d)
{
    qint64 ms = 0;
    for (int attempt = 0; attempt < 32; ++attempt) {
        ms = std::llround(d.medianMs * portableExp(d.sigma * normal()));
        if (ms >= d.minMs && ms <= d.maxMs)
            return ms;
    }
    return std::clamp(ms, d.minMs, d.maxMs);
}

} // namespace Bench::Gen
