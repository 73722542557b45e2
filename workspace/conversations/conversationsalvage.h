#pragma once

#include "workspace/conversations/attachments.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QString>

#include <expected>

namespace Gui {

// What could still be read from a damaged conversation file (one ConversationStore moved
// aside), and writing it out for the user. Reading never writes to the file: it is opened
// read-only, and each row is fetched by its id, so a damaged page costs the rows on it, not
// every row after it in a table scan. GUI thread; a damaged file of a few thousand
// conversations reads in well under a second.
class ConversationSalvage
{
    Q_DECLARE_TR_FUNCTIONS(Gui::ConversationSalvage)

public:
    struct Message {
        QString role; // "user", "assistant", "system", as stored
        QString content;
        QString state; // "complete", "partial", "failed"
        QDateTime created;
        QList<Attachment> attachments; // the files sent with a question (files from schema 4 on)
    };
    struct Conversation {
        qint64 id = 0;
        QString title;
        QString documentPath;
        QDateTime updated;
        QList<Message> messages;
        bool complete = true; // false: some of its messages could not be read
    };

    // Reads `path`; the error is a sentence for the user when nothing at all can be read.
    static std::expected<ConversationSalvage, QString> read(const QString &path);

    const QList<Conversation> &conversations() const { return m_conversations; }

    // Writes one Markdown file per conversation and conversations.json (everything, for
    // tools) into `directory`, creating it (owner-only: it holds the user's conversations).
    // Returns how many conversations were written, or a sentence for the user.
    std::expected<int, QString> exportTo(const QString &directory) const;

private:
    QList<Conversation> m_conversations;
};

} // namespace Gui
