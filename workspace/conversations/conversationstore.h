#pragma once

#include "workspace/conversations/attachments.h"
#include "workspace/conversations/messageusage.h"
#include "knowledge/types.h"

#include "llm/llmtypes.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QString>

#include <expected>

namespace Gui {

// What a conversation is about: the document open in the editor (its text goes into the
// prompt's static prefix) or nothing.
// Library: the best passages of the user's library for each message go with it (issue 16).
enum class ConversationMode { FreeChat, Document, Library };

// How a stored answer ended. Partial: it was stopped, or the app closed (or crashed) while it
// streamed; the text is what had arrived. Failed: the provider or the network failed; `error`
// says why and the text is what had arrived before.
enum class MessageState { Complete, Partial, Failed };

struct ConversationInfo {
    qint64 id = 0;
    QString title;
    QString documentPath; // empty: no document, or one that was never saved
    ConversationMode mode = ConversationMode::FreeChat;
    // Its assistant (ui/assistants.h), schema 5; "general" for older ones. Stored as it was
    // chosen: an id no longer in the list is read back as it is and used as General.
    QString assistantId = QStringLiteral("general");
    QDateTime updated;    // UTC
    int messageCount = 0;
};

struct StoredMessage {
    qint64 id = 0;
    qint64 conversationId = 0;
    Llm::Role role = Llm::Role::User;
    QString content;
    QString reasoning;
    MessageState state = MessageState::Complete;
    QString error; // Failed: the message shown to the user
    QDateTime created; // UTC
    MessageUsage usage; // answers: tokens, speed and cost; empty for questions and old messages
    // Library answers: the passages its citations [n] open (n - 1); path, heading, offsets and
    // page only, no text. Empty for other messages and for answers stored before schema 3.
    QList<Knowledge::Passage> citations;
    // Questions: the files attached to it (name and text), sent before its text (schema 4).
    QList<Attachment> attachments;
};

// The names the store writes for roles, states and modes (the export format uses them too).
// Reading falls back to user, complete and free chat for a name it does not know.
QString roleName(Llm::Role role);
Llm::Role roleFromName(const QString &name);
QString stateName(MessageState state);
MessageState stateFromName(const QString &name);
QString modeName(ConversationMode mode);
ConversationMode modeFromName(const QString &name);

// Every fallible operation returns the value or a sentence that is safe to show the user.
template <typename T>
using StoreResult = std::expected<T, QString>;

// Conversations and their messages in SQLite (Qt Sql), one file per user.
//
// The schema carries its version in PRAGMA user_version and is migrated step by step at open.
// A file that is not a database, or whose pages fail PRAGMA quick_check at open, is moved aside
// (renamed, never deleted) as "<file>.broken-<timestamp>" and a fresh one started;
// recoveryMessage() says what happened and movedAsidePath() where it went, and
// ConversationSalvage reads what it still holds. Files are owner-only (PrivateFiles).
// When no file can be used at all (a read-only location, a file from a newer Headstart) the
// store keeps working in memory, isPersistent() is false and recoveryMessage() says so: the
// app never loses the chat, only its persistence, and never crashes over it.
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
    static constexpr int SchemaVersion = 6;

    struct Options {
        bool fullTextSearch = true; // false: always LIKE (tests of that path)
    };

    explicit ConversationStore(const QString &path, QObject *parent = nullptr);
    ConversationStore(const QString &path, Options options, QObject *parent = nullptr);
    ~ConversationStore() override;

    QString path() const { return m_path; }
    // False when the store runs in memory because the file could not be used.
    bool isPersistent() const { return m_persistent; }
    // True once a query met a damaged page after opening: nothing more is written.
    bool damagedWhileOpen() const { return m_damaged; }
    // Non-empty when opening needed a repair or a fallback; the UI shows it once.
    QString recoveryMessage() const { return m_recovery; }
    // Where a damaged file was moved to, or empty.
    QString movedAsidePath() const { return m_movedAside; }
    bool hasFullTextSearch() const { return m_fullText; }

    // Newest first (last change). `search` (trimmed; empty = all) must occur in the title or in
    // the text of one of its messages.
    StoreResult<QList<ConversationInfo>> conversations(const QString &search = {}) const;
    StoreResult<ConversationInfo> conversation(qint64 id) const;
    StoreResult<qint64> create(const QString &title, const QString &documentPath = {},
                               ConversationMode mode = ConversationMode::FreeChat,
                               const QString &assistantId = QStringLiteral("general"));
    StoreResult<void> rename(qint64 id, const QString &title);
    StoreResult<void> setMode(qint64 id, ConversationMode mode);
    // conversationstoreassistant.cpp
    StoreResult<void> setAssistant(qint64 id, const QString &assistantId);
    // The conversation and all its messages.
    StoreResult<void> remove(qint64 id);
    // Every conversation and message, in one transaction (Clear History); how many conversations
    // went. conversationstoreremove.cpp, with remove() and removeMessages().
    StoreResult<int> removeAll();

    // In the order they were appended.
    StoreResult<QList<StoredMessage>> messages(qint64 conversationId) const;
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
    bool openFile();
    bool openMemory();
    // Empty when PRAGMA quick_check finds nothing wrong, else what it found.
    QString quickCheck();
    QSqlError configure();
    QSqlError migrate(int from);
    void setUpSearchIndex();
    bool moveAside();
    // After an unclean stop: the database and its log copied to a new "<file>.unclean-<time>"
    // folder (owner-only); its path, or empty.
    QString keepCopies() const;
    // How many frames of the log SQLite reads back, through a connection of its own; -1 when
    // the file cannot be opened (the damage checks then have their say).
    qint64 readableLogFrames() const;
    bool hasTables();
    // Copies the log into the main file and empties it (after the schema, after each answer).
    void checkpoint();
    void closeConnection();
    qint64 nextStamp();
    QString failure(const QString &what, const QString &detail) const;
    template <typename T>
    StoreResult<T> writeFailed(const QString &what, const QString &detail);
    template <typename T>
    StoreResult<T> writeFailed(const QString &what, const QSqlError &error);
    QString readFailed(const QString &what, const QSqlError &error) const;
    void noteDamage(const QSqlError &error) const;
    QString damagedDetail() const;

    QString m_path;
    Options m_options;
    QString m_connection; // unique per instance: QSqlDatabase connections are process-global by name
    QSqlDatabase m_db;
    bool m_persistent = false;
    bool m_fullText = false;
    QString m_recovery;
    QString m_movedAside;
    // The file turned out damaged while open: writes are refused, reads still answer. Set
    // by reads too, hence mutable.
    mutable bool m_damaged = false;
    qint64 m_lastStamp = 0; // strictly increasing change times keep "newest first" total
};

} // namespace Gui
