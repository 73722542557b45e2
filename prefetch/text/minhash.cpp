#include "minhash.h"

#include "base/text.h"

#include <QtEndian>

#include <algorithm>

namespace Prefetch {

namespace {

std::uint64_t fnv1a(const QByteArray &bytes, std::uint64_t seed = 1469598103934665603ull)
{
    std::uint64_t h = seed;
    for (char c : bytes) {
        h ^= std::uint8_t(c);
        h *= 1099511628211ull;
    }
    return h;
}

std::uint64_t splitmix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

} // namespace

QSet<QString> MinHash::shingles(const QString &text)
{
    QSet<QString> out;
    const QString folded = text.toCaseFolded();
    // Runs of unspaced-script characters give character pairs; everything else words. A
    // question mixing both (a Chinese question naming an English API) gets both kinds.
    QString run;
    QStringList words;
    QString word;
    auto flushRun = [&] {
        if (run.size() == 1)
            out.insert(run);
        for (qsizetype i = 0; i + 1 < run.size(); ++i)
            out.insert(run.mid(i, 2));
        run.clear();
    };
    auto flushWord = [&] {
        if (!word.isEmpty())
            words.append(word);
        word.clear();
    };
    for (QChar c : folded) {
        if (Base::isCjkLetter(c.unicode())) {
            flushWord();
            run.append(c);
        } else if (c.isLetterOrNumber()) {
            flushRun();
            word.append(c);
        } else {
            flushRun();
            flushWord(); // punctuation and spaces separate words; apostrophes too
        }
    }
    flushRun();
    flushWord();
    // Single words and pairs: single words make a reworded question still close, pairs keep
    // "dog bites man" apart from "man bites dog" a little.
    for (qsizetype i = 0; i < words.size(); ++i) {
        out.insert(words[i]);
        if (i + 1 < words.size())
            out.insert(words[i] + QLatin1Char(' ') + words[i + 1]);
    }
    return out;
}

MinHash::Signature MinHash::signature(const QSet<QString> &shingles)
{
    Signature sig;
    sig.fill(UINT32_MAX);
    for (const QString &s : shingles) {
        const std::uint64_t h = fnv1a(s.toUtf8());
        for (int i = 0; i < Size; ++i) {
            const auto v = std::uint32_t(splitmix(h ^ splitmix(std::uint64_t(i) + 1)) >> 32);
            sig[size_t(i)] = std::min(sig[size_t(i)], v);
        }
    }
    return sig;
}

double MinHash::similarity(const Signature &a, const Signature &b)
{
    int equal = 0;
    for (int i = 0; i < Size; ++i)
        equal += a[size_t(i)] == b[size_t(i)] && a[size_t(i)] != UINT32_MAX;
    return double(equal) / Size;
}

std::array<std::uint32_t, MinHash::Bands> MinHash::bands(const Signature &signature)
{
    std::array<std::uint32_t, Bands> out{};
    for (int b = 0; b < Bands; ++b) {
        const QByteArray rows(reinterpret_cast<const char *>(signature.data() + b * Rows),
                              qsizetype(Rows * sizeof(std::uint32_t)));
        // The band's number in the seed: equal rows in different bands are not a match.
        out[size_t(b)] = std::uint32_t(fnv1a(rows, splitmix(std::uint64_t(b))) >> 32);
    }
    return out;
}

QByteArray MinHash::toBytes(const Signature &signature)
{
    QByteArray out(qsizetype(Size * 4), Qt::Uninitialized);
    for (int i = 0; i < Size; ++i)
        qToLittleEndian(signature[size_t(i)], out.data() + i * 4);
    return out;
}

bool MinHash::fromBytes(const QByteArray &bytes, Signature *out)
{
    if (bytes.size() != Size * 4)
        return false;
    for (int i = 0; i < Size; ++i)
        (*out)[size_t(i)] = qFromLittleEndian<std::uint32_t>(bytes.constData() + i * 4);
    return true;
}

} // namespace Prefetch
