#pragma once

#include <QStringView>
#include <QtGlobal>

namespace LocalProvider {

// Hashes that are identical in every process and on every run (qHash is seeded per process):
// the same request must give the same text and the same cache keys everywhere.
namespace StableHash {

inline constexpr quint64 Offset = 14695981039346656037ULL;
inline constexpr quint64 Prime = 1099511628211ULL;

// FNV-1a.
inline quint64 bytes(const char *data, qsizetype size, quint64 h = Offset)
{
    for (qsizetype i = 0; i < size; ++i) {
        h ^= static_cast<unsigned char>(data[i]);
        h *= Prime;
    }
    return h;
}

// FNV-1a over UTF-16 code units, low byte first regardless of the host's byte order.
inline quint64 text(QStringView s, quint64 h = Offset)
{
    for (QChar c : s) {
        const char16_t u = c.unicode();
        h ^= u & 0xffu;
        h *= Prime;
        h ^= u >> 8;
        h *= Prime;
    }
    return h;
}

// splitmix64's finalizer: FNV alone mixes its last bytes poorly.
inline quint64 mix(quint64 x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

inline quint64 combine(quint64 h, quint64 v)
{
    return mix(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

} // namespace StableHash

// splitmix64: tiny and identical everywhere, unlike the standard distributions.
class Rng
{
public:
    explicit Rng(quint64 seed)
        : m_state(seed)
    {
    }
    quint64 next()
    {
        m_state += 0x9e3779b97f4a7c15ULL;
        return StableHash::mix(m_state);
    }
    // Uniform enough in [0, n) for n far below 2^64.
    int bounded(int n) { return n <= 1 ? 0 : static_cast<int>(next() % static_cast<quint64>(n)); }

private:
    quint64 m_state;
};

} // namespace LocalProvider
