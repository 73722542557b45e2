#include "libraryretrieval.h"

#include "library.h"

namespace Knowledge {

namespace {
// The draft at the last pause, the final text, and one more: enough for a send.
constexpr qsizetype KeptQueries = 3;
} // namespace

LibraryRetrieval::LibraryRetrieval(Library *library)
    : m_library(library)
{
}

QList<Passage> LibraryRetrieval::passagesFor(const QString &text)
{
    if (!m_library)
        return {};
    const QStringList terms = m_library->queryTerms(text);
    for (const Kept &kept : std::as_const(m_kept)) {
        if (kept.terms == terms)
            return kept.passages;
    }
    // A failed query (the index being replaced) sends the question without passages, and is
    // not kept: the next text asks again.
    ++m_queries;
    auto found = m_library->query(text, PassageCount);
    if (!found)
        return {};
    const QList<Passage> passages = std::move(*found);
    m_kept.append({terms, passages});
    while (m_kept.size() > KeptQueries)
        m_kept.removeFirst();
    return passages;
}

QString LibraryRetrieval::passagesPartFor(const QString &text)
{
    const QList<Passage> passages = passagesFor(text);
    return passages.isEmpty() ? QString() : messageWithPassages(passages, QString());
}

QString LibraryRetrieval::messageWithPassages(const QList<Passage> &passages, const QString &text)
{
    // English for the model, like every prompt: the user's language is in their own text.
    if (passages.isEmpty())
        return QStringLiteral("No passage of my library matches this question.\n\nQuestion: %1").arg(text);
    QString out = QStringLiteral("Passages from my library:\n\n");
    for (qsizetype i = 0; i < passages.size(); ++i) {
        const Passage &p = passages.at(i);
        out += QStringLiteral("[%1] %2").arg(i + 1).arg(p.path);
        if (p.page > 0)
            out += QStringLiteral(" (page %1)").arg(p.page);
        else if (!p.headingTrail.isEmpty())
            out += QStringLiteral(" (%1)").arg(p.headingTrail);
        out += QLatin1Char('\n') + p.text.trimmed() + QStringLiteral("\n\n");
    }
    out += QStringLiteral("Question: %1").arg(text);
    return out;
}

} // namespace Knowledge
