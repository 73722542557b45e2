// ProviderRequest (providerrequest.h). Over 600 lines: one HTTP request's whole life (connect, the
// status, the SSE decode, the time limits, the abort and the error each failure maps to); the
// parsing and encoding it uses are classes of their own (SseParser, the decoders, RequestEncoder).
#include "providerrequest.h"

#include "clock.h"
#include "keyring.h"
#include "log.h"
#include "oneshotbody.h"
#include "proxy.h"
#include "requestencoder.h"
#include "secrets.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <spdlog/spdlog.h>

#include <atomic>

namespace Llm {

namespace {

QByteArray makeRequestId()
{
    static std::atomic<quint64> counter{0};
    return "hs-" + QByteArray::number(QCoreApplication::applicationPid()) + '-' + QByteArray::number(++counter);
}

std::string idOf(const ProviderRequest &s)
{
    return s.requestId().toStdString();
}

// A token count for the log; a provider that reported none gets "?".
std::string countOf(qint64 tokens)
{
    return tokens < 0 ? std::string("?") : std::to_string(tokens);
}

bool isFollowedRedirect(int status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

QString originOf(const QUrl &url)
{
    const int port = url.port(url.scheme() == QLatin1String("https") ? 443 : 80);
    // An IPv6 address is written in brackets, or its colons run into the port's (RFC 3986).
    const QString host = url.host().toLower();
    const QString written = host.contains(QLatin1Char(':')) ? u'[' + host + u']' : host;
    return url.scheme() + QLatin1String("://") + written + QLatin1Char(':') + QString::number(port);
}

double msBetween(qint64 fromNs, qint64 toNs)
{
    return fromNs < 0 || toNs < 0 ? -1.0 : double(toNs - fromNs) / 1e6;
}

} // namespace

ProviderRequest::ProviderRequest(QNetworkAccessManager *network, ProviderProfile profile, ChatRequest request,
                                 StreamOptions options, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_profile(std::move(profile))
    , m_request(std::move(request))
    , m_options(std::move(options))
{
    if (m_options.requestId.isEmpty())
        m_options.requestId = makeRequestId();
    if (!m_options.connectTimeout)
        m_options.connectTimeout = m_profile.timeouts.connect;
    if (!m_options.firstByteTimeout)
        m_options.firstByteTimeout = m_profile.timeouts.firstByte;
    if (!m_options.idleTimeout)
        m_options.idleTimeout = m_profile.timeouts.idle;
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ProviderRequest::onTimeout);
    m_overallTimer.setSingleShot(true);
    connect(&m_overallTimer, &QTimer::timeout, this, &ProviderRequest::onOverallTimeout);
}

ProviderRequest::~ProviderRequest()
{
    // Destroyed while running: close the connection without signalling anyone.
    releaseReply(true);
}

void ProviderRequest::start()
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
        QMetaObject::invokeMethod(
            this, [this, error] { fail(error, false); }, Qt::QueuedConnection);
    };

    const QUrl url = m_profile.endpoint();
    if (!m_network) {
        failLater(
            Error(Error::Code::InvalidRequest, m_profile.displayName, QStringLiteral("no network access manager")));
        return;
    }
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        failLater(Error(Error::Code::InvalidRequest, m_profile.displayName,
                        QCoreApplication::translate("Llm::ProviderRequest",
                                                    "The base URL is not set or not an http(s) URL.")));
        return;
    }
    if (isInsecureRemote(url) && !m_profile.allowInsecureHttp) {
        failLater(Error(Error::Code::InsecureHttp, m_profile.displayName, url.host()));
        return;
    }
    // A hosted API answers a request without a key with a 401, having read the text: say what is
    // missing instead, and send nothing.
    if (m_profile.needsApiKey() && KeyRing::keysOf(m_profile).isEmpty()
        && (!m_options.prefetch || m_profile.prefetchApiKey.isEmpty())) {
        failLater(Error(Error::Code::MissingKey, m_profile.displayName));
        return;
    }
    // Taken out of the options, and dropped once the final response's headers are in (only a
    // redirect needs it again): a multi-megabyte document need not live as long as the stream.
    std::expected<QByteArray, Error> body = std::exchange(m_options.encodedBody, {});
    if (body->isEmpty())
        body = encodeRequest(m_profile.format, m_request, m_profile.encodeOptionsFor(m_request.model),
                             m_profile.displayName);
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
    // Qt 6 follows redirects by default, resending the key and the body wherever the Location
    // says. Redirects are followed here instead (onRedirect()): Qt 6.4's UserVerifiedRedirectPolicy
    // asked for the first two hops of a POST only and followed the third without asking.
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);

    // The prefetch key is its own: only the main keys take turns after a 429 (KeyRing).
    m_usesMainKey = !(m_options.prefetch && !m_profile.prefetchApiKey.isEmpty());
    m_key = m_usesMainKey ? KeyRing::instance().current(m_profile) : m_profile.prefetchApiKey;
    const QString &key = m_key;
    Secrets::remember(key);
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
    for (const auto &[name, value] : m_profile.extraHeaders) {
        Secrets::remember(QString::fromUtf8(value));
        req.setRawHeader(name, value);
    }
    for (const auto &[name, value] : m_options.extraHeaders)
        req.setRawHeader(name, value);

    m_decoder = StreamDecoder::create(m_profile.format);
    m_netRequest = req;
    m_body = std::move(*body);
    post(url);
    armTimer(Phase::Connect);
    if (m_options.overallTimeout.count() > 0)
        m_overallTimer.start(m_options.overallTimeout);
    log().debug("stream {}: POST {} ({} bytes{})", idOf(*this), url.host().toStdString(), m_body.size(),
                m_options.prefetch ? ", prefetch" : "");
}

