#include "gui/answer/markdownview.h"

#include "gui/answer/codecopybuttons.h"
#include "gui/answer/codehighlighter.h"
#include "gui/widgets/fittedtextbrowser.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QEvent>
#include <QFontDatabase>
#include <QHash>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtMath>

namespace Gui {

namespace {

// The reasoning section, when open, shows this many lines and scrolls beyond.
constexpr int ReasoningLines = 8;

// A list made of separately rendered items is one list again: the nearest list above `block`
// (within the run of list blocks right before it) with the same style and indent.
QTextList *continuableList(const QTextBlock &block, const QTextListFormat &format)
{
    for (QTextBlock b = block.previous(); b.isValid() && b.textList(); b = b.previous()) {
        QTextList *list = b.textList();
        const QTextListFormat f = list->format();
        if (f.indent() == format.indent())
            return f.style() == format.style() ? list : nullptr;
        if (f.indent() < format.indent())
            return nullptr; // a nested list under another parent item starts afresh
    }
    return nullptr;
}

// Copies a document rendered from one Markdown fragment to `cursor`, block by block with their
// formats. (QTextCursor::insertFragment would merge the first block into the cursor's block and
// lose its heading, list or code format.)
class FragmentCopier
{
public:
    FragmentCopier(QTextCursor &cursor, const QPalette &palette)
        : m_cursor(cursor)
        , m_palette(palette)
    {
    }

    // The cursor is at the start of an empty block, which the first block fills. Empty plain
    // blocks at either end of the fragment are the importer's padding (around a table, after a
    // rule), not content: the blocks around the fragment already separate it.
    void copy(const QTextDocument &source)
    {
        QList<QTextFrame::iterator> items;
        for (QTextFrame::iterator it = source.rootFrame()->begin(); !it.atEnd(); ++it)
            items.append(it);
        qsizetype first = 0;
        qsizetype last = items.size() - 1;
        while (first <= last && isPadding(items.at(first)))
            ++first;
        while (last >= first && isPadding(items.at(last)))
            --last;
        for (qsizetype i = first; i <= last; ++i) {
            copyItem(items.at(i));
            // The empty block Qt keeps after a table: ours, made by insertTable(), stands for it.
            if (qobject_cast<QTextTable *>(items.at(i).currentFrame()) && i < last && isPadding(items.at(i + 1)))
                ++i;
        }
    }
    // True when nothing was copied: the cursor's block is still the empty one it started in.
    bool currentBlockUnused() const { return m_reuse; }

private:
    static bool isPadding(const QTextFrame::iterator &it)
    {
        if (it.currentFrame())
            return false;
        const QTextBlock block = it.currentBlock();
        const QTextBlockFormat format = block.blockFormat();
        return block.length() <= 1 && !block.textList() && !isCodeBlock(format)
               && !format.hasProperty(QTextFormat::BlockTrailingHorizontalRulerWidth);
    }

    void copyItem(const QTextFrame::iterator &it)
    {
        if (QTextFrame *child = it.currentFrame()) {
            if (auto *table = qobject_cast<QTextTable *>(child)) {
                copyTable(table);
            } else {
                for (QTextFrame::iterator inner = child->begin(); !inner.atEnd(); ++inner)
                    copyItem(inner);
            }
        } else {
            copyBlock(it.currentBlock(), m_cursor, m_reuse);
        }
    }

