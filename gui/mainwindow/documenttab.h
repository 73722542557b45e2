#pragma once

#include "workspace/documents/document.h"

#include <QPlainTextEdit>
#include <QPointer>

namespace Gui {

// The editor of one Document: a plain-text view of its text. The document belongs to the
// window, which deletes it after the tab; the tab only shows and edits it. GUI thread.
class DocumentTab : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit DocumentTab(Document *document, QWidget *parent = nullptr);

    Document *model() const { return m_document; }
    // The selected text with paragraph separators as '\n', as a prompt wants it.
    QString selectedText() const;

private:
    QPointer<Document> m_document;
};

} // namespace Gui
