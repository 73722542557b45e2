#include "llmstream.h"

#include "clock.h"
#include "log.h"
#include "requestencoder.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <spdlog/spdlog.h>

#include <atomic>

namespace Llm {

namespace {

constexpr qsizetype MaxErrorBodyBytes = 64 * 1024;

QByteArray makeRequestId()
{
    static std::atomic<quint64> counter{0};
    return "hs-" + QByteArray::number(QCoreApplication::applicationPid()) + '-'
        + QByteArray::number(++counter);
}

std::string idOf(const LlmStream &s) { return s.requestId().toStdString(); }

double msBetween(qint64 fromNs, qint64 toNs)
{
    return fromNs < 0 || toNs < 0 ? -1.0 : double(toNs - fromNs) / 1e6;
}

} // namespace

LlmStream::LlmStream(QNetworkAccessManager *network, ProviderProfile profile, ChatRequest request,
                     StreamOptions options, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_profile(std::move(profile))
    , m_request(std::move(request))
    , m_options(std::move(options))
{
    if (m_options.requestId.isEmpty())
        m_options.requestId = makeRequestId();
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &LlmStream::onTimeout);
}

LlmStream::~LlmStream()
{
    // Destroyed while running: close the connection without signalling anyone.
    releaseReply(true);
}

void LlmStream::start()
{
    if (m_state != State::Idle) {
        log().warn("stream {}: start() called twice", idOf(*this));
        return;
    }
    m_times.started = monotonicNowNs();
    m_state = State::Connecting;

    // Failures found before any I/O are reported after start() returns, like network failures,
    // so callers always see the terminal signal from the event loop.
    auto failLater = [this](Error error) {
        QMetaObject::invokeMethod(this, [this, error] { fail(error, false); }, Qt::QueuedConnection);
    };

    const QUrl url = m_profile.endpoint();
    if (!m_network) {
        failLater(Error(Error::Code::InvalidRequest, m_profile.displayName,
                        QStringLiteral("no network access manager")));
        return;
    }
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        failLater(Error(Error::Code::InvalidRequest, m_profile.displayName,
                        QCoreApplication::translate("Llm::LlmStream",
                                                    "The base URL is not set or not an http(s) URL.")));
        return;
    }
    // Taken out of the options: the reply holds its own reference while it uploads, and a
    // multi-megabyte document need not live as long as the stream.
    std::expected<QByteArray, Error> body = std::exchange(m_options.encodedBody, {});
    if (body->isEmpty())
        body = encodeRequest(m_profile.format, m_request, m_profile.encodeOptions, m_profile.displayName);
    if (!body) {
        failLater(body.error());
        return;
    }

    QNetworkRequest req(url);
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("Accept", m_request.stream ? "text/event-stream" : "application/json");
    // A compressed event stream would reach us in bursts, whenever the decompressor fills.
    req.setRawHeader("Accept-Encoding", "identity");
    req.setRawHeader("X-Request-Id", m_options.requestId);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    req.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);

    const QString &key = m_options.prefetch && !m_profile.prefetchApiKey.isEmpty()
        ? m_profile.prefetchApiKey
        : m_profile.apiKey;
    if (m_profile.format == ApiFormat::AnthropicMessages) {
        req.setRawHeader("anthropic-version", "2023-06-01");
        if (!key.isEmpty())
            req.setRawHeader("x-api-key", key.toUtf8());
    } else if (!key.isEmpty()) {
        req.setRawHeader("Authorization", "Bearer " + key.toUtf8());
    }
    if (m_options.prefetch) {
        // Lets a gateway or the provider deprioritise speculative traffic.
        req.setRawHeader("X-Prefetch", "1");
        req.setPriority(QNetworkRequest::LowPriority);
    }
    for (const auto &[name, value] : m_profile.extraHeaders)
        req.setRawHeader(name, value);
    for (const auto &[name, value] : m_options.extraHeaders)
        req.setRawHeader(name, value);

    m_decoder = StreamDecoder::create(m_profile.format);
    m_reply = m_network->post(req, *body);
    // Bounded: while paused, QNAM stops reading the socket once this much is buffered.
    m_reply->setReadBufferSize(m_options.readBufferBytes);
    connect(m_reply, &QNetworkReply::readyRead, this, &LlmStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &LlmStream::onReplyFinished);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &LlmStream::onMetaDataChanged);
    connect(m_reply, &QNetworkReply::requestSent, this, [this] {
        m_times.requestSent = monotonicNowNs();
        if (m_phase == Phase::Connect)
            armTimer(Phase::FirstByte);
    });
    armTimer(Phase::Connect);
    log().debug("stream {}: POST {} ({} bytes{})", idOf(*this), url.host().toStdString(),
                body->size(), m_options.prefetch ? ", prefetch" : "");
}

