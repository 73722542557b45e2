#pragma once

#include "streamdecoder.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

namespace Llm {

// Decodes Anthropic Messages streams (message_start, content_block_*, message_delta,
// message_stop, ping, error) into StreamEvents; event types it does not know are skipped so
// new ones do not break old clients. Usage is reported in the uniform meaning of Usage (input
// counts cached tokens too). One decoder per response; use from one thread at a time.
class AnthropicDecoder final : public StreamDecoder
{
public:
    void decode(const SseEvent &event, QList<StreamEvent> &out) override;
    bool isComplete() const override { return m_complete; }
    QString malformedReason() const override { return m_malformed; }

private:
    enum class BlockKind { Other, Text, Thinking, Tool };
    struct Block {
        BlockKind kind = BlockKind::Other;
        int toolIndex = -1;
    };

    void blockStart(const QJsonObject &event, QList<StreamEvent> &out);
    void blockDelta(const QJsonObject &event, QList<StreamEvent> &out);
    void mergeUsage(const QJsonObject &usage, QList<StreamEvent> &out);
    void noteMalformed(const QString &reason);

    QHash<int, Block> m_blocks; // by content block index
    int m_toolCount = 0;
    // The provider's own fields, -1 until reported; message_delta overrides them one by one.
    qint64 m_inputTokens = -1;
    qint64 m_outputTokens = -1;
    qint64 m_cacheReadTokens = -1;
    qint64 m_cacheWriteTokens = -1;
    qint64 m_thinkingTokens = -1;
    qint64 m_eventCount = 0;
    QString m_malformed;
    bool m_complete = false;
    bool m_finished = false; // a stop_reason was reported
};

} // namespace Llm
