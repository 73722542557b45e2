#pragma once

#include "base/markdownblocks.h"

#include <QString>
#include <QStringList>
#include <QWidget>

class QPlainTextEdit;
class QTextBrowser;
class QTextCursor;
class QTextDocument;
class QToolButton;

namespace Gui {

class AnswerBrowser;
class CodeCopyButtons;
class CodeHighlighter;

// One answer as Markdown, while it streams and afterwards.
//
// Streaming never re-lays-out the whole answer: Base::MarkdownBlocks scans the source line by
// line for blocks that can no longer change (a paragraph closed by a blank line, a heading, a
// closed code fence, a list item once the next one starts), each is rendered once through
// QTextDocument::setMarkdown on that fragment alone and appended; only the open tail after
// them is shown as plain text, extended with each piece and replaced when the next block
// completes. Each piece is rendered when it is given: the caller batches (StreamFollower hands
// over frame-sized pieces). Consecutive list items rendered separately are joined into one list
// again, so numbering continues.
//
// Code blocks are syntax-highlighted (CodeHighlighter) and carry a Copy button
// (CodeCopyButtons); both follow the document as it grows.
//
// Reasoning (ReasoningDelta) goes into a folded section above the answer: a toggle
// "Reasoning (N words)" that opens a smaller, muted text.
//
// The view grows with its content (no inner scroll bar) so that a transcript of several
// answers scrolls as one. Colours come from the palette; sizes from font metrics. GUI thread.
class MarkdownView : public QWidget
{
    Q_OBJECT

public:
    explicit MarkdownView(QWidget *parent = nullptr);
    ~MarkdownView() override;

    // Streaming: pieces of the answer's Markdown and of its reasoning, in order.
    void appendText(const QString &text);
    void appendReasoning(const QString &text);
    // The answer is complete (or ended): the open tail is rendered as Markdown too.
    void finish();

    // A stored answer, rendered in one go.
    void setMarkdown(const QString &markdown);
    void setReasoning(const QString &reasoning);
    void clear();

    // Citations [1]..[n] in the text become links (citationClicked), n the number of tooltips,
    // tooltip i - 1 that of link [i]; none, the default: no links. Set before the text arrives:
    // what is rendered already stays as it is.
    void setCitations(const QStringList &toolTips) { m_citationTips = toolTips; }

    QString markdown() const { return m_source; }
    // The text as shown (rendered).
    QString plainText() const;
    QString reasoning() const { return m_reasoning; }
    int reasoningWordCount() const { return m_reasoningWords; }
    bool isReasoningExpanded() const;
    void setReasoningExpanded(bool expanded);
    bool isFinished() const { return m_finished; }
    // How much of markdown() is rendered as Markdown; the rest is the open tail.
    qsizetype renderedLength() const { return m_committed; }
    QTextDocument *document() const;
    // The rich-text view of the answer (where keyboard focus and selection go).
    QTextBrowser *textView() const;
    // Shown while there is no answer.
    void setPlaceholderText(const QString &text);
    CodeCopyButtons *codeCopyButtons() const { return m_copyButtons; }
    CodeHighlighter *highlighter() const { return m_highlighter; }

signals:
    // The first piece of the answer or of its reasoning is in the view.
    void firstTextShown();
    // A citation link [number] was clicked (setCitations()).
    void citationClicked(int number);

protected:
    void changeEvent(QEvent *event) override;

private:
    QString withCitationLinks(const QString &markdown) const;
    // Shows what is in m_source and not in the view yet; the first time, firstTextShown().
    void render();
    void commitUpTo(qsizetype boundary);
    void appendTail();
    void renderFragment(QTextCursor &cursor, const QString &markdown);
    void removeTrailingEmptyBlock();
    void updateReasoningToggle();
    void applyPaletteToDocument();
    void applyReasoningStyle();
    void updateReasoningHeight();

    AnswerBrowser *m_browser;
    QToolButton *m_reasoningToggle;
    QPlainTextEdit *m_reasoningView;
    CodeHighlighter *m_highlighter; // owned by the browser's document
    CodeCopyButtons *m_copyButtons; // owned by the browser

    QString m_source;          // the whole answer so far
    qsizetype m_committed = 0; // m_source[0, m_committed) is rendered as Markdown
    qsizetype m_tailShown = 0; // m_source[m_committed, m_tailShown) is in the tail as plain text
    int m_tailStart = 0;       // document position of the tail's first block
    bool m_tailMonospace = false;
    Base::MarkdownBlocks m_blocks; // where m_source's complete blocks end
    bool m_finished = false;
    bool m_shownFirst = false;
    QStringList m_citationTips;

    QString m_reasoning;
    int m_reasoningWords = 0;
    bool m_inReasoningWord = false;
};

} // namespace Gui