void LlmStream::cancel()
{
    if (isDone())
        return;
    fail(Error(Error::Code::Cancelled, m_profile.displayName), true);
}

void LlmStream::setPaused(bool paused)
{
    if (m_paused == paused)
        return;
    m_paused = paused;
    if (!m_reply || isDone())
        return;
    if (m_paused) {
        m_timer.stop(); // a paused stream is not idle by the provider's fault
        return;
    }
    armTimer(m_phase);
    // Queued: resume() is typically called from inside a consumer's handler; delivering the
    // buffered bytes synchronously would re-enter it.
    QMetaObject::invokeMethod(this, &LlmStream::drain, Qt::QueuedConnection);
}

void LlmStream::onMetaDataChanged()
{
    if (m_httpStatus != 0 || !m_reply)
        return;
    m_httpStatus = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (m_httpStatus == 0)
        return;
    m_times.headers = monotonicNowNs();
    if (m_state == State::Connecting)
        m_state = State::Waiting;
    emit headersReceived(m_httpStatus);
}

void LlmStream::onReadyRead()
{
    drain();
}

void LlmStream::onReplyFinished()
{
    m_replyFinished = true;
    drain();
}

void LlmStream::drain()
{
    QPointer<LlmStream> self(this);
    while (m_reply && !isDone() && !m_paused) {
        const QByteArray chunk = m_reply->read(64 * 1024);
        if (chunk.isEmpty())
            break;
        m_lastReadNs = monotonicNowNs();
        if (m_times.firstByte < 0) {
            m_times.firstByte = m_lastReadNs;
            if (m_state == State::Connecting)
                m_state = State::Waiting;
        }
        m_bytesReceived += chunk.size();
        if (m_httpStatus >= 400) {
            if (m_errorBody.size() < MaxErrorBodyBytes)
                m_errorBody.append(chunk.left(MaxErrorBodyBytes - m_errorBody.size()));
            continue;
        }
        armTimer(Phase::Idle);
        QList<SseEvent> events;
        m_parser.feed(chunk, events);
        if (!deliver(events))
            return; // cancelled, failed or destroyed by a receiver
        if (m_parser.hasError()) {
            fail(Error(Error::Code::MalformedStream, m_profile.displayName,
                       QString::fromUtf8(m_parser.errorString())),
                 true);
            return;
        }
    }
    if (self && m_replyFinished && m_reply && !isDone() && !m_paused && m_reply->bytesAvailable() == 0)
        completeFromReply();
}

bool LlmStream::deliver(QList<SseEvent> &events)
{
    QPointer<LlmStream> self(this);
    QList<StreamEvent> decoded;
    for (const SseEvent &sse : std::as_const(events)) {
        decoded.clear();
        m_decoder->decode(sse, decoded);
        for (const StreamEvent &event : std::as_const(decoded)) {
            switch (event.type) {
            case StreamEvent::Type::TextDelta:
            case StreamEvent::Type::ReasoningDelta:
            case StreamEvent::Type::RefusalDelta:
            case StreamEvent::Type::ToolCallDelta:
                if (m_times.firstToken < 0) {
                    m_times.firstTokenRead = m_lastReadNs;
                    m_times.firstToken = monotonicNowNs();
                    m_state = State::Streaming;
                }
                if (event.choice == 0) {
                    if (event.type == StreamEvent::Type::TextDelta)
                        m_text += event.text;
                    else if (event.type == StreamEvent::Type::ReasoningDelta)
                        m_reasoning += event.text;
                }
                break;
            case StreamEvent::Type::Usage:
                m_usage.merge(event.usage);
                break;
            case StreamEvent::Type::Finish:
                if (event.choice == 0)
                    m_finishReason = event.text;
                break;
            case StreamEvent::Type::Error:
                break;
            }
            ++m_eventCount;
            emit eventReceived(event);
            if (!self || isDone())
                return false;
            if (event.type == StreamEvent::Type::Error) {
                const QString detail = event.errorType.isEmpty()
                    ? event.text
                    : event.errorType + QLatin1String(": ") + event.text;
                fail(Error(Error::Code::ProviderError, m_profile.displayName, detail), true);
                return false;
            }
        }
        const QString malformed = m_decoder->malformedReason();
        if (!malformed.isEmpty()) {
            fail(Error(Error::Code::MalformedStream, m_profile.displayName, malformed), true);
            return false;
        }
    }
    return true;
}

