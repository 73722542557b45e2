#include "answers.h"

#include "chatrequest.h"

#include <memory>

namespace LocalProvider {

namespace {

using Answer = TextGenerator::Answer;

// The tokens after the first `chars` UTF-16 units of their concatenation; a token the cut falls
// inside contributes its rest.
QStringList tokensAfter(const QStringList &tokens, qsizetype chars)
{
    QStringList rest;
    qsizetype pos = 0;
    for (const QString &token : tokens) {
        const qsizetype end = pos + token.size();
        if (end > chars)
            rest.append(pos >= chars ? token : token.sliced(chars - pos));
        pos = end;
    }
    return rest;
}

Answer cut(QStringList tokens, int maxTokens)
{
    Answer a;
    if (maxTokens > 0 && tokens.size() > maxTokens) {
        tokens.resize(maxTokens);
        a.truncated = true;
    }
    a.tokens = std::move(tokens);
    return a;
}

} // namespace

QList<Answer> answersFor(const ChatRequest &r)
{
    const TextGenerator generator(r.corpus, r.lastUserText);
    QList<Answer> answers;
    if (!r.prefill) {
        for (int i = 0; i < r.n; ++i)
            answers.append(generator.generate(r.textSeed(i), r.maxTokens));
        return answers;
    }
    const QString &prefill = *r.prefill;
    std::unique_ptr<TextGenerator> other; // made only when a prefill leaves the fresh answer
    for (int i = 0; i < r.n; ++i) {
        // Uncut, it ends at its natural end: the rest of it ends there too.
        const Answer fresh = generator.generate(r.textSeed(i), 0);
        if (fresh.tokens.join(QString()).startsWith(prefill)) {
            answers.append(cut(tokensAfter(fresh.tokens, prefill.size()), r.maxTokens));
            continue;
        }
        if (!other)
            other = std::make_unique<TextGenerator>(r.corpus + u'\n' + prefill, r.lastUserText);
        Answer a = other->generate(r.continuationSeed(i), r.maxTokens);
        // Goes on after the prefill's last word rather than gluing a new word to it.
        if (!a.tokens.isEmpty() && !other->isChinese() && !prefill.isEmpty() && !prefill.back().isSpace()
            && a.tokens.first().front().isLetterOrNumber())
            a.tokens.first().prepend(u' ');
        answers.append(std::move(a));
    }
    return answers;
}

} // namespace LocalProvider
