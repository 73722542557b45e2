#include "prompt.h"

#include "chatrequest.h"
#include "stablehash.h"
#include "tokenizer.h"

namespace LocalProvider {

Prompt::Prompt(const ChatRequest &request, int blockTokens)
    : m_blockTokens(qMax(1, blockTokens))
{
    quint64 h = StableHash::combine(StableHash::text(request.api == Api::OpenAi ? u"openai" : u"anthropic"),
                                    StableHash::text(request.model));
    const auto step = [&](QStringView token) {
        h = StableHash::combine(h, StableHash::text(token));
        ++m_tokens;
        if (m_tokens % m_blockTokens == 0)
            m_blockKeys.append(h);
    };
    for (const PromptPart &part : request.parts) {
        if (part.kind == PromptPart::Kind::Marker) {
            step(part.text);
            continue;
        }
        Tokenizer::forEach(part.text, step);
        m_boundaries.append({m_tokens, h, part.cacheBreakpoint});
    }
}

} // namespace LocalProvider
