#pragma once

#include "wireformat.h"

namespace LocalProvider {

// Anthropic messages: `event: <type>` + `data: <json>` pairs from message_start to message_stop.
// usage.input_tokens excludes cache reads and writes, as Anthropic reports it.
class AnthropicFormat final : public WireFormat
{
public:
    AnthropicFormat(QString model, QByteArray id, bool thinks = false);

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
    QString m_model;
    QByteArray m_id;
    // With thinking the thinking block is index 0 and the text block, opened at the first
    // token, index 1.
    int textIndex() const { return m_thinks ? 1 : 0; }
    bool m_thinks = false;
    bool m_textOpen = false;
};

} // namespace LocalProvider
