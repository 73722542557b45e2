// The Markdown block scanner (Base::MarkdownBlocks) over arbitrary text, read whole and in
// input-derived pieces (which split CRLFs and surrogate pairs too).
// Invariants: the same block ends, boundary and open-fence state for both splits (the scanner's
// promise); the ends increase, lie within what was fed and each follows an LF; boundary() is the
// last of them; finish() ends the text at its size.

#include "fuzzsupport.h"

#include "base/markdownblocks.h"

#include <QString>

namespace {

struct Outcome {
    QList<qsizetype> ends;
    qsizetype boundary = 0;
    bool inOpenFence = false;
};

Outcome run(const QString &text, const QList<qsizetype> &sizes)
{
    Base::MarkdownBlocks blocks;
    Outcome o;
    qsizetype pos = 0;
    auto take = [&](qsizetype size) {
        const QList<qsizetype> ends = blocks.feed(QStringView(text).mid(pos, size));
        pos += size;
        FUZZ_CHECK(blocks.size() == pos);
        for (qsizetype end : ends) {
            FUZZ_CHECK(end > (o.ends.isEmpty() ? 0 : o.ends.constLast()));
            FUZZ_CHECK(end <= pos);
            FUZZ_CHECK(text.at(end - 1) == u'\n');
            o.ends.append(end);
        }
        FUZZ_CHECK(blocks.boundary() == (o.ends.isEmpty() ? 0 : o.ends.constLast()));
    };
    for (qsizetype size : sizes) {
        if (pos == text.size())
            break;
        take(qMin(size, text.size() - pos));
    }
    take(text.size() - pos);
    o.boundary = blocks.boundary();
    o.inOpenFence = blocks.inOpenFence();

    const QList<qsizetype> last = blocks.finish();
    FUZZ_CHECK(blocks.boundary() == text.size());
    FUZZ_CHECK(!blocks.inOpenFence());
    FUZZ_CHECK(last == (o.boundary < text.size() ? QList<qsizetype>{text.size()} : QList<qsizetype>{}));
    FUZZ_CHECK(blocks.feed(u"\n\n").isEmpty() && blocks.size() == text.size()); // nothing after the end
    return o;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString text = QString::fromUtf8(bytes);
    const Outcome whole = run(text, {});
    // The byte-derived sizes, read as UTF-16 units: mostly 1-16, now and then up to 512.
    const Outcome pieces = run(text, Fuzz::chunkSizes(bytes));
    FUZZ_CHECK(whole.ends == pieces.ends);
    FUZZ_CHECK(whole.boundary == pieces.boundary);
    FUZZ_CHECK(whole.inOpenFence == pieces.inOpenFence);
    return 0;
}
