#pragma once

#include "llm/error.h"
#include "llm/providerprofile.h"
#include "llm/providerrequest.h"

#include <QObject>
#include <QPointer>

#include <chrono>

class QNetworkAccessManager;

namespace Prefetch {

// "Test connection": one tiny streamed request (a one-word prompt, max_tokens 1) to a profile,
// timed from start() to the first token. Reports exactly one of finished() or failed() per
// start(); cancel() reports failed(Cancelled). Starting again cancels the running test first.
// It waits as long as the profile's timeouts say, like every request to it.
// It is foreground traffic on the main key, outside the engine's lanes and budget: the user
// asked for it. GUI thread; the owner passes the app's network manager.
class ConnectionTest : public QObject
{
    Q_OBJECT

public:
    explicit ConnectionTest(QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ConnectionTest() override;

    void start(const Llm::ProviderProfile &profile);
    void cancel();
    bool isRunning() const { return m_stream != nullptr; }

signals:
    // `ttftMs`: start() to the first token; when the model sent no text at all (a reasoning
    // model spending its one token on thinking), to the first byte, and `modelAnswered` is false.
    void finished(double ttftMs, bool modelAnswered);
    void failed(const Llm::Error &error);

private:
    void onFinished(Llm::ProviderRequest *stream);
    void onFailed(Llm::ProviderRequest *stream, const Llm::Error &error);
    void release();

    QPointer<QNetworkAccessManager> m_network;
    Llm::ProviderRequest *m_stream = nullptr; // owned; deleted later once it ended
};

} // namespace Prefetch
