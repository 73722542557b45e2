#include "answers.h"

#include "chatrequest.h"
#include "material.h"
#include "shapes.h"
#include "stablehash.h"
#include "tokenizer.h"
#include "translation.h"

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

// Continue Writing goes on from the end of the document: its last pages give the words.
constexpr qsizetype ContinueContextChars = 8000;

bool isSingleHan(QStringView token)
{
    return token.size() <= 2 && !token.isEmpty() && Tokenizer::isCjk(Tokenizer::codePointAt(token, 0).value)
           && Tokenizer::codePointAt(token, 0).length == token.size();
}

// A shaped answer as tokens: the tokenizer's, with Han grouped one or two characters a token
// as in the chain's answers (Chinese BPE vocabularies hold many two-character words).
QStringList tokensOf(const QString &text, quint64 seed)
{
    QStringList tokens;
    Rng rng(StableHash::combine(seed, 0x7a11ULL));
    bool open = false; // the last token is one Han character that may take a second one
    for (QStringView t : Tokenizer::split(text)) {
        const bool han = isSingleHan(t);
        if (han && open && rng.bounded(2) == 1) {
            tokens.last() += t;
            open = false;
            continue;
        }
        tokens.append(t.toString());
        open = han;
    }
    return tokens;
}

// The text of an answer that has a shape of its own; empty for the kinds a word chain writes.
QString shapedText(const Material &m, quint64 seed)
{
    using Kind = Material::Kind;
    switch (m.kind) {
    case Kind::Summarize: return Shapes::summary(m.document, seed);
    case Kind::RewriteSelection: return Shapes::rewrite(m.selection, seed);
    case Kind::ExplainSelection: return Shapes::explanation(m.selection, m.document, seed);
    case Kind::Translate:
        return standInTranslation(m.selection.isEmpty() ? m.document : m.selection, m.targetLanguage, seed);
    case Kind::WizardOutline: return Shapes::outline(m, seed);
    case Kind::WizardIntroduction: return Shapes::introduction(m);
    case Kind::WizardTitles: return Shapes::titles(m, seed);
    case Kind::LibraryChat: return Shapes::libraryAnswer(m.question, m.passages);
    case Kind::DraftJudgement: return Shapes::draftJudgement(m.messages.value(m.messages.size() - 1));
    case Kind::Acknowledgement: return Shapes::acknowledgement(m.messages.value(m.messages.size() - 1));
    case Kind::Chat:
    case Kind::ContinueWriting: return {};
    }
    return {};
}

// The words a word chain draws from, and the text that decides its language.
std::pair<QString, QString> chainMaterial(const Material &m)
{
    if (m.kind == Material::Kind::ContinueWriting) {
        const QString tail = m.document.size() > ContinueContextChars ? m.document.last(ContinueContextChars)
                                                                      : m.document;
        return {tail, tail};
    }
    const QString words = m.text();
    return {words, m.messages.isEmpty() ? words : m.messages.last()};
}

} // namespace

QList<Answer> answersFor(const ChatRequest &r)
{
    Material material = Material::from(r.turns);
    if (material.kind == Material::Kind::Chat && Material::judgesDrafts(r.parts))
        material.kind = Material::Kind::DraftJudgement;
    else if (material.kind == Material::Kind::Chat && Material::acknowledges(r.parts))
        material.kind = Material::Kind::Acknowledgement;
    const auto [words, languageProbe] = chainMaterial(material);
    std::unique_ptr<TextGenerator> chain; // made only for the kinds that need it
    // Uncut, an answer ends at its natural end.
    const auto freshAnswer = [&](int i, int maxTokens) {
        const quint64 seed = r.textSeed(i);
        const QString shaped = shapedText(material, seed);
        if (!shaped.isEmpty())
            return cut(tokensOf(shaped, seed), maxTokens);
        if (!chain)
            chain = std::make_unique<TextGenerator>(words, languageProbe);
        return chain->generate(seed, maxTokens);
    };
    QList<Answer> answers;
    if (!r.prefill) {
        for (int i = 0; i < r.n; ++i)
            answers.append(freshAnswer(i, r.maxTokens));
        return answers;
    }
    const QString &prefill = *r.prefill;
    std::unique_ptr<TextGenerator> other; // made only when a prefill leaves the fresh answer
    for (int i = 0; i < r.n; ++i) {
        // The rest of the uncut answer ends where it ends.
        const Answer fresh = freshAnswer(i, 0);
        if (fresh.tokens.join(QString()).startsWith(prefill)) {
            answers.append(cut(tokensAfter(fresh.tokens, prefill.size()), r.maxTokens));
            continue;
        }
        if (!other)
            other = std::make_unique<TextGenerator>(words + u'\n' + prefill, languageProbe);
        Answer a = other->generate(r.continuationSeed(i), r.maxTokens);
        // Goes on after the prefill's last word rather than gluing a new word to it.
        if (!a.tokens.isEmpty() && !other->isChinese() && !prefill.isEmpty() && !prefill.back().isSpace()
            && a.tokens.first().front().isLetterOrNumber())
            a.tokens.first().prepend(u' ');
        answers.append(std::move(a));
    }
    return answers;
}

bool thinksFirst(const ChatRequest &request)
{
    return request.model == u"headstart-local-reasoner" && !request.prefill;
}

QStringList reasoningFor(const ChatRequest &r, int tokens)
{
    QStringList out;
    if (tokens <= 0)
        return out;
    const Material material = Material::from(r.turns);
    const auto [words, languageProbe] = chainMaterial(material);
    const TextGenerator chain(words, languageProbe);
    // Answers of the chain end at a sentence end after 60-300 tokens: as many as it takes.
    for (quint64 round = 0; out.size() < tokens && round < 64; ++round) {
        const Answer part = chain.generate(StableHash::combine(r.textSeed(0), 0x7e450000ULL + round),
                                           tokens - int(out.size()));
        if (part.tokens.isEmpty())
            break;
        if (!out.isEmpty() && !chain.isChinese())
            out.append(QStringLiteral(" "));
        out += part.tokens;
    }
    if (out.size() > tokens)
        out.resize(tokens);
    return out;
}

} // namespace LocalProvider
