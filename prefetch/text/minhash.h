#pragma once

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>

#include <array>
#include <cstdint>

namespace Prefetch {

// Near-duplicate questions by MinHash over shingles, with LSH bands so that a lookup reads only
// the entries sharing a band instead of every entry. Word shingles (single words and word pairs)
// for English and other spaced scripts; character pairs for Chinese and Japanese, which have no
// spaces to split on. The hashes are fixed (FNV-1a and constant seeds, not qHash, which is
// seeded per process): signatures are stored and compared across runs. A value type.
class MinHash
{
public:
    static constexpr int Size = 64;
    // 16 bands of 4 rows: two questions of Jaccard similarity s share a band with probability
    // 1 - (1 - s^4)^16, about 0.64 at s = 0.5 and over 0.99 at s = 0.7, so the draft threshold's
    // neighbours are found and unrelated questions (s < 0.3, about 0.12) rarely read.
    static constexpr int Bands = 16;
    static constexpr int Rows = Size / Bands;
    using Signature = std::array<std::uint32_t, Size>;

    // Normalised (case folded, punctuation dropped) shingles of `text`.
    static QSet<QString> shingles(const QString &text);
    static Signature signature(const QSet<QString> &shingles);
    static Signature signature(const QString &text) { return signature(shingles(text)); }
    // The estimated Jaccard similarity: the share of equal positions.
    static double similarity(const Signature &a, const Signature &b);
    // One hash per band, what the store indexes.
    static std::array<std::uint32_t, Bands> bands(const Signature &signature);

    static QByteArray toBytes(const Signature &signature);
    // False for a blob of the wrong size (a damaged row).
    static bool fromBytes(const QByteArray &bytes, Signature *out);
};

} // namespace Prefetch
