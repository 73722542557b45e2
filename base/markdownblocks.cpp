#include "base/markdownblocks.h"

namespace Base {

namespace {

// --- line classification (CommonMark block starts, as far as block boundaries need) ---------

bool isSpaceOrTab(QChar c)
{
    return c == u' ' || c == u'\t';
}

struct ListMarker {
    bool found = false;
    bool ordered = false;
    bool startsAtOne = false;
    int contentIndent = 0; // columns from the line start to the item's text
};

ListMarker listMarker(QStringView rest, int indent)
{
    ListMarker m;
    qsizetype pos = 0;
    if (rest.isEmpty())
        return m;
    if (rest[0] == u'-' || rest[0] == u'*' || rest[0] == u'+') {
        pos = 1;
    } else {
        qint64 number = 0;
        while (pos < rest.size() && pos < 9 && rest[pos].isDigit() && rest[pos].unicode() < 128) {
            number = number * 10 + (rest[pos].unicode() - u'0');
            ++pos;
        }
        if (pos == 0 || pos >= rest.size() || (rest[pos] != u'.' && rest[pos] != u')'))
            return m;
        ++pos;
        m.ordered = true;
        m.startsAtOne = number == 1;
    }
    if (pos < rest.size() && !isSpaceOrTab(rest[pos]))
        return m; // "-x", "1.5": not a marker
    qsizetype spaces = 0;
    while (pos + spaces < rest.size() && isSpaceOrTab(rest[pos + spaces]))
        ++spaces;
    // Five or more spaces after the marker: the item's text starts after one (the rest is an
    // indented code block).
    if (spaces == 0 || spaces > 4 || pos + spaces == rest.size())
        spaces = 1;
    m.found = true;
    m.contentIndent = indent + int(pos + spaces);
    return m;
}

bool isFenceOpen(QStringView rest, QChar *ch, qsizetype *length)
{
    if (rest.isEmpty() || (rest[0] != u'`' && rest[0] != u'~'))
        return false;
    qsizetype n = 0;
    while (n < rest.size() && rest[n] == rest[0])
        ++n;
    if (n < 3)
        return false;
    if (rest[0] == u'`' && rest.mid(n).contains(u'`'))
        return false; // a backtick fence's info string has no backticks (it is inline code)
    *ch = rest[0];
    *length = n;
    return true;
}

bool isFenceClose(QStringView rest, QChar ch, qsizetype length)
{
    qsizetype n = 0;
    while (n < rest.size() && rest[n] == ch)
        ++n;
    return n >= length && rest.mid(n).trimmed().isEmpty();
}

bool isAtxHeading(QStringView rest)
{
    qsizetype n = 0;
    while (n < rest.size() && rest[n] == u'#')
        ++n;
    return n >= 1 && n <= 6 && (n == rest.size() || isSpaceOrTab(rest[n]));
}

} // namespace

QList<qsizetype> MarkdownBlocks::feed(QStringView text)
{
    QList<qsizetype> ends;
    if (m_finished)
        return ends;
    const qsizetype offset = m_size; // of text[0] in the source
    m_size += text.size();
    qsizetype from = 0;
    for (qsizetype newline = text.indexOf(u'\n'); newline >= 0; newline = text.indexOf(u'\n', from)) {
        QStringView line = text.mid(from, newline - from);
        if (!m_line.isEmpty()) { // its beginning came with an earlier piece
            m_line += line;
            line = m_line;
        }
        if (line.endsWith(u'\r'))
            line.chop(1);
        classifyLine(line, m_lineStart, offset + newline + 1, ends);
        m_line.clear();
        m_lineStart = offset + newline + 1;
        from = newline + 1;
    }
    m_line += text.mid(from);
    return ends;
}

QList<qsizetype> MarkdownBlocks::finish()
{
    QList<qsizetype> ends;
    if (m_finished)
        return ends;
    m_finished = true;
    m_line.clear();
    setBoundary(m_size, ends);
    return ends;
}

void MarkdownBlocks::setBoundary(qsizetype offset, QList<qsizetype> &ends)
{
    if (offset <= m_boundary)
        return;
    m_boundary = offset;
    ends.append(offset);
}

// Moves the boundary past every block that the lines so far complete.
void MarkdownBlocks::classifyLine(QStringView line, qsizetype start, qsizetype end, QList<qsizetype> &ends)
{
    qsizetype pos = 0;
    int indent = 0;
    while (pos < line.size() && isSpaceOrTab(line[pos])) {
        indent += line[pos] == u'\t' ? 4 - indent % 4 : 1;
        ++pos;
    }
    const QStringView rest = line.mid(pos);
    QChar fenceChar;
    qsizetype fenceLength = 0;

    if (m_inFence) {
        const int maxIndent = m_fenceInList ? m_listContentIndent + 3 : 3;
        if (indent <= maxIndent && isFenceClose(rest, m_fenceChar, m_fenceLength)) {
            m_inFence = false;
            if (!m_fenceInList) {
                setBoundary(end, ends);
                m_group = Group::None;
            }
        }
        return;
    }

    if (rest.trimmed().isEmpty()) {
        switch (m_group) {
        case Group::None:
        case Group::Paragraph:
            setBoundary(end, ends);
            m_group = Group::None;
            break;
        case Group::List:
        case Group::IndentedCode:
            m_blankInList = true; // the item (or code) may go on, indented, or end
            break;
        }
        return;
    }

    if (m_group == Group::List && indent >= m_listContentIndent) {
        // Inside the current item: its paragraphs, a nested list, its code.
        m_blankInList = false;
        if (isFenceOpen(rest, &fenceChar, &fenceLength)) {
            m_inFence = true;
            m_fenceChar = fenceChar;
            m_fenceLength = fenceLength;
            m_fenceInList = true;
        }
        return;
    }

    if (m_group == Group::IndentedCode) {
        if (indent >= 4) {
            m_blankInList = false;
            return;
        }
        if (!m_blankInList)
            return; // a paragraph line right after: not possible in CommonMark, keep it together
        setBoundary(start, ends);
        m_group = Group::None;
        m_blankInList = false;
    }

    const ListMarker marker = indent <= 3 ? listMarker(rest, indent) : ListMarker{};
    const bool blockStart = indent <= 3
                            && (isFenceOpen(rest, &fenceChar, &fenceLength) || isAtxHeading(rest)
                                || rest.startsWith(u'>'));
    if (m_group == Group::List) {
        if (marker.found) {
            // The next item: the previous one is complete.
            setBoundary(start, ends);
            m_listContentIndent = marker.contentIndent;
            m_blankInList = false;
            return;
        }
        if (!m_blankInList && !blockStart)
            return;               // a lazy continuation line of the item's paragraph
        setBoundary(start, ends); // the list ended
        m_group = Group::None;
        m_blankInList = false;
    }

    if (indent <= 3) {
        if (isFenceOpen(rest, &fenceChar, &fenceLength)) {
            setBoundary(start, ends); // a fence interrupts a paragraph
            m_inFence = true;
            m_fenceChar = fenceChar;
            m_fenceLength = fenceLength;
            m_fenceInList = false;
            m_group = Group::Paragraph;
            return;
        }
        if (isAtxHeading(rest)) {
            setBoundary(end, ends); // one line, and it ends the paragraph before it
            m_group = Group::None;
            return;
        }
        // Only a bullet or "1." interrupts a paragraph (CommonMark); "2." there is just text.
        if (marker.found && (m_group == Group::None || !marker.ordered || marker.startsAtOne)) {
            setBoundary(start, ends);
            m_group = Group::List;
            m_listContentIndent = marker.contentIndent;
            m_blankInList = false;
            return;
        }
    }
    if (m_group == Group::None)
        m_group = indent >= 4 ? Group::IndentedCode : Group::Paragraph;
}

} // namespace Base
