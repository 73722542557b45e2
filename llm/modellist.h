#pragma once

#include "error.h"
#include "providerprofile.h"

#include <QByteArrayView>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>

#include <expected>

class QNetworkAccessManager;
class QNetworkReply;

namespace Llm {

// <baseUrl>/models: OpenAI's list and Anthropic's (GET /v1/models) live beside the chat endpoint.
QUrl modelListUrl(const ProviderProfile &profile);

// The model ids of a list answer: `data[].id`, which OpenAI, Anthropic and the OpenAI-compatible
// servers (vLLM, LM Studio, Ollama, OpenRouter, llama.cpp) all send. Sorted, without duplicates.
// An error (untranslated detail for Error::detail) when the body is not such a list.
std::expected<QStringList, QString> parseModelList(QByteArrayView body);

// One GET of a provider's model list. Lives in the thread of its QNetworkAccessManager (the GUI
// thread); its owner is the parent. Exactly one of finished() or failed() follows start(),
// always from the event loop. The same rules as an answer apply before anything is sent: no
// key for a provider that needs one, or plain http:// to another host without the profile's
// permission, fail without a request. Redirects are not followed (the key would go with them).
class ModelListFetch : public QObject
{
    Q_OBJECT

public:
    ModelListFetch(QNetworkAccessManager *network, ProviderProfile profile, QObject *parent = nullptr);
    ~ModelListFetch() override;

    void start();
    void cancel();
    bool isRunning() const { return m_reply != nullptr; }

signals:
    void finished(const QStringList &models);
    void failed(const Llm::Error &error);

private:
    void onFinished();
    void failLater(const Error &error);

    QPointer<QNetworkAccessManager> m_network;
    ProviderProfile m_profile;
    QNetworkReply *m_reply = nullptr; // owned until it finishes
};

} // namespace Llm
