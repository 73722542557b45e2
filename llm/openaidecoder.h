#pragma once

#include "streamdecoder.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QString>

namespace Llm {

// Decodes OpenAI-compatible chat-completions streams (OpenAI, DeepSeek, Qwen/DashScope
// compatible mode, Ollama /v1, llama.cpp server, vLLM, OpenRouter) into StreamEvents. The
// provider quirks it absorbs are listed in docs/providers.md and at the code that handles
// them. One decoder per response; use from one thread at a time.
class OpenAiDecoder final : public StreamDecoder
{
public:
    void decode(const SseEvent &event, QList<StreamEvent> &out) override;
    bool isComplete() const override;
    QString malformedReason() const override { return m_malformed; }

private:
    struct ToolState {
        QString id;
        QString name;
    };
    struct ChoiceState {
        QString finishReason;
        QMap<int, ToolState> tools; // by the provider's tool-call index
    };

    void decodeChoice(const QJsonObject &choice, qsizetype position, QList<StreamEvent> &out);
    void decodeToolCalls(int choice, const QJsonArray &calls, QList<StreamEvent> &out);
    void decodeUsage(const QJsonObject &usage, QList<StreamEvent> &out);
    void decodeLlamaCppNative(const QJsonObject &chunk, QList<StreamEvent> &out);
    void emitUsage(const Usage &usage, QList<StreamEvent> &out);
    void emitError(const QJsonValue &error, QList<StreamEvent> &out);
    void noteMalformed(const QString &reason);

    QMap<int, ChoiceState> m_choices;
    Usage m_usage;
    qint64 m_eventCount = 0;
    QString m_malformed;
    bool m_usageSeen = false;
    bool m_done = false;
};

} // namespace Llm
