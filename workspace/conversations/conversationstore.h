#pragma once

#include "workspace/conversations/conversationdatabase.h"
#include "workspace/conversations/conversationrecords.h"

#include <QList>
#include <QObject>
#include <QSqlError>
#include <QString>

#include <expected>

namespace Gui {

// Every fallible operation returns the value or a sentence that is safe to show the user.
template <typename T>
using StoreResult = std::expected<T, QString>;

// Conversations and their messages in SQLite (Qt Sql), one file per user: the queries over the
// file ConversationDatabase opens (checked, moved aside when damaged, migrated, or in memory when
// no file can be used; see there). recoveryMessage() says what opening had to do and
// movedAsidePath() where a damaged file went, and ConversationSalvage reads what it still holds:
// the app never loses the chat, only its persistence, and never crashes over it.
//
// Search matches titles and message text, case-insensitively (Unicode case folding): through an
// FTS5 trigram index when SQLite has one, otherwise with an escaped LIKE (ASCII case folding).
//
// GUI thread: every call is a short, indexed statement; an answer being streamed is written
// at most every few seconds. Owned by the app; outlives the widgets that use it.
class ConversationStore : public QObject
{
    Q_OBJECT

public:
    static constexpr int SchemaVersion = ConversationDatabase::SchemaVersion;

    struct Options {
        bool fullTextSearch = true; // false: always LIKE (tests of that path)
    };

    explicit ConversationStore(const QString &path, QObject *parent = nullptr);
    ConversationStore(const QString &path, Options options, QObject *parent = nullptr);
    ~ConversationStore() override;

    QString path() const { return m_database.path(); }
    // False when the store runs in memory because the file could not be used.
    bool isPersistent() const { return m_database.isPersistent(); }
    // True once a query met a damaged page after opening: nothing more is written.
    bool damagedWhileOpen() const { return m_damaged; }
    // Non-empty when opening needed a repair or a fallback; the UI shows it once.
    QString recoveryMessage() const { return m_database.recoveryMessage(); }
    // Where a damaged file was moved to, or empty.
    QString movedAsidePath() const { return m_database.movedAsidePath(); }
    bool hasFullTextSearch() const { return m_database.hasFullTextSearch(); }

    // Newest first (last change). `search` (trimmed; empty = all) must occur in the title or in
    // the text of one of its messages.
    StoreResult<QList<ConversationInfo>> conversations(const QString &search = {}) const;
    StoreResult<ConversationInfo> conversation(qint64 id) const;
    StoreResult<qint64> create(const QString &title, const QString &documentPath = {},
                               ConversationMode mode = ConversationMode::FreeChat,
                               const QString &assistantId = QStringLiteral("general"));
    StoreResult<void> rename(qint64 id, const QString &title);
    StoreResult<void> setMode(qint64 id, ConversationMode mode);
    StoreResult<void> setAssistant(qint64 id, const QString &assistantId);
    // The conversation and all its messages.
    StoreResult<void> remove(qint64 id);
    // Every conversation and message, in one transaction (Clear History); how many conversations
    // went.
    StoreResult<int> removeAll();

    // In the order they were appended.
    StoreResult<QList<StoredMessage>> messages(qint64 conversationId) const;
    // The user's messages that replied to an answer (every question but a conversation's first),
    // in every conversation, newest first, at most `limit`: what they tend to ask next
    // (FollowUps).
    StoreResult<QStringList> recentReplies(int limit) const;
    // Every message the user sent, in every conversation, newest first, at most `limit`: what they
    // may be typing again (DraftCompleter).
    StoreResult<QStringList> recentQuestions(int limit) const;
    StoreResult<qint64> appendMessage(qint64 conversationId, Llm::Role role, const QString &content,
                                      const QString &reasoning = {}, MessageState state = MessageState::Complete,
                                      const QString &error = {}, const MessageUsage &usage = {});
    // `message` (its role, text, reasoning, state, error, usage, citations and attachments; its
    // id and time are new) in one transaction: a question goes in with all its attachments or not
    // at all. Its id.
    StoreResult<qint64> appendMessage(qint64 conversationId, const StoredMessage &message);
    // A whole conversation (an import) in one transaction: all of it is written, or nothing.
    // Each message keeps its role, text, reasoning, state, error, usage, citations, attachments
    // and time (an invalid time: now); ids are new. The new conversation's id.
    StoreResult<qint64> insertConversation(const ConversationInfo &info, const QList<StoredMessage> &messages);
    // A streamed answer as it stands now (checkpoints while streaming, then its end).
    // `usage` is stored with it (an empty one while it streams).
    StoreResult<void> updateMessage(qint64 messageId, const QString &content, const QString &reasoning,
                                    MessageState state, const QString &error = {}, const MessageUsage &usage = {});
    // The passages a library answer's citations point to, kept with it so that they still open
    // after the conversation is opened again (StoredMessage::citations).
    StoreResult<void> setCitations(qint64 messageId, const QList<Knowledge::Passage> &passages);
    // Messages of `conversationId` (a deleted message, or a conversation cut at an edited one),
    // in one transaction: all of them go, or none. An id that is not one of its messages is an
    // error and nothing is deleted.
    StoreResult<void> removeMessages(qint64 conversationId, const QList<qint64> &messageIds);

signals:
    // A conversation was created, renamed, moved to another mode, deleted or given a message:
    // every window's list shows it (each has its own chat dock on this one store).
    void conversationsChanged();
    // removeAll() emptied the store: every chat closes its conversation (before conversationsChanged).
    void historyCleared();
    // A write failed after the store was opened (disk full, file removed, the file damaged
    // under us: then no later write is tried): the message is safe to show. Reads report
    // through their return values only; every read checks its query to its last row.
    void errorOccurred(const QString &message);

private:
    qint64 nextStamp();
    // The user's messages, newest first, at most `limit`; `condition` narrows them ("AND ...", on
    // `m`, the messages table).
    StoreResult<QStringList> recentUserMessages(const QString &condition, int limit) const;
    QString failure(const QString &what, const QString &detail) const;
    template <typename T>
    StoreResult<T> writeFailed(const QString &what, const QString &detail);
    template <typename T>
    StoreResult<T> writeFailed(const QString &what, const QSqlError &error);
    QString readFailed(const QString &what, const QSqlError &error) const;
    void noteDamage(const QSqlError &error) const;
    QString damagedDetail() const;
    // What a query runs on; `db()` for statements and transactions alike.
    QSqlDatabase &db() { return m_database.connection(); }
    const QSqlDatabase &db() const { return m_database.connection(); }

    ConversationDatabase m_database;
    // The file turned out damaged while open: writes are refused, reads still answer. Set
    // by reads too, hence mutable.
    mutable bool m_damaged = false;
    qint64 m_lastStamp = 0; // strictly increasing change times keep "newest first" total
};

} // namespace Gui