void ProviderRequest::post(const QUrl &url)
{
    m_currentUrl = url;
    m_netRequest.setUrl(url);
    if (m_options.prefetch) {
        // A guess or a warm-up is asked once: Qt's own resend (OneShotBody) fails instead.
        QNetworkRequest once = m_netRequest;
        once.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
        once.setHeader(QNetworkRequest::ContentLengthHeader, m_body.size());
        auto *body = new OneShotBody(m_body);
        m_reply = m_network->post(once, body);
        body->setParent(m_reply);
    } else {
        m_reply = m_network->post(m_netRequest, m_body);
    }
    // Bounded: while paused, QNAM stops reading the socket once this much is buffered. Qt 6.4
    // passes the size on to its HTTP thread only by a signal it connects when the request starts
    // there, one queued call after post(): set only here, it never arrives, the HTTP thread reads
    // as fast as the server writes and queues it all for this thread (a flooding server took the
    // process past 100 MB before the answer's own bound could stop it). So it is set again once
    // the request has started.
    m_reply->setReadBufferSize(m_options.readBufferBytes);
    QMetaObject::invokeMethod(
        m_reply, [reply = m_reply, bytes = m_options.readBufferBytes] { reply->setReadBufferSize(bytes); },
        Qt::QueuedConnection);
    connect(m_reply, &QNetworkReply::readyRead, this, &ProviderRequest::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &ProviderRequest::onReplyFinished);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &ProviderRequest::onMetaDataChanged);
    connect(m_reply, &QNetworkReply::requestSent, this, [this] {
        // Qt sends an answer's request again by itself when the connection closes before any
        // response (a kept-alive connection the server had closed): counted, for the log.
        if (++m_sends > 1)
            log().info("stream {}: sent again by Qt's HTTP layer (send {})", idOf(*this), m_sends);
        m_times.requestSent = monotonicNowNs();
        if (m_phase == Phase::Connect)
            armTimer(Phase::FirstByte);
    });
}

void ProviderRequest::cancel()
{
    if (isDone())
        return;
    fail(Error(Error::Code::Cancelled, m_profile.displayName), true);
}

void ProviderRequest::setPaused(bool paused)
{
    if (m_paused == paused)
        return;
    m_paused = paused;
    if (!m_reply || isDone())
        return;
    if (m_paused) {
        m_timer.stop(); // a paused stream is not idle by the provider's fault
        if (m_overallTimer.isActive()) {
            m_overallRemainingMs = m_overallTimer.remainingTime();
            m_overallTimer.stop();
        }
        return;
    }
    armTimer(m_phase);
    if (m_overallRemainingMs >= 0)
        m_overallTimer.start(int(std::exchange(m_overallRemainingMs, -1)));
    // Queued: resume() is typically called from inside a consumer's handler; delivering the
    // buffered bytes synchronously would re-enter it.
    QMetaObject::invokeMethod(this, &ProviderRequest::drain, Qt::QueuedConnection);
}