    void copyBlock(const QTextBlock &block, QTextCursor &cursor, bool &reuse)
    {
        QTextBlockFormat blockFormat = block.blockFormat();
        blockFormat.setObjectIndex(-1); // list membership is made again below, in this document
        if (isCodeBlock(blockFormat))
            blockFormat.setBackground(m_palette.alternateBase());
        QTextCharFormat charFormat = block.charFormat();
        charFormat.setObjectIndex(-1);
        if (reuse) {
            cursor.setBlockFormat(blockFormat);
            cursor.setBlockCharFormat(charFormat);
            reuse = false;
        } else {
            cursor.insertBlock(blockFormat, charFormat);
        }
        for (QTextBlock::iterator f = block.begin(); !f.atEnd(); ++f) {
            const QTextFragment fragment = f.fragment();
            if (!fragment.isValid())
                continue;
            const QTextCharFormat format = fragment.charFormat();
            if (format.isImageFormat()) {
                for (qsizetype i = 0; i < fragment.length(); ++i)
                    cursor.insertImage(format.toImageFormat());
            } else {
                cursor.insertText(fragment.text(), format);
            }
        }
        if (QTextList *source = block.textList()) {
            if (QTextList *target = m_lists.value(source)) {
                target->add(cursor.block());
            } else if ((target = continuableList(cursor.block(), source->format()))) {
                target->add(cursor.block());
                m_lists.insert(source, target);
            } else {
                m_lists.insert(source, cursor.createList(source->format()));
            }
        }
    }

    void copyTable(const QTextTable *source)
    {
        QTextTableFormat format = source->format();
        format.setBorderBrush(m_palette.mid());
        // A table inserted at an empty block keeps that block above it as a blank line; Qt's own
        // import puts the table right after the block before, so do that.
        const QTextBlock previous = m_cursor.block().previous();
        if (m_reuse && m_cursor.block().length() == 1 && previous.isValid() && !QTextCursor(previous).currentTable())
            m_cursor.deletePreviousChar();
        QTextTable *table = m_cursor.insertTable(source->rows(), source->columns(), format);
        for (int r = 0; r < source->rows(); ++r) {
            for (int c = 0; c < source->columns(); ++c) {
                const QTextTableCell from = source->cellAt(r, c);
                if (!from.isValid() || from.row() != r || from.column() != c)
                    continue;
                QTextTableCell to = table->cellAt(r, c);
                QTextCharFormat cellFormat = from.format();
                cellFormat.setObjectIndex(-1);
                to.setFormat(cellFormat);
                QTextCursor cell = to.firstCursorPosition();
                bool reuse = true;
                for (QTextFrame::iterator it = from.begin(); !it.atEnd(); ++it) {
                    if (!it.currentFrame())
                        copyBlock(it.currentBlock(), cell, reuse);
                }
            }
        }
        // Qt keeps an empty block after a table; like its own import, the next block does not
        // fill it but follows it.
        m_cursor = table->lastCursorPosition();
        m_cursor.movePosition(QTextCursor::NextBlock);
        m_reuse = false;
    }

    QTextCursor &m_cursor;
    const QPalette &m_palette;
    QHash<const QTextList *, QTextList *> m_lists;
    bool m_reuse = true;
};

} // namespace

// The answer's text; links open only when they are web or mail links.
class AnswerBrowser final : public FittedTextBrowser
{
public:
    explicit AnswerBrowser(QWidget *parent)
        : FittedTextBrowser(parent)
    {
        setOpenLinks(false);
        connect(this, &QTextBrowser::anchorClicked, this, [](const QUrl &url) {
            const QString scheme = url.scheme().toLower();
            if (scheme == QLatin1String("http") || scheme == QLatin1String("https")
                || scheme == QLatin1String("mailto"))
                QDesktopServices::openUrl(url);
        });
    }
};

MarkdownView::MarkdownView(QWidget *parent)
    : QWidget(parent)
    , m_browser(new AnswerBrowser(this))
    , m_reasoningToggle(new QToolButton(this))
    , m_reasoningView(new QPlainTextEdit(this))
    , m_highlighter(new CodeHighlighter(m_browser->document()))
    , m_copyButtons(new CodeCopyButtons(m_browser))
{
    m_highlighter->setPalette(palette());
    m_browser->setAccessibleName(tr("Answer"));
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String("cite"))
            emit citationClicked(url.path().toInt());
    });

    m_reasoningToggle->setCheckable(true);
    m_reasoningToggle->setAutoRaise(true);
    m_reasoningToggle->setArrowType(Qt::RightArrow);
    m_reasoningToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_reasoningToggle->setAccessibleName(tr("Reasoning"));
    m_reasoningToggle->setToolTip(tr("Show or hide the model's reasoning"));
    m_reasoningToggle->hide();
    connect(m_reasoningToggle, &QToolButton::toggled, this, &MarkdownView::setReasoningExpanded);

    m_reasoningView->setReadOnly(true);
    m_reasoningView->setFrameShape(QFrame::NoFrame);
    m_reasoningView->setAccessibleName(tr("Reasoning"));
    m_reasoningView->document()->setUndoRedoEnabled(false);
    m_reasoningView->viewport()->setAutoFillBackground(false);
    m_reasoningView->setFocusPolicy(Qt::ClickFocus);
    m_reasoningView->hide();
    connect(m_reasoningView->document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &MarkdownView::updateReasoningHeight);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_reasoningToggle, 0, Qt::AlignLeft);
    layout->addWidget(m_reasoningView);
    layout->addWidget(m_browser);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    applyReasoningStyle();
}

