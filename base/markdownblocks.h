#pragma once

#include <QChar>
#include <QList>
#include <QString>
#include <QStringView>

namespace Base {

// Where the complete blocks of a Markdown text end, while the text is still arriving.
//
// Fed the source piece by piece, it reads it line by line (a line ends at LF; a CR before the
// LF is not part of the line) and moves boundary() past every block that the lines so far
// complete: a paragraph closed by a blank line, an ATX heading, a closed code fence (``` or
// ~~~), a list item once the next item starts or the list ends, an indented code block once a
// line after a blank one is not indented. Everything before boundary() is complete blocks,
// each of which renders alone as it does within the whole text (a list's items are blocks of
// their own: the view joins them into one list again); the rest is the open tail, which may
// still change as more arrives. A table is a paragraph here: it ends at the blank line after it.
//
// It errs on the side of waiting: a block declared complete too early would render differently
// from the whole text, one declared late only stays open a little longer. A line still
// arriving (no LF yet) is never looked at, so the ends are the same for every way of splitting
// the same text into pieces, and each is at the start of a line. A lone CR is not a line end
// (models send LF or CRLF): a text with CR alone has no boundary before finish().
//
// The rules are CommonMark's block starts as far as block boundaries need them, with GitHub's
// fenced code and tables. It renders nothing (MarkdownView gives each complete piece to Qt's
// Markdown importer) and keeps only the line still arriving, not the text. Pure value, QtCore
// only; use from one thread at a time.
class MarkdownBlocks
{
public:
    // Reads `text`, the next piece of the source. Returns the block ends it revealed, in
    // increasing order, each an offset into everything fed so far (UTF-16 code units); the
    // last of them, if any, is the new boundary().
    QList<qsizetype> feed(QStringView text);
    // The source has ended: whatever is open is complete. Returns the end it adds (size()), if
    // the text did not end on a boundary already. Nothing may be fed after it but reset().
    QList<qsizetype> finish();
    void reset() { *this = MarkdownBlocks(); }

    // [0, boundary()) of the source is complete blocks.
    qsizetype boundary() const { return m_boundary; }
    // Everything fed so far.
    qsizetype size() const { return m_size; }
    // The open tail is inside a code fence at the top level (not one in a list item): a view
    // shows it in a fixed-pitch font until the fence closes.
    bool inOpenFence() const { return m_inFence && !m_fenceInList && !m_finished; }
    bool isFinished() const { return m_finished; }

private:
    enum class Group { None, Paragraph, List, IndentedCode };

    // `line` without its line end; it spans [start, end) of the source, end after the LF.
    void classifyLine(QStringView line, qsizetype start, qsizetype end, QList<qsizetype> &ends);
    void setBoundary(qsizetype offset, QList<qsizetype> &ends);

    QString m_line;            // the line still arriving (no LF yet)
    qsizetype m_lineStart = 0; // where it starts in the source
    qsizetype m_size = 0;
    qsizetype m_boundary = 0;
    bool m_finished = false;

    bool m_inFence = false;
    QChar m_fenceChar;
    qsizetype m_fenceLength = 0;
    bool m_fenceInList = false;
    Group m_group = Group::None;
    int m_listContentIndent = 0; // a line indented at least this much belongs to the item
    bool m_blankInList = false;  // a blank line inside a list or indented code: continued or ended?
};

} // namespace Base
