#include "prompt.h"

#include "chatrequest.h"
#include "stablehash.h"
#include "tokenizer.h"

namespace LocalProvider {

void Prompt::step(Chain &chain, QStringView token, int blockTokens)
{
    chain.hash = StableHash::combine(chain.hash, StableHash::text(token));
    ++chain.tokens;
    if (chain.tokens % blockTokens == 0)
        chain.blockKeys.append(chain.hash);
}

Prompt::Prompt(const ChatRequest &request, int blockTokens)
    : m_blockTokens(qMax(1, blockTokens))
{
    Chain chain;
    chain.hash = StableHash::combine(StableHash::text(request.api == Api::OpenAi ? u"openai" : u"anthropic"),
                                     StableHash::text(request.model));
    const auto add = [&](const QList<PromptPart> &parts) {
        for (const PromptPart &part : parts) {
            if (part.kind == PromptPart::Kind::Marker) {
                step(chain, part.text, m_blockTokens);
                continue;
            }
            Tokenizer::forEach(part.text, [&](QStringView token) { step(chain, token, m_blockTokens); });
            m_boundaries.append({chain.tokens, chain.hash, part.cacheBreakpoint});
        }
    };
    add(request.parts);
    m_conversation = chain;
    add(request.prefillParts);
    m_tokens = chain.tokens;
    m_endKey = chain.hash;
    m_blockKeys = std::move(chain.blockKeys);
}

QList<quint64> Prompt::blockKeysWithAnswer(QStringView answer) const
{
    Chain chain = m_conversation;
    step(chain, roleMarker(u"assistant"), m_blockTokens);
    Tokenizer::forEach(answer, [&](QStringView token) { step(chain, token, m_blockTokens); });
    return chain.blockKeys;
}

Prompt::Boundary Prompt::endWithAnswer(QStringView answer) const
{
    Chain chain = m_conversation;
    step(chain, roleMarker(u"assistant"), m_blockTokens);
    Tokenizer::forEach(answer, [&](QStringView token) { step(chain, token, m_blockTokens); });
    return {chain.tokens, chain.hash, false};
}

} // namespace LocalProvider
