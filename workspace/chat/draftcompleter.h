#pragma once

#include <QMap>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>

namespace Gui {

class ConversationStore;

// What the chat input shows after the caret in grey (issue 39, "the draft completed for the
// user"): Tab or → at the end of the draft accepts it, Esc dismisses it, nothing is sent.
struct DraftCompletion {
    QString rest; // what accepting adds after the caret; empty: nothing to complete
    bool wholeMessage =
        false; // the draft with it is a whole message: the user has sent it before, or the chat offers it
    bool isEmpty() const { return rest.isEmpty(); }
    bool operator==(const DraftCompletion &) const = default;
};

// Completes a chat draft from what is on this machine, never from a provider:
// - a whole message: the draft (at least three characters, or two Chinese ones) begins a message
//   this user sent before (the one sent most often, then most recently) or a follow-up the chat
//   offers. Accepted, the message is final before its last key, so its answer can start then.
// - else the word being typed (three letters or more) to a longer word of the conversation or
//   the document (the most frequent), as a writer's editor does. Words of scripts written
//   without spaces are not completed: where one ends cannot be told.
// What it reads is read once and again only after invalidate(). GUI thread.
class DraftCompleter
{
public:
    // The texts words are taken from (the conversation's messages, the document).
    using TextSource = std::function<QStringList()>;

    DraftCompleter(ConversationStore *store, TextSource texts);

    // What was read may have changed: the sent messages (a message was sent, deleted) and the
    // words (another conversation, an answer, the document edited) are read again when needed.
    void invalidate();
    DraftCompletion complete(const QString &draft, const QStringList &offered);

    // How many of the user's messages are read (newest first), and how much of a document: a
    // bound on the work done on the GUI thread at the first key after a change (4 ms with a
    // 2 MB document, under 10 µs a key after that: bench_draftcompletion, docs/benchmarks.md).
    static constexpr int SentMessages = 500;
    static constexpr qsizetype DocumentChars = 200'000;

private:
    struct Word {
        QString form; // as first written
        int count = 0;
    };
    void read();
    void addWords(QStringView text);
    DraftCompletion wholeMessage(const QString &draft, const QStringList &offered) const;
    DraftCompletion word(const QString &draft) const;

    QPointer<ConversationStore> m_store;
    TextSource m_texts;
    bool m_read = false;
    QStringList m_sent;          // distinct, the likeliest first
    QMap<QString, Word> m_words; // by case-folded form, for a prefix's range
};

} // namespace Gui
