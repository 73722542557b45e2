#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>

namespace LocalProvider {

struct ApiError;
enum class Api;

struct Usage {
    int promptTokens = 0;
    int cacheReadTokens = 0;
    int cacheCreationTokens = 0; // Anthropic only
    int completionTokens = 0;    // every token generated, the reasoning's included (as billed)
    int reasoningTokens = 0;     // of those, the reasoning's (headstart-local-reasoner)
};

struct ChoiceText {
    QString text;
    bool truncated = false;
};

// Renders one response in a provider's wire format: the bytes of each SSE event, or the whole
// non-streaming body. One instance per response (it carries the response id).
class WireFormat
{
public:
    virtual ~WireFormat();

    // `thinks`: the answer begins with the model's reasoning (streamReasoning()).
    static std::unique_ptr<WireFormat> create(Api api, const QString &model, quint64 serial, bool thinks = false);

    virtual QByteArray errorBody(const ApiError &error) const = 0;
    // Sent once prefill is done, right before the first token.
    virtual QByteArray streamStart(int choices, const Usage &usage) = 0;
    virtual QByteArray streamToken(int choice, QStringView text) = 0;
    // A piece of the reasoning before the answer: DeepSeek's `reasoning_content`, Anthropic's
    // thinking block. Only before the first streamToken().
    virtual QByteArray streamReasoning(int choice, QStringView text) = 0;
    virtual QByteArray streamChoiceEnd(int choice, bool truncated) = 0;
    virtual QByteArray streamEnd(const Usage &usage, bool truncated, bool includeUsage) = 0;
    // One event whose data line is not valid JSON.
    virtual QByteArray streamMalformed() = 0;
    virtual QByteArray streamError() = 0;
    virtual QByteArray completeBody(const QList<ChoiceText> &choices, const Usage &usage) = 0;
    // The status an error-at fault gets when the response is not streamed.
    virtual ApiError midResponseError() const = 0;
};

// A JSON string literal (quotes included), UTF-8.
QByteArray jsonQuoted(QStringView text);

} // namespace LocalProvider
