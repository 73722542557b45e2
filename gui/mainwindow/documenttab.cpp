#include "gui/mainwindow/documenttab.h"

#include "workspace/documents/document.h"

#include <QPlainTextDocumentLayout>

namespace Gui {

DocumentTab::DocumentTab(Document *document, QWidget *parent)
    : QPlainTextEdit(parent)
    , m_document(document)
{
    setAccessibleName(tr("Document"));
    setPlaceholderText(tr("Write here, or open a document with Ctrl+O."));
    // The model is widget-free; the plain-text layout a QPlainTextEdit needs is the view's part.
    QTextDocument *text = document->textDocument();
    if (!qobject_cast<QPlainTextDocumentLayout *>(text->documentLayout()))
        text->setDocumentLayout(new QPlainTextDocumentLayout(text));
    setDocument(text);
    const auto wrap = [this](bool longLines) {
        // Anywhere: a line with no word boundary costs the square of its length to lay out at
        // word boundaries (Document::LongLineChars).
        setWordWrapMode(longLines ? QTextOption::WrapAnywhere : QTextOption::WrapAtWordBoundaryOrAnywhere);
    };
    wrap(document->hasLongLines());
    connect(document, &Document::longLinesChanged, this, wrap);
}

QString DocumentTab::selectedText() const
{
    return textCursor().selectedText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
}

} // namespace Gui