MarkdownView::~MarkdownView() = default;

QTextDocument *MarkdownView::document() const
{
    return m_browser->document();
}

QTextBrowser *MarkdownView::textView() const
{
    return m_browser;
}

void MarkdownView::setPlaceholderText(const QString &text)
{
    m_browser->setPlaceholderText(text);
}

QString MarkdownView::plainText() const
{
    return m_browser->document()->toPlainText();
}

bool MarkdownView::isReasoningExpanded() const
{
    return m_reasoningToggle->isChecked();
}

void MarkdownView::setReasoningExpanded(bool expanded)
{
    if (m_reasoningToggle->isChecked() != expanded)
        m_reasoningToggle->setChecked(expanded); // comes back here through toggled()
    m_reasoningToggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_reasoningView->setVisible(expanded && !m_reasoning.isEmpty());
}

void MarkdownView::appendText(const QString &text)
{
    if (text.isEmpty() || m_finished)
        return;
    m_source += text;
    m_blocks.feed(text);
    render();
}

void MarkdownView::appendReasoning(const QString &text)
{
    if (text.isEmpty())
        return;
    m_reasoning += text;
    // Words: runs of non-space characters; each CJK ideograph or syllable counts as one.
    for (const QChar c : text) {
        const QChar::Script script = c.script();
        if (script == QChar::Script_Han || script == QChar::Script_Hiragana || script == QChar::Script_Katakana
            || script == QChar::Script_Hangul) {
            ++m_reasoningWords;
            m_inReasoningWord = false;
        } else if (c.isSpace()) {
            m_inReasoningWord = false;
        } else if (!m_inReasoningWord && !c.isLowSurrogate()) {
            ++m_reasoningWords;
            m_inReasoningWord = true;
        }
    }
    QTextCursor cursor(m_reasoningView->document());
    cursor.movePosition(QTextCursor::End);
    QScrollBar *bar = m_reasoningView->verticalScrollBar();
    const bool atBottom = bar->value() >= bar->maximum() - 2;
    cursor.insertText(text);
    if (atBottom)
        bar->setValue(bar->maximum());
    updateReasoningToggle();
    render();
}

void MarkdownView::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    m_blocks.finish(); // the open tail is complete now
    render();
    if (m_committed == m_source.size())
        removeTrailingEmptyBlock();
}

void MarkdownView::render()
{
    if (m_tailShown < m_source.size() || m_committed < m_source.size()) {
        if (m_blocks.boundary() > m_committed)
            commitUpTo(m_blocks.boundary());
        appendTail();
    }
    if (!m_shownFirst && (!m_source.isEmpty() || !m_reasoning.isEmpty())) {
        m_shownFirst = true;
        emit firstTextShown();
    }
}

