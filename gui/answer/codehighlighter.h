#pragma once

#include <QPalette>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QTextBlock;
class QTextBlockFormat;
class QTextDocument;

namespace Gui {

// True for a block the Markdown importer made from a code block (fenced or indented).
bool isCodeBlock(const QTextBlockFormat &format);
// The code of the code block that `first` starts (its consecutive code lines, same language),
// with "\n" between lines: what a Copy button puts on the clipboard.
QString codeBlockText(const QTextBlock &first);

// Highlights the code blocks of a rendered Markdown document: keywords, strings, comments and
// numbers for C/C++, Python, JavaScript/TypeScript, JSON and shell (chosen by the fence's info
// string), strings, numbers and common comments for anything else. Text outside code blocks is
// left alone. Colours come from the palette (setPalette), so they follow light and dark themes.
// It is small on purpose: Debian 12 packages KSyntaxHighlighting only for Qt 5 (see docs/ui.md).
// GUI thread; the document's owner owns it.
class CodeHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT

public:
    enum class Kind { Keyword, String, Comment, Number };

    explicit CodeHighlighter(QTextDocument *document);

    // Re-derives the colours from `palette` and highlights again.
    void setPalette(const QPalette &palette);
    QTextCharFormat format(Kind kind) const;

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_keyword;
    QTextCharFormat m_string;
    QTextCharFormat m_comment;
    QTextCharFormat m_number;
};

} // namespace Gui
