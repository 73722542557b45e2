#include "connectiontest.h"

#include "log.h"

#include <QNetworkAccessManager>

#include <spdlog/spdlog.h>

namespace Prefetch {

ConnectionTest::ConnectionTest(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
{
}

ConnectionTest::~ConnectionTest()
{
    // Destroyed mid-test (the dialog closed): close the connection without signalling anyone.
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->cancel();
        delete m_stream;
    }
}

void ConnectionTest::start(const Llm::ProviderProfile &profile)
{
    cancel();

    Llm::ChatRequest request;
    request.model = profile.model;
    request.messages.append({Llm::Role::User, QStringLiteral("ping")});
    request.maxTokens = 1;

    // The profile's own timeouts: a test that gave up sooner than the real requests do would
    // report a slow provider as broken.
    auto *stream = new Llm::ProviderRequest(m_network, profile, request, {}, this);
    m_stream = stream;
    connect(stream, &Llm::ProviderRequest::finished, this, [this, stream] { onFinished(stream); });
    connect(stream, &Llm::ProviderRequest::failed, this,
            [this, stream](const Llm::Error &error) { onFailed(stream, error); });
    log().info("connection test {}: {} {}", stream->requestId().toStdString(), profile.id.toStdString(),
               profile.endpoint().host().toStdString());
    stream->start();
}

void ConnectionTest::cancel()
{
    // ProviderRequest::cancel() emits failed(Cancelled) synchronously, which reaches onFailed().
    if (m_stream)
        m_stream->cancel();
}

void ConnectionTest::onFinished(Llm::ProviderRequest *stream)
{
    if (stream != m_stream)
        return;
    const auto &t = stream->timestamps();
    const bool answered = t.firstToken >= 0;
    const qint64 end = answered ? t.firstToken : (t.firstByte >= 0 ? t.firstByte : t.finished);
    const double ttftMs = static_cast<double>(end - t.started) / 1e6;
    log().info("connection test {}: ok, first {} after {:.0f} ms", stream->requestId().toStdString(),
               answered ? "token" : "byte", ttftMs);
    release();
    emit finished(ttftMs, answered);
}

void ConnectionTest::onFailed(Llm::ProviderRequest *stream, const Llm::Error &error)
{
    if (stream != m_stream)
        return;
    log().info("connection test {}: {} (HTTP {})", stream->requestId().toStdString(), error.codeName(),
               error.httpStatus());
    release();
    emit failed(error);
}

void ConnectionTest::release()
{
    // Deleted later: this runs inside the stream's own signal.
    m_stream->disconnect(this);
    m_stream->deleteLater();
    m_stream = nullptr;
}

} // namespace Prefetch
