#include "chunker.h"

#include "base/tokenestimate.h"

#include <QStringList>

namespace Knowledge {

namespace {

struct Span {
    qsizetype start;
    qsizetype end;
};

struct Section {
    QString trail;
    Span span;
};

bool isBlank(QStringView line)
{
    return line.trimmed().isEmpty();
}

// An ATX heading: up to three spaces, 1-6 '#', then a space or the end of the line.
int headingLevel(QStringView line, QString *title)
{
    qsizetype i = 0;
    while (i < line.size() && i < 3 && line[i] == u' ')
        ++i;
    qsizetype hashes = 0;
    while (i + hashes < line.size() && line[i + hashes] == u'#')
        ++hashes;
    if (hashes == 0 || hashes > 6)
        return 0;
    const qsizetype after = i + hashes;
    if (after < line.size() && line[after] != u' ' && line[after] != u'\t')
        return 0;
    QString t = line.mid(after).trimmed().toString();
    // A closing sequence of '#' is decoration, not part of the title.
    while (t.endsWith(u'#'))
        t.chop(1);
    *title = t.trimmed();
    return int(hashes);
}

bool isFence(QStringView line)
{
    const QStringView t = line.trimmed();
    return t.startsWith(u"```") || t.startsWith(u"~~~");
}

// The lines of [span) as spans without their line break.
QList<Span> lines(QStringView text, Span span)
{
    QList<Span> out;
    qsizetype pos = span.start;
    while (pos < span.end) {
        qsizetype nl = text.indexOf(u'\n', pos);
        if (nl < 0 || nl >= span.end)
            nl = span.end;
        out.append({pos, nl});
        pos = nl + 1;
    }
    return out;
}

QList<Section> sections(QStringView text, TextKind kind)
{
    if (kind != TextKind::Markdown)
        return {{QString(), {0, text.size()}}};
    QList<Section> out;
    QStringList trail; // index = level - 1
    Section current{QString(), {0, 0}};
    bool fenced = false;
    for (const Span &line : lines(text, {0, text.size()})) {
        const QStringView l = text.sliced(line.start, line.end - line.start);
        if (isFence(l))
            fenced = !fenced;
        QString title;
        const int level = fenced ? 0 : headingLevel(l, &title);
        if (level > 0) {
            current.span.end = line.start;
            if (current.span.end > current.span.start)
                out.append(current);
            trail.resize(level);
            trail[level - 1] = title;
            QStringList shown;
            for (const QString &part : std::as_const(trail))
                if (!part.isEmpty())
                    shown.append(part);
            current = {shown.join(QStringLiteral(" > ")), {line.start, line.start}};
        }
    }
    current.span.end = text.size();
    if (current.span.end > current.span.start)
        out.append(current);
    return out;
}

// Paragraphs: runs of non-blank lines. In Markdown a fenced block is one paragraph even with
// blank lines inside, so code is not cut from its fence.
QList<Span> paragraphs(QStringView text, Span span, TextKind kind)
{
    QList<Span> out;
    qsizetype start = -1;
    qsizetype end = -1;
    bool fenced = false;
    for (const Span &line : lines(text, span)) {
        const QStringView l = text.sliced(line.start, line.end - line.start);
        if (kind == TextKind::Markdown && isFence(l))
            fenced = !fenced;
        if (isBlank(l) && !fenced) {
            if (start >= 0)
                out.append({start, end});
            start = -1;
            continue;
        }
        if (start < 0)
            start = line.start;
        end = line.end;
    }
    if (start >= 0)
        out.append({start, end});
    return out;
}

qint64 tokens(QStringView text, Span s)
{
    return Base::estimateTokens(text.sliced(s.start, s.end - s.start));
}

bool endsSentence(QChar c)
{
    return c == u'.' || c == u'!' || c == u'?' || c == u'\n' || c == u'\u3002' || c == u'\uff01' || c == u'\uff1f'
           || c == u'\uff1b';
}

// Sentences, or lines, of an oversized paragraph; a sentence still too long is cut by length.
QList<Span> pieces(QStringView text, Span para, int maxTokens)
{
    QList<Span> sentences;
    qsizetype start = para.start;
    for (qsizetype i = para.start; i < para.end; ++i) {
        if (endsSentence(text[i]) && (i + 1 == para.end || text[i + 1].isSpace() || text[i].unicode() >= 0x3000)) {
            sentences.append({start, i + 1});
            start = i + 1;
        }
    }
    if (start < para.end)
        sentences.append({start, para.end});

    QList<Span> out;
    for (const Span &s : std::as_const(sentences)) {
        const qint64 t = tokens(text, s);
        if (t <= maxTokens) {
            out.append(s);
            continue;
        }
        // Proportional cut: estimateTokens is close to linear in length for uniform text.
        const qsizetype step = std::max<qsizetype>(1, (s.end - s.start) * maxTokens / t);
        qsizetype p = s.start;
        while (p < s.end) {
            qsizetype e = std::min(s.end, p + step);
            if (e < s.end && text[e - 1].isHighSurrogate())
                ++e; // never split a surrogate pair
            out.append({p, e});
            p = e;
        }
    }
    return out;
}

} // namespace

QList<Chunk> chunkText(QStringView text, TextKind kind, int maxTokens)
{
    QList<Chunk> out;
    for (const Section &section : sections(text, kind)) {
        QList<Span> units;
        for (const Span &p : paragraphs(text, section.span, kind)) {
            if (tokens(text, p) <= maxTokens)
                units.append(p);
            else
                units.append(pieces(text, p, maxTokens));
        }
        // Greedy packing: whole units, in order, while the passage stays within the limit.
        qsizetype i = 0;
        while (i < units.size()) {
            Span chunk = units[i];
            qsizetype j = i + 1;
            while (j < units.size() && tokens(text, {chunk.start, units[j].end}) <= maxTokens)
                chunk.end = units[j++].end;
            out.append({section.trail, chunk.start, chunk.end});
            i = j;
        }
    }
    return out;
}

QString joinPages(const QStringList &pages)
{
    return pages.join(QStringLiteral("\n\n"));
}

QList<Chunk> chunkPages(const QStringList &pages, int maxTokens)
{
    QList<Chunk> out;
    qsizetype offset = 0;
    for (qsizetype i = 0; i < pages.size(); ++i) {
        for (Chunk c : chunkText(pages.at(i), TextKind::PlainText, maxTokens)) {
            c.start += offset;
            c.end += offset;
            c.page = int(i + 1);
            out.append(c);
        }
        offset += pages.at(i).size() + 2; // the separator of joinPages()
    }
    return out;
}

} // namespace Knowledge
