#pragma once

// Shared by the fuzz targets: deterministic chunking derived from the input and a check that
// aborts with a message (libFuzzer then saves the input as a crash).

#include <QByteArrayView>
#include <QList>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace Fuzz {

[[noreturn]] inline void violated(const char *what, const char *file, int line)
{
    std::fprintf(stderr, "fuzz invariant violated: %s (%s:%d)\n", what, file, line);
    std::abort();
}

#define FUZZ_CHECK(cond) ((cond) ? void(0) : ::Fuzz::violated(#cond, __FILE__, __LINE__))

// Read sizes for `bytes`, from a generator seeded with a hash of the bytes: every mutation of
// the input also moves the read boundaries, so splits inside CRLF, inside a BOM, inside a
// UTF-8 sequence or a field name get explored without spending input bytes on them. Mostly
// small reads (1-16 bytes), now and then a large one, as sockets deliver.
inline QList<qsizetype> chunkSizes(QByteArrayView bytes)
{
    std::uint64_t state = 0xcbf29ce484222325ull; // FNV-1a
    for (char c : bytes)
        state = (state ^ std::uint8_t(c)) * 0x100000001b3ull;
    auto next = [&state] { // splitmix64
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    QList<qsizetype> sizes;
    for (qsizetype left = bytes.size(); left > 0;) {
        const std::uint64_t r = next();
        const qsizetype size = qMin<qsizetype>(left, (r & 7) == 0 ? qsizetype(1 + (r >> 8) % 512)
                                                                  : qsizetype(1 + (r >> 8) % 16));
        sizes.append(size);
        left -= size;
    }
    return sizes;
}

} // namespace Fuzz
