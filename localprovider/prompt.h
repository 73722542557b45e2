#pragma once

#include <QList>
#include <QtGlobal>

namespace LocalProvider {

struct ChatRequest;

// A request's prompt as the prefix cache sees it: its token count and chained hashes of its
// prefixes. The hash after token i covers the API, the model and tokens 0..i, so two prompts
// share a key exactly when they share that whole prefix.
class Prompt
{
public:
    struct Boundary {
        int tokens;       // prefix length at the end of a text part (an Anthropic content block)
        quint64 key;      // hash of that prefix
        bool breakpoint;  // the part carried cache_control
    };

    Prompt() = default;
    Prompt(const ChatRequest &request, int blockTokens);

    int tokenCount() const { return m_tokens; }
    int blockTokens() const { return m_blockTokens; }
    // blockKeys()[i] is the key of the prefix of (i + 1) * blockTokens() tokens.
    const QList<quint64> &blockKeys() const { return m_blockKeys; }
    const QList<Boundary> &boundaries() const { return m_boundaries; }

private:
    int m_tokens = 0;
    int m_blockTokens = 64;
    QList<quint64> m_blockKeys;
    QList<Boundary> m_boundaries;
};

} // namespace LocalProvider