void ProviderRequest::onMetaDataChanged()
{
    if (m_httpStatus != 0 || !m_reply || isDone())
        return;
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0)
        return;
    if (!checkResponseHeaders())
        return;
    // A redirect is not the answer: the final response's status is the one reported (a 429
    // behind a redirect keeps its Retry-After).
    if (isFollowedRedirect(status) && !m_reply->rawHeader("Location").isEmpty()) {
        onRedirect(QUrl::fromEncoded(m_reply->rawHeader("Location").trimmed()));
        return;
    }
    m_httpStatus = status;
    m_body = QByteArray(); // the reply holds its own reference while it uploads
    m_times.headers = monotonicNowNs();
    if (m_state == State::Connecting)
        m_state = State::Waiting;
    emit headersReceived(m_httpStatus);
}

bool ProviderRequest::checkResponseHeaders()
{
    qsizetype headerBytes = 0;
    for (const auto &[name, value] : m_reply->rawHeaderPairs())
        headerBytes += name.size() + value.size() + 4; // "name: value\r\n"
    // Qt 6.4 has no public limit; when its own parser gives up (too many or too long fields) it
    // goes on with no headers at all, which no API server sends.
    if (m_reply->rawHeaderPairs().isEmpty()) {
        fail(Error(Error::Code::MalformedStream, m_profile.displayName,
                   QStringLiteral("the response headers are too large or could not be read")),
             true);
        return false;
    }
    if (headerBytes > m_options.maxHeaderBytes) {
        fail(Error(Error::Code::MalformedStream, m_profile.displayName,
                   QStringLiteral("the response headers are %1 KiB, over the limit of %2 KiB")
                       .arg(headerBytes / 1024)
                       .arg(m_options.maxHeaderBytes / 1024)),
             true);
        return false;
    }
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (isFollowedRedirect(status))
        return true;
    const auto notAnApi = [this, status](const QString &what) {
        Error error(Error::Code::NotAnApi, m_profile.displayName, QStringLiteral("HTTP %1, %2").arg(status).arg(what),
                    status);
        error.setExpectedAnthropic(m_profile.format == ApiFormat::AnthropicMessages);
        fail(error, true);
        return false;
    };
    // We asked for identity: a compressed body is a server that ignores the request (or not
    // the API at all), and its bytes would reach the parser as garbage.
    const QByteArray encoding = m_reply->rawHeader("Content-Encoding").trimmed().toLower();
    if (!encoding.isEmpty() && encoding != "identity")
        return notAnApi(
            QStringLiteral("Content-Encoding %1, which was not asked for").arg(QString::fromLatin1(encoding.left(40))));
    // A web page is refused at once. Other types (text/plain) are read: some gateways label a
    // real event stream so, and one that holds no event is reported at the end.
    const QByteArray type = m_reply->rawHeader("Content-Type").toLower();
    if (status >= 200 && status < 300 && (type.contains("html") || type.contains("xml")))
        return notAnApi(QString::fromLatin1(type.left(80)).section(QLatin1Char(';'), 0, 0).trimmed());
    return true;
}

void ProviderRequest::onRedirect(const QUrl &target)
{
    const QUrl from = m_currentUrl;
    const QUrl to = from.resolved(target);
    ++m_redirects;
    if (!to.isValid() || originOf(to) != originOf(from)) {
        // Names schemes, hosts and ports only: paths and queries could carry tokens.
        fail(Error(Error::Code::RedirectRefused, m_profile.displayName,
                   QStringLiteral("from %1 to %2").arg(originOf(from), originOf(to))),
             true);
        return;
    }
    if (m_redirects > m_options.maxRedirects) {
        fail(Error(Error::Code::RedirectRefused, m_profile.displayName,
                   QStringLiteral("more than %1 redirects").arg(m_options.maxRedirects)),
             true);
        return;
    }
    log().debug("stream {}: same-origin redirect {} of {}", idOf(*this), m_redirects, m_options.maxRedirects);
    // Every redirect is resent as the same POST (307/308 semantics): 301-303 would turn it into
    // a GET, which no chat endpoint answers.
    releaseReply(true);
    m_replyFinished = false;
    m_errorBody.clear();
    post(to);
}

void ProviderRequest::onReadyRead()
{
    drain();
}

void ProviderRequest::onReplyFinished()
{
    m_replyFinished = true;
    drain();
}