void MarkdownView::commitUpTo(qsizetype boundary)
{
    QTextDocument *doc = m_browser->document();
    QTextCursor cursor(doc);
    cursor.beginEditBlock(); // one layout pass for the whole change
    cursor.setPosition(m_tailStart);
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    cursor.setBlockFormat(QTextBlockFormat());
    cursor.setBlockCharFormat(QTextCharFormat());

    const QString fragment = m_source.mid(m_committed, boundary - m_committed);
    bool unused = true;
    if (!fragment.trimmed().isEmpty()) {
        QTextDocument rendered;
        rendered.setDefaultFont(doc->defaultFont());
        rendered.setMarkdown(withCitationLinks(fragment), QTextDocument::MarkdownDialectGitHub);
        FragmentCopier copier(cursor, palette());
        copier.copy(rendered);
        unused = copier.currentBlockUnused();
    }
    m_committed = boundary;
    m_tailShown = boundary;
    if (!unused)
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    m_tailStart = cursor.position();
    // The tail is shown as typed; inside an open code fence, in the fixed-pitch font.
    m_tailMonospace = m_blocks.inOpenFence();
    cursor.endEditBlock();
}

void MarkdownView::appendTail()
{
    if (m_tailShown >= m_source.size())
        return;
    QTextCursor cursor(m_browser->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    if (m_tailMonospace)
        format.setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    cursor.insertText(m_source.mid(m_tailShown), format);
    m_tailShown = m_source.size();
}

void MarkdownView::removeTrailingEmptyBlock()
{
    QTextDocument *doc = m_browser->document();
    const QTextBlock last = doc->lastBlock();
    const QTextBlock previous = last.previous();
    if (!previous.isValid() || last.length() > 1)
        return;
    QTextCursor cursor(last);
    if (QTextCursor(previous).currentTable() || cursor.currentTable())
        return; // Qt keeps a block after a table
    cursor.deletePreviousChar();
    m_tailStart = doc->characterCount() - 1;
}

void MarkdownView::updateReasoningToggle()
{
    m_reasoningToggle->setVisible(!m_reasoning.isEmpty());
    m_reasoningToggle->setText(m_reasoningWords == 1 ? tr("Reasoning (1 word)")
                                                     : tr("Reasoning (%1 words)").arg(m_reasoningWords));
    m_reasoningView->setVisible(isReasoningExpanded() && !m_reasoning.isEmpty());
}

// "[2]" as a link "cite:2" when there is a passage 2; not inside a fenced code block, and not
// when it is a Markdown link or reference already ("[2](...)", "[2][x]", "[2]:").
QString MarkdownView::withCitationLinks(const QString &markdown) const
{
    if (m_citationTips.isEmpty())
        return markdown;
    const QString trimmed = markdown.trimmed();
    if (trimmed.startsWith(QLatin1String("```")) || trimmed.startsWith(QLatin1String("~~~")))
        return markdown;
    static const QRegularExpression citation(QStringLiteral(R"((?<![\[\]\\])\[(\d{1,2})\](?![(\[:]))"));
    QString out;
    qsizetype last = 0;
    for (auto it = citation.globalMatch(markdown); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const int n = m.captured(1).toInt();
        if (n < 1 || n > m_citationTips.size())
            continue;
        out += markdown.mid(last, m.capturedStart() - last);
        // The link's title is its tooltip; inside the quotes only '"' and '\\' need escaping.
        QString tip = m_citationTips.at(n - 1);
        tip.replace(u'\\', QStringLiteral("\\\\")).replace(u'"', QStringLiteral("\\\""));
        out += QStringLiteral("[\\[%1\\]](cite:%1 \"%2\")").arg(n).arg(tip);
        last = m.capturedEnd();
    }
    out += markdown.mid(last);
    return out;
}

void MarkdownView::setMarkdown(const QString &markdown)
{
    clear();
    m_source = markdown;
    QTextDocument *doc = m_browser->document();
    doc->setMarkdown(withCitationLinks(markdown), QTextDocument::MarkdownDialectGitHub);
    m_committed = m_tailShown = m_source.size();
    m_blocks.feed(markdown); // all of it complete, as rendered
    m_blocks.finish();
    m_tailStart = doc->characterCount() - 1;
    m_finished = true;
    m_shownFirst = true;
    applyPaletteToDocument();
}

void MarkdownView::setReasoning(const QString &reasoning)
{
    m_reasoning.clear();
    m_reasoningWords = 0;
    m_inReasoningWord = false;
    m_reasoningView->clear();
    appendReasoning(reasoning);
}

void MarkdownView::clear()
{
    m_browser->document()->clear();
    m_source.clear();
    m_committed = m_tailShown = 0;
    m_tailStart = 0;
    m_tailMonospace = false;
    m_blocks.reset();
    m_finished = false;
    m_shownFirst = false;
    m_reasoning.clear();
    m_reasoningWords = 0;
    m_inReasoningWord = false;
    m_reasoningView->clear();
    updateReasoningToggle();
}

void MarkdownView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPaletteToDocument();
        m_highlighter->setPalette(palette());
        applyReasoningStyle();
    } else if (event->type() == QEvent::FontChange) {
        applyReasoningStyle();
    }
}

