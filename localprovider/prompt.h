#pragma once

#include <QList>
#include <QStringView>
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
        int tokens;      // prefix length at the end of a text part (an Anthropic content block)
        quint64 key;     // hash of that prefix
        bool breakpoint; // the part carried cache_control
    };

    Prompt() = default;
    // The request's parts, then its prefill (marker and text), if it has one.
    Prompt(const ChatRequest &request, int blockTokens);

    int tokenCount() const { return m_tokens; }
    int blockTokens() const { return m_blockTokens; }
    // blockKeys()[i] is the key of the prefix of (i + 1) * blockTokens() tokens.
    const QList<quint64> &blockKeys() const { return m_blockKeys; }
    const QList<Boundary> &boundaries() const { return m_boundaries; }

    // The keys of every full block of the conversation followed by an assistant turn with
    // `answer` as its text (a prefill and what was generated after it): what a request leaves
    // in an automatic block cache, keyed the way a later prompt that carries that text (a
    // continuation, the next turn) will be, since both tokenize it whole.
    QList<quint64> blockKeysWithAnswer(QStringView answer) const;
    // The key and length of the whole conversation followed by that answer: where a
    // provider that persists whole prefixes (DeepSeek) cuts a unit at the end of an output.
    Boundary endWithAnswer(QStringView answer) const;
    // The key of the whole prompt: the end of its input.
    Boundary end() const { return {m_tokens, m_endKey, false}; }

private:
    // The hash chain after some prefix of the prompt.
    struct Chain {
        quint64 hash = 0;
        int tokens = 0;
        QList<quint64> blockKeys;
    };
    static void step(Chain &chain, QStringView token, int blockTokens);

    int m_tokens = 0;
    int m_blockTokens = 64;
    QList<quint64> m_blockKeys;
    QList<Boundary> m_boundaries;
    Chain m_conversation; // after the request's parts, before the prefill
    quint64 m_endKey = 0; // after the whole prompt
};

} // namespace LocalProvider