void LlmStream::completeFromReply()
{
    m_timer.stop();
    if (m_httpStatus >= 400) {
        fail(Error::fromHttpStatus(m_profile.displayName, m_httpStatus, m_errorBody,
                                   m_reply->rawHeader("Retry-After")),
             false);
        return;
    }
    if (m_reply->error() != QNetworkReply::NoError) {
        fail(networkError(), false);
        return;
    }
    const bool unterminatedTail = m_parser.finish();
    if (!m_decoder->isComplete()) {
        const QString contentType = m_reply->header(QNetworkRequest::ContentTypeHeader).toString();
        if (m_eventCount == 0 && !contentType.contains(QLatin1String("event-stream"))) {
            fail(Error(Error::Code::MalformedStream, m_profile.displayName,
                       QCoreApplication::translate("Llm::LlmStream",
                                                   "The server answered with %1 instead of an event stream.")
                           .arg(contentType.isEmpty() ? QStringLiteral("no content type") : contentType)),
                 false);
            return;
        }
        fail(Error(Error::Code::StreamBroken, m_profile.displayName,
                   unterminatedTail ? QStringLiteral("the stream ended inside an event")
                                    : QStringLiteral("the stream ended without its end marker")),
             false);
        return;
    }
    succeed();
}

Error LlmStream::networkError() const
{
    const auto code = m_reply->error();
    const QString detail = m_reply->errorString();
    switch (code) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::UnknownNetworkError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::ProxyAuthenticationRequiredError:
        return Error(Error::Code::NetworkUnreachable, m_profile.displayName, detail);
    case QNetworkReply::SslHandshakeFailedError:
        return Error(Error::Code::Tls, m_profile.displayName, detail);
    case QNetworkReply::TimeoutError:
        return Error(Error::Code::Timeout, m_profile.displayName, detail);
    case QNetworkReply::OperationCanceledError:
        return Error(Error::Code::Cancelled, m_profile.displayName);
    default:
        // The server closed or garbled the connection after it accepted the request.
        return Error(Error::Code::StreamBroken, m_profile.displayName, detail);
    }
}

void LlmStream::onTimeout()
{
    if (isDone())
        return;
    using namespace std::chrono;
    QString detail;
    switch (m_phase) {
    case Phase::Connect:
        detail = QStringLiteral("no connection within %1 s").arg(duration<double>(m_options.connectTimeout).count());
        break;
    case Phase::FirstByte:
        detail = QStringLiteral("no response within %1 s").arg(duration<double>(m_options.firstByteTimeout).count());
        break;
    case Phase::Idle:
        detail = QStringLiteral("no data for %1 s").arg(duration<double>(m_options.idleTimeout).count());
        break;
    }
    fail(Error(Error::Code::Timeout, m_profile.displayName, detail), true);
}

void LlmStream::armTimer(Phase phase)
{
    m_phase = phase;
    const std::chrono::milliseconds timeout = phase == Phase::Connect ? m_options.connectTimeout
        : phase == Phase::FirstByte                                   ? m_options.firstByteTimeout
                                                                      : m_options.idleTimeout;
    if (timeout.count() > 0 && !m_paused)
        m_timer.start(timeout);
    else
        m_timer.stop();
}

void LlmStream::succeed()
{
    m_state = State::Finished;
    m_times.finished = monotonicNowNs();
    releaseReply(false);
    log().info("stream {}: {} finished, status {}, {} bytes, {} events, ttft {:.1f} ms, total {:.1f} ms",
               idOf(*this), m_profile.id.toStdString(), m_httpStatus, m_bytesReceived, m_eventCount,
               msBetween(m_times.started, m_times.firstToken), msBetween(m_times.started, m_times.finished));
    emit finished();
}

void LlmStream::fail(Error error, bool abortReply)
{
    if (isDone())
        return;
    m_state = State::Failed;
    m_times.finished = monotonicNowNs();
    m_timer.stop();
    m_error = error;
    releaseReply(abortReply);
    if (error.code() == Error::Code::Cancelled) {
        log().debug("stream {}: cancelled after {} bytes", idOf(*this), m_bytesReceived);
    } else {
        log().warn("stream {}: {} failed: {} (status {}, {} bytes, {} events)", idOf(*this),
                   m_profile.id.toStdString(), error.codeName(), m_httpStatus, m_bytesReceived,
                   m_eventCount);
    }
    emit failed(error);
}

void LlmStream::releaseReply(bool abort)
{
    if (!m_reply)
        return;
    QNetworkReply *reply = std::exchange(m_reply, nullptr);
    disconnect(reply, nullptr, this, nullptr);
    if (abort && reply->isRunning())
        reply->abort();
    reply->deleteLater();
}

} // namespace Llm