void ProviderRequest::drain()
{
    QPointer<ProviderRequest> self(this);
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
            const qsizetype cap = m_options.limits.errorBodyBytes;
            m_errorBody.append(chunk.left(cap - m_errorBody.size()));
            if (m_errorBody.size() >= cap) {
                // A body that goes on past the cap is not an error message any more: stop
                // reading it (an endless one would never end) and report what was read.
                failFromErrorBody(true);
                return;
            }
            continue;
        }
        QList<SseEvent> events;
        m_parser.feed(chunk, events);
        if (!deliver(events))
            return; // cancelled, failed or destroyed by a receiver
        if (m_parser.hasError()) {
            fail(Error(Error::Code::MalformedStream, m_profile.displayName, QString::fromUtf8(m_parser.errorString())),
                 true);
            return;
        }
    }
    if (self && m_replyFinished && m_reply && !isDone() && !m_paused && m_reply->bytesAvailable() == 0)
        completeFromReply();
}

bool ProviderRequest::deliver(QList<SseEvent> &events)
{
    QPointer<ProviderRequest> self(this);
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
            case StreamEvent::Type::Usage: m_usage.merge(event.usage); break;
            case StreamEvent::Type::Finish:
                if (event.choice == 0)
                    m_finishReason = event.text;
                break;
            case StreamEvent::Type::Error: break;
            }
            if (!withinLimits(event))
                return false;
            ++m_eventCount;
            emit eventReceived(event);
            if (!self || isDone())
                return false;
            if (event.type == StreamEvent::Type::Error) {
                const QString detail = event.errorType.isEmpty() ? event.text
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

void ProviderRequest::completeFromReply()
{
    m_timer.stop();
    // Plain http through an HTTP proxy reads the proxy's own refusal of the credentials as the
    // response (Qt gives up after trying the ones it had).
    if (m_httpStatus == 407) {
        if (const QString proxy = proxyInUse(); !proxy.isEmpty()) {
            fail(Error(Error::Code::ProxyAuth, m_profile.displayName, proxy, m_httpStatus), false);
            return;
        }
    }
    if (m_httpStatus >= 400) {
        failFromErrorBody(false);
        return;
    }
    if (m_reply->error() != QNetworkReply::NoError) {
        fail(networkError(), false);
        return;
    }
    const bool unterminatedTail = m_parser.finish();
    if (!m_decoder->isComplete()) {
        const QString contentType = m_reply->header(QNetworkRequest::ContentTypeHeader).toString();
        if (m_eventCount == 0 && !contentType.contains(QLatin1String("event-stream"))
            && !contentType.contains(QLatin1String("json"))) {
            // Neither a stream nor an API's JSON: a file or a page, not the API.
            Error error(Error::Code::NotAnApi, m_profile.displayName,
                        QStringLiteral("HTTP %1, %2")
                            .arg(m_httpStatus)
                            .arg(contentType.isEmpty() ? QStringLiteral("no content type") : contentType.left(80)),
                        m_httpStatus);
            error.setExpectedAnthropic(m_profile.format == ApiFormat::AnthropicMessages);
            fail(error, false);
            return;
        }
        if (m_eventCount == 0 && !contentType.contains(QLatin1String("event-stream"))) {
            fail(Error(Error::Code::MalformedStream, m_profile.displayName,
                       QCoreApplication::translate("Llm::ProviderRequest",
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

void ProviderRequest::failFromErrorBody(bool abortReply)
{
    Error error = Error::fromHttpStatus(m_profile.displayName, m_httpStatus, m_errorBody,
                                        m_reply->rawHeader("Retry-After"), m_reply->rawHeader("Content-Type"));
    error.setExpectedAnthropic(m_profile.format == ApiFormat::AnthropicMessages);
    fail(error, abortReply);
}

bool ProviderRequest::withinLimits(const StreamEvent &event)
{
    const ResponseLimits &limits = m_options.limits;
    const qint64 maxTokens = std::max(1, m_request.maxTokens);
    const qint64 choices = std::max(1, m_request.choiceCount);
    QString exceeded;
    if (!event.isContent()) {
        if (++m_otherEvents > limits.otherEvents + m_contentEvents)
            exceeded = QStringLiteral("more than %1 events without any answer in them").arg(m_otherEvents - 1);
    } else {
        ++m_contentEvents;
        const qint64 chars = event.text.size() + event.toolName.size() + event.toolId.size();
        if (event.type == StreamEvent::Type::ReasoningDelta) {
            const qint64 thinking = std::max<qint64>(limits.reasoningTokens,
                                                     m_profile.encodeOptions.thinkingBudgetTokens);
            m_reasoningChars += chars;
            if (m_reasoningChars > (maxTokens + thinking) * limits.charsPerToken * choices + limits.marginChars)
                exceeded =
                    QStringLiteral("the reasoning went on past its length limit (%1 tokens)").arg(maxTokens + thinking);
        } else {
            m_contentChars += chars;
            if (m_contentChars > maxTokens * limits.charsPerToken * choices + limits.marginChars)
                exceeded = QStringLiteral("the answer went on past its length limit (max_tokens %1)").arg(maxTokens);
        }
        if (event.choice < 0 || event.choice >= choices)
            exceeded = QStringLiteral("it sent more answers (choices) than the %1 asked for").arg(choices);
        // Progress is an answer event: keep-alives, empty events and usage alone never
        // postpone the idle timeout, so a server that sends only those times out.
        armTimer(Phase::Idle);
    }
    if (exceeded.isEmpty())
        return true;
    fail(Error(Error::Code::MalformedStream, m_profile.displayName,
               exceeded + QStringLiteral("; the rest was not read")),
         true);
    return false;
}

Error ProviderRequest::networkError() const
{
    const auto code = m_reply->error();
    const QString detail = m_reply->errorString();
    const auto proxyOr = [this](const QString &fallback) {
        const QString proxy = proxyInUse();
        return proxy.isEmpty() ? fallback : proxy;
    };
    switch (code) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
        // Plain http through an HTTP proxy connects to the proxy itself, so Qt reports the
        // proxy's refusal (or unknown name) as an ordinary connection error.
        if (const QString proxy = proxyInUse(); !proxy.isEmpty())
            return Error(code == QNetworkReply::HostNotFoundError ? Error::Code::ProxyUnreachable
                                                                  : Error::Code::ProxyRefused,
                         m_profile.displayName, proxy);
        return Error(Error::Code::NetworkUnreachable, m_profile.displayName, detail);
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::UnknownNetworkError:
        // Qt 6.4 reports a SOCKS5 proxy's refusal (and other failures of its proxy socket
        // engines) this way: with a proxy in use, the proxy is what could not be reached.
        if (const QString proxy = proxyInUse(); !proxy.isEmpty())
            return Error(Error::Code::ProxyUnreachable, m_profile.displayName, proxy);
        return Error(Error::Code::NetworkUnreachable, m_profile.displayName, detail);
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyConnectionClosedError:
        return Error(Error::Code::ProxyRefused, m_profile.displayName, proxyOr(detail));
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
        return Error(Error::Code::ProxyUnreachable, m_profile.displayName, proxyOr(detail));
    case QNetworkReply::ProxyAuthenticationRequiredError:
        return Error(Error::Code::ProxyAuth, m_profile.displayName, proxyOr(detail));
    case QNetworkReply::SslHandshakeFailedError: return Error(Error::Code::Tls, m_profile.displayName, detail);
    case QNetworkReply::TimeoutError: return Error(Error::Code::Timeout, m_profile.displayName, detail);
    case QNetworkReply::OperationCanceledError: return Error(Error::Code::Cancelled, m_profile.displayName);
    case QNetworkReply::ProtocolFailure:
    case QNetworkReply::ProtocolUnknownError:
    case QNetworkReply::RemoteHostClosedError:
    // A guess's OneShotBody refused Qt's resend after such a closure.
    case QNetworkReply::ContentReSendError:
        // Qt closes the connection itself, as "Connection closed", when the first line is not
        // an HTTP status line (an SSH or SMTP server, a raw TCP service): with no status ever
        // read, what answered did not speak HTTP. A closure after a status is a broken stream.
        if (m_httpStatus == 0 && m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 0) {
            Error error(Error::Code::NotAnApi, m_profile.displayName,
                        QStringLiteral("no HTTP response; the server closed the connection"));
            error.setExpectedAnthropic(m_profile.format == ApiFormat::AnthropicMessages);
            return error;
        }
        return Error(Error::Code::StreamBroken, m_profile.displayName, detail);
    default:
        // The server closed or garbled the connection after it accepted the request.
        return Error(Error::Code::StreamBroken, m_profile.displayName, detail);
    }
}

QString ProviderRequest::proxyInUse() const
{
    // The reply does not say which proxy it used; the manager's factory answers the same
    // question the same way again.
    QNetworkProxy proxy = m_network ? m_network->proxy() : QNetworkProxy();
    if (QNetworkProxyFactory *factory = m_network ? m_network->proxyFactory() : nullptr) {
        const QList<QNetworkProxy> proxies = factory->queryProxy(QNetworkProxyQuery(m_currentUrl));
        if (!proxies.isEmpty())
            proxy = proxies.first();
    } else if (proxy.type() == QNetworkProxy::DefaultProxy) {
        const QList<QNetworkProxy> proxies = QNetworkProxyFactory::proxyForQuery(QNetworkProxyQuery(m_currentUrl));
        if (!proxies.isEmpty())
            proxy = proxies.first();
    }
    if (proxy.type() == QNetworkProxy::NoProxy || proxy.type() == QNetworkProxy::DefaultProxy)
        return {};
    return proxyAddress(proxy);
}

void ProviderRequest::onTimeout()
{
    if (isDone())
        return;
    using namespace std::chrono;
    QString detail;
    switch (m_phase) {
    case Phase::Connect:
        detail = QStringLiteral("no connection within %1 s").arg(duration<double>(*m_options.connectTimeout).count());
        break;
    case Phase::FirstByte:
        detail =
            m_bytesReceived > 0
                ? QStringLiteral("no event within %1 s, only keep-alives")
                      .arg(duration<double>(*m_options.firstByteTimeout).count())
                : QStringLiteral("no response within %1 s").arg(duration<double>(*m_options.firstByteTimeout).count());
        break;
    case Phase::Idle:
        detail = QStringLiteral("no data for %1 s").arg(duration<double>(*m_options.idleTimeout).count());
        break;
    }
    fail(Error(Error::Code::Timeout, m_profile.displayName, detail), true);
}

void ProviderRequest::onOverallTimeout()
{
    if (isDone())
        return;
    fail(Error(Error::Code::Timeout, m_profile.displayName,
               QStringLiteral("the answer took longer than %1 s in all")
                   .arg(std::chrono::duration<double>(m_options.overallTimeout).count())),
         true);
}

void ProviderRequest::armTimer(Phase phase)
{
    m_phase = phase;
    const std::chrono::milliseconds timeout = phase == Phase::Connect     ? *m_options.connectTimeout
                                              : phase == Phase::FirstByte ? *m_options.firstByteTimeout
                                                                          : *m_options.idleTimeout;
    if (timeout.count() > 0 && !m_paused)
        m_timer.start(timeout);
    else
        m_timer.stop();
}

void ProviderRequest::succeed()
{
    m_overallTimer.stop();
    m_state = State::Finished;
    m_times.finished = monotonicNowNs();
    releaseReply(false);
    log().info("stream {}: {} finished, status {}, {} bytes, {} events, tokens {} in ({} cached) {} out, "
               "ttft {:.1f} ms, total {:.1f} ms",
               idOf(*this), m_profile.id.toStdString(), m_httpStatus, m_bytesReceived, m_eventCount,
               countOf(m_usage.inputTokens), countOf(m_usage.cacheReadTokens), countOf(m_usage.outputTokens),
               msBetween(m_times.started, m_times.firstToken), msBetween(m_times.started, m_times.finished));
    emit finished();
}

void ProviderRequest::fail(Error error, bool abortReply)
{
    if (isDone())
        return;
    m_state = State::Failed;
    m_times.finished = monotonicNowNs();
    m_timer.stop();
    m_overallTimer.stop();
    m_error = error;
    releaseReply(abortReply);
    if (error.code() == Error::Code::RateLimited && error.httpStatus() == 429 && m_usesMainKey) {
        m_anotherKeyReady = KeyRing::instance().rateLimited(m_profile, m_key, error.retryAfter());
        if (m_anotherKeyReady)
            log().info("stream {}: {} refused {} with a 429; the next request uses another key", idOf(*this),
                       m_profile.id.toStdString(), KeyRing::describe(m_profile, m_key).toStdString());
    }
    m_key.clear(); // not kept past its use
    if (error.code() == Error::Code::Cancelled) {
        log().debug("stream {}: cancelled after {} bytes", idOf(*this), m_bytesReceived);
    } else {
        log().warn("stream {}: {} failed: {} (status {}, {} bytes, {} events)", idOf(*this), m_profile.id.toStdString(),
                   error.codeName(), m_httpStatus, m_bytesReceived, m_eventCount);
    }
    emit failed(error);
}

void ProviderRequest::releaseReply(bool abort)
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
