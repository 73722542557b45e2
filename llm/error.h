#pragma once

#include <QByteArrayView>
#include <QMetaType>
#include <QString>

#include <chrono>
#include <optional>

namespace Llm {

// A failure, classified for the user. `message()` is safe to show: it names the provider and
// says what to do. It never contains an API key or a prompt.
class Error
{
public:
    enum class Code {
        Cancelled,          // the client cancelled (Stop, preemption, takeover miss)
        BadKey,             // 401 / 403
        UnknownModel,       // 404
        RateLimited,        // 429; retryAfter() when the provider said
        ContextTooLong,     // the prompt does not fit the model's context window
        BadRequest,         // other 4xx: the provider rejected the request
        ServerError,        // 5xx
        NetworkUnreachable, // DNS, connection refused, no route
        Tls,                // TLS handshake or certificate failure
        Timeout,            // connect, first-byte or idle timeout
        StreamBroken,       // the connection ended before the answer did; partial text is kept
        MalformedStream,    // bytes that are not a valid event stream for the provider's format
        ProviderError,      // an error object sent inside the stream (e.g. overloaded_error)
        InvalidRequest,     // the request cannot be encoded for this provider (e.g. n > 1 on Anthropic)
        NotAnApi,           // the address answers, but not as the provider's API (HTML, wrong path, not HTTP)
        InsecureHttp,       // plain http:// to a host that is not this machine, and the profile does not allow it
        RedirectRefused,    // a redirect to another origin (the key would follow it), or too many redirects
        MissingKey,         // the provider needs an API key and none is set: nothing was sent
        // The proxy of Settings, Network failed; detail() is its "host:port".
        ProxyRefused,     // refused or closed the connection
        ProxyUnreachable, // its host is unknown, or it did not answer in time
        ProxyAuth,        // it wants credentials, or refused the ones given
    };
    static constexpr Code LastCode = Code::ProxyAuth;

    Error() = default;
    Error(Code code, QString provider, QString detail = {}, int httpStatus = 0);

    Code code() const { return m_code; }
    QString provider() const { return m_provider; }
    // What the provider or the network stack said, trimmed and stripped of secrets; may be empty.
    QString detail() const { return m_detail; }
    int httpStatus() const { return m_httpStatus; }
    std::optional<std::chrono::seconds> retryAfter() const { return m_retryAfter; }
    void setRetryAfter(std::chrono::seconds s) { m_retryAfter = s; }
    // The API the address was expected to speak, for NotAnApi's wording.
    bool expectedAnthropic() const { return m_expectedAnthropic; }
    void setExpectedAnthropic(bool anthropic) { m_expectedAnthropic = anthropic; }

    // One or two sentences for the user: what happened, at which provider, and what to do.
    QString message() const;
    // A short stable identifier for logs and JSON ("bad_key", "rate_limited", ...).
    static const char *codeName(Code code);
    const char *codeName() const { return codeName(m_code); }

    // Classifies an HTTP error response. `body` is the provider's error body (OpenAI
    // `{"error":{...}}` or Anthropic `{"type":"error","error":{...}}`, or anything else);
    // `retryAfter` is the raw Retry-After header (seconds or an HTTP date).
    // `contentType` is the response's; a 4xx whose body is not the provider's JSON (an HTML page,
    // a 404 for a wrong path that does not name the model) is NotAnApi, and HTML is never shown.
    static Error fromHttpStatus(const QString &provider, int status, QByteArrayView body,
                                QByteArrayView retryAfter = {}, QByteArrayView contentType = {});
    // Retry-After as integer seconds or an HTTP date, capped at MaxRetryAfter; nullopt for
    // anything else (inf, nan, negative, fractions, garbage).
    static std::optional<std::chrono::seconds> parseRetryAfter(QByteArrayView value);
    static constexpr std::chrono::seconds MaxRetryAfter{3600};
    // Removes what looks like an API key or bearer token from text a provider sent back.
    static QString redactSecrets(QString text);

private:
    Code m_code = Code::ServerError;
    QString m_provider;
    QString m_detail;
    int m_httpStatus = 0;
    std::optional<std::chrono::seconds> m_retryAfter;
    bool m_expectedAnthropic = false;
};

} // namespace Llm

Q_DECLARE_METATYPE(Llm::Error)
