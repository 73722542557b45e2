#include "gui/chat/chatcontextline.h"

#include "knowledge/libraryretrieval.h"
#include "workspace/chat/chatsession.h"
#include "workspace/documents/document.h"

#include "prefetch/engine.h"

#include <QFileInfo>
#include <QLocale>

namespace Gui {

ChatContextLine::ChatContextLine(QWidget *parent)
    : ElidedLabel(parent)
{
    setObjectName(QStringLiteral("chatContext"));
    // A role, not a colour: it follows the palette, dark ones included.
    setForegroundRole(QPalette::PlaceholderText);
    setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
}

void ChatContextLine::showContextOf(const ChatSession &session)
{
    // Most states are one line of plain text; the two below wrap, in rich text.
    const auto oneLine = [this](const QString &text) {
        setWordWrap(false);
        setTextFormat(Qt::PlainText);
        setText(text);
        setToolTip({});
    };
    if (session.mode() == ConversationMode::Library) {
        oneLine(tr("The best passages of your library (up to %1) go with each message; the answer's "
                   "[1], [2] open them.")
                    .arg(Knowledge::LibraryRetrieval::PassageCount));
        return;
    }
    if (session.mode() != ConversationMode::Document) {
        oneLine({});
        return;
    }
    const Document *document = session.document();
    QString text;
    bool inFull = false;
    if (!document || document->isBlank())
        text = tr("No document is open: messages go without one.");
    else if (const qint64 tokens = session.documentTokens(); tokens >= 0) {
        const Prefetch::Engine *engine = session.engine();
        const std::optional<qint64> refused = engine ? engine->refusedPromptTokens({}) : std::nullopt;
        // `tokens` is the prompt's part before the question (system and document); a refused
        // prompt was that and a question. Within a long question's worth of it, a message
        // about this document cannot fit either.
        constexpr qint64 QuestionTokens = 512;
        if (refused && tokens + QuestionTokens >= *refused) {
            // Known to be over the model's limit (nothing is sent early for it): what to do.
            text = tr("The open document, %1 (about %2 tokens), is longer than %3 accepts (it refused about %4). "
                      "Select the part you mean and use Explain Selection, or add its folder to the library and "
                      "ask “About my library”.")
                       .arg(document->displayName(), QLocale().toString(tokens), engine->profile().model,
                            QLocale().toString(*refused));
            inFull = true;
        } else {
            text = tr("The open document, %1 (about %2 tokens), goes with each message.")
                       .arg(document->displayName(), QLocale().toString(tokens));
        }
    } else
        text = tr("The open document, %1, goes with each message.").arg(document->displayName());
    // Reopened after a restart with another document in front: not silently about that one.
    const QString started = session.conversationDocument();
    if (started.isEmpty() || (document && document->filePath() == started)) {
        if (!inFull) {
            oneLine(text);
            return;
        }
    }
    QString html = text.toHtmlEscaped();
    if (!started.isEmpty() && (!document || document->filePath() != started)) {
        const QString name = QFileInfo(started).fileName().toHtmlEscaped();
        if (QFileInfo::exists(started)) {
            html +=
                u' '
                + tr("This conversation began about %1: <a href=\"open\">open it</a> to ask about it again.").arg(name);
        } else {
            html += u' ' + tr("This conversation began about %1, which is no longer there.").arg(name);
        }
    }
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setText(html);
    setToolTip(started);
}

} // namespace Gui
