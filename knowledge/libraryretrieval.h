#pragma once

#include "types.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>

namespace Knowledge {

class Library;

// The passages of the user's library for a chat message, and the message as it is sent with
// them. The chat's request builder holds one (shared): the debounce prefetch retrieves for the
// draft, Enter for the final text, and the last few answers are kept by their query terms, so
// that a final text with the same terms as the paused draft (the same words, a "?" added) costs
// no second query at Enter: only a text whose terms differ is searched then. Queries run on the
// GUI thread (the Library's). Forget the kept answers when the library's contents change.
class LibraryRetrieval
{
public:
    static constexpr int PassageCount = 5;

    explicit LibraryRetrieval(Library *library);

    QList<Passage> passagesFor(const QString &text);
    void forget() { m_kept.clear(); }
    // How many times the index was searched: a text whose terms were kept costs none.
    int queriesRun() const { return m_queries; }

    // The user message: the passages numbered [1]..[k] with path and heading (a PDF's: page),
    // then the question.
    // Deterministic, so the same passages give the same request (and a prefetch hit).
    static QString messageWithPassages(const QList<Passage> &passages, const QString &text);
    // The message for `text` with its passages: what the chat sends in library mode.
    QString messageFor(const QString &text) { return messageWithPassages(passagesFor(text), text); }
    // messageFor(text) up to the question: its passages, which a pause can warm in the provider's
    // cache, since every message with the same passages starts with these bytes. Empty when no
    // passage matches (nothing worth warming).
    QString passagesPartFor(const QString &text);

private:
    struct Kept {
        QStringList terms;
        QList<Passage> passages;
    };
    QPointer<Library> m_library;
    QList<Kept> m_kept; // newest last
    int m_queries = 0;
};

} // namespace Knowledge
