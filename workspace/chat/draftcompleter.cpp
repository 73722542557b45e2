#include "draftcompleter.h"

#include "workspace/conversations/conversationstore.h"

#include "base/text.h"
#include "prefetch/strategies/classifier.h"

#include <QHash>

#include <algorithm>

namespace Gui {

namespace {

// A word is completed from its third letter, to a word at least two letters longer: completing
// less would save less than reading the grey text costs.
constexpr qsizetype MinWordPrefix = 3;
constexpr qsizetype MinWordGain = 2;
constexpr qsizetype MinWordLength = MinWordPrefix + MinWordGain;
// Words kept, and candidates looked at per key: bounds on memory and on the work of a key.
constexpr qsizetype MaxWords = 50'000;
constexpr int MaxCandidates = 256;

bool isWordLetter(QChar c)
{
    return c.isLetter() && !Base::isCjkLetter(c.unicode());
}

// Enough of a draft to tell one message from another: three characters, or two of a script
// without spaces (two Chinese characters are a word).
bool longEnough(QStringView draft)
{
    const QStringView t = draft.trimmed();
    const bool cjk = std::any_of(t.begin(), t.end(), [](QChar c) { return Base::isCjkLetter(c.unicode()); });
    return t.size() >= (cjk ? 2 : 3);
}

} // namespace

DraftCompleter::DraftCompleter(ConversationStore *store, TextSource texts)
    : m_store(store)
    , m_texts(std::move(texts))
{
}

void DraftCompleter::invalidate()
{
    m_read = false;
}

void DraftCompleter::read()
{
    m_read = true;
    m_sent.clear();
    m_words.clear();
    if (m_store) {
        // Most often sent first, then most recently: what the user is likeliest to be typing
        // again. The store reports a failure itself; nothing is completed from messages then.
        if (auto sent = m_store->recentQuestions(SentMessages)) {
            struct Sent {
                QString text;
                int times = 0;
            };
            QHash<QString, qsizetype> index; // by the words, whatever their case or final mark
            QList<Sent> distinct;
            for (const QString &message : std::as_const(*sent)) {
                const QString key = Prefetch::normalizeDraft(message).toCaseFolded();
                if (key.isEmpty())
                    continue;
                const auto it = index.constFind(key);
                if (it == index.constEnd()) {
                    index.insert(key, distinct.size());
                    distinct.append({message.trimmed(), 1});
                } else {
                    ++distinct[*it].times;
                }
            }
            std::stable_sort(distinct.begin(), distinct.end(),
                             [](const Sent &a, const Sent &b) { return a.times > b.times; });
            for (const Sent &s : std::as_const(distinct))
                m_sent.append(s.text);
        }
    }
    if (m_texts) {
        for (const QString &text : m_texts())
            addWords(QStringView(text).left(DocumentChars));
    }
}

void DraftCompleter::addWords(QStringView text)
{
    qsizetype start = -1;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const bool letter = i < text.size() && isWordLetter(text.at(i));
        if (letter && start < 0)
            start = i;
        if (letter || start < 0)
            continue;
        const QStringView w = text.sliced(start, i - start);
        start = -1;
        if (w.size() < MinWordLength)
            continue;
        const QString key = w.toString().toCaseFolded();
        auto it = m_words.find(key);
        if (it == m_words.end()) {
            if (m_words.size() >= MaxWords)
                continue;
            it = m_words.insert(key, {w.toString(), 0});
        }
        ++it->count;
    }
}

DraftCompletion DraftCompleter::complete(const QString &draft, const QStringList &offered)
{
    if (draft.trimmed().isEmpty())
        return {};
    if (!m_read)
        read();
    if (DraftCompletion whole = wholeMessage(draft, offered); !whole.isEmpty())
        return whole;
    return word(draft);
}

DraftCompletion DraftCompleter::wholeMessage(const QString &draft, const QStringList &offered) const
{
    if (!longEnough(draft))
        return {};
    // Leading white space is the user's; a message sent before is compared from its first letter.
    qsizetype lead = 0;
    while (lead < draft.size() && draft.at(lead).isSpace())
        ++lead;
    const QStringView typed = QStringView(draft).sliced(lead);
    for (const QStringList *candidates : {&m_sent, &offered}) {
        for (const QString &message : *candidates) {
            if (message.size() <= typed.size() || !message.startsWith(typed, Qt::CaseInsensitive))
                continue;
            const QString rest = message.sliced(typed.size());
            if (rest.trimmed().isEmpty())
                continue;
            return {rest, true};
        }
    }
    return {};
}

DraftCompletion DraftCompleter::word(const QString &draft) const
{
    qsizetype start = draft.size();
    while (start > 0 && isWordLetter(draft.at(start - 1)))
        --start;
    const qsizetype typed = draft.size() - start;
    if (typed < MinWordPrefix)
        return {};
    const QString prefix = draft.sliced(start).toCaseFolded();
    if (prefix.size() != typed)
        return {}; // folding changed its length ("ß"): the grey text could not start at the caret
    const Word *best = nullptr;
    int looked = 0;
    for (auto it = m_words.lowerBound(prefix); it != m_words.end() && it.key().startsWith(prefix); ++it) {
        if (++looked > MaxCandidates)
            break;
        if (it.key().size() < prefix.size() + MinWordGain)
            continue;
        if (!best || it->count > best->count)
            best = &*it;
    }
    // Likewise a word whose folded form is not as long as the word.
    if (!best || best->form.size() != best->form.toCaseFolded().size())
        return {};
    return {best->form.sliced(typed), false};
}

} // namespace Gui
