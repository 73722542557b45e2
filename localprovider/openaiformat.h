#pragma once

#include "wireformat.h"

namespace LocalProvider {

// OpenAI chat completions: `data: {chunk}` events ending with `data: [DONE]`; usage with
// OpenAI's prompt_tokens_details.cached_tokens and DeepSeek's prompt_cache_hit/miss_tokens.
class OpenAiFormat final : public WireFormat
{
public:
    OpenAiFormat(QString model, QByteArray id);

    QByteArray errorBody(const ApiError &error) const override;
    QByteArray streamStart(int choices, const Usage &usage) override;
    QByteArray streamToken(int choice, QStringView text) override;
    QByteArray streamReasoning(int choice, QStringView text) override;
    QByteArray streamChoiceEnd(int choice, bool truncated) override;
    QByteArray streamEnd(const Usage &usage, bool truncated, bool includeUsage) override;
    QByteArray streamMalformed() override;
    QByteArray streamError() override;
    QByteArray completeBody(const QList<ChoiceText> &choices, const Usage &usage) override;
    ApiError midResponseError() const override;

private:
    QByteArray chunk(const QByteArray &choicesJson) const;

    QString m_model;
    QByteArray m_id;
    QByteArray m_chunkPrefix; // everything up to "choices":
};

} // namespace LocalProvider
