#pragma once

#include "knowledge/types.h"

#include <QList>
#include <QPointer>
#include <QString>

namespace Knowledge { class Library; }

namespace Gui {

// The passages of the user's library for a chat message, and the message as it is sent with
// them. The chat's request builder holds one (shared): the debounce prefetch retrieves for the
// draft, Enter for the final text, and the last few answers are kept so that the same text at
// Enter costs no second query. Queries run on the GUI thread (the Library's). Forget the kept
// answers when the library's contents change.
class LibraryRetrieval
{
public:
    static constexpr int PassageCount = 5;

    explicit LibraryRetrieval(Knowledge::Library *library);

    QList<Knowledge::Passage> passagesFor(const QString &text);
    void forget() { m_kept.clear(); }

    // The user message: the passages numbered [1]..[k] with path and heading (a PDF's: page),
    // then the question.
    // Deterministic, so the same passages give the same request (and a prefetch hit).
    static QString messageWithPassages(const QList<Knowledge::Passage> &passages, const QString &text);

private:
    struct Kept {
        QString text;
        QList<Knowledge::Passage> passages;
    };
    QPointer<Knowledge::Library> m_library;
    QList<Kept> m_kept; // newest last
};

} // namespace Gui