// Code blocks get the palette's alternate base and tables its mid tone, so both stay visible in
// dark palettes; links get its link colour (the Markdown importer gives them the application
// palette's of the moment: an answer shown before the dark scheme was applied kept a dark blue on
// the dark base). Re-applied when the palette changes.
void MarkdownView::applyPaletteToDocument()
{
    QTextDocument *doc = m_browser->document();
    QTextCursor cursor(doc);
    cursor.beginEditBlock();
    QList<std::pair<int, int>> links; // recoloured after the walk: a merge splits fragments
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QTextCharFormat format = fragment.charFormat();
            if (format.isAnchor() && format.foreground() != palette().link())
                links.append({fragment.position(), fragment.position() + fragment.length()});
        }
        QTextBlockFormat format = block.blockFormat();
        if (isCodeBlock(format) && format.background() != palette().alternateBase()) {
            format.setBackground(palette().alternateBase());
            QTextCursor(block).setBlockFormat(format);
        }
        if (QTextTable *table = QTextCursor(block).currentTable()) {
            QTextTableFormat tf = table->format();
            if (tf.borderBrush() != palette().mid()) {
                tf.setBorderBrush(palette().mid());
                table->setFormat(tf);
            }
        }
    }
    QTextCharFormat linkColour;
    linkColour.setForeground(palette().link());
    for (const auto &[start, end] : std::as_const(links)) {
        QTextCursor link(doc);
        link.setPosition(start);
        link.setPosition(end, QTextCursor::KeepAnchor);
        link.mergeCharFormat(linkColour);
    }
    cursor.endEditBlock();
}

void MarkdownView::applyReasoningStyle()
{
    // Smaller and muted: it is secondary to the answer. Relative to the current font and taken
    // from the palette, so it follows DPI, the user's font size and dark palettes.
    QFont small = font();
    if (small.pointSizeF() > 0)
        small.setPointSizeF(small.pointSizeF() * 0.9);
    else if (small.pixelSize() > 0)
        small.setPixelSize(qMax(1, qRound(small.pixelSize() * 0.9)));
    m_reasoningView->setFont(small);
    QPalette p = palette();
    p.setColor(QPalette::Text, p.color(QPalette::PlaceholderText));
    m_reasoningView->setPalette(p);
    updateReasoningHeight();
}

void MarkdownView::updateReasoningHeight()
{
    // As tall as its text, up to ReasoningLines lines; it scrolls beyond. The plain-text layout
    // measures its height in (wrapped) lines.
    const int lines = qBound(1, int(m_reasoningView->document()->documentLayout()->documentSize().height()),
                             ReasoningLines);
    const QFontMetrics metrics(m_reasoningView->font());
    const int margins = 2 * qCeil(m_reasoningView->document()->documentMargin()) + 2 * m_reasoningView->frameWidth();
    m_reasoningView->setFixedHeight(metrics.lineSpacing() * lines + margins);
    // Up to the limit the whole text shows: a scroll bar there would only cover a line.
    m_reasoningView->setVerticalScrollBarPolicy(lines < ReasoningLines ? Qt::ScrollBarAlwaysOff
                                                                       : Qt::ScrollBarAsNeeded);
}

} // namespace Gui
