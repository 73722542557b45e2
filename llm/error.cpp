#include "error.h"

#include "secrets.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <optional>

namespace Llm {

namespace {

// Provider error bodies come in two shapes; both carry a type/code and a message.
struct ProviderErrorBody {
    QString message;
    QString type;
    QString code;
    bool isJson = false; // a JSON object as providers send: {"error":…} or {"message":…}
};

bool looksLikeHtml(QByteArrayView body, QByteArrayView contentType)
{
    if (contentType.toByteArray().toLower().contains("html"))
        return true;
    const QByteArray head = body.first(std::min<qsizetype>(body.size(), 512)).toByteArray().trimmed().toLower();
    return head.startsWith("<!doctype") || head.startsWith("<html") || head.startsWith("<head")
           || head.startsWith("<body");
}

// What a non-JSON body may show the user: an HTML page's <title> only (never its markup),
// otherwise its first line of text.
QString plainTextOf(QByteArrayView body, QByteArrayView contentType)
{
    const QString text = QString::fromUtf8(body.first(std::min<qsizetype>(body.size(), 64 * 1024)));
    if (looksLikeHtml(body, contentType)) {
        static const QRegularExpression title(QStringLiteral("<title[^>]*>([^<]{1,200})</title>"),
                                              QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch m = title.match(text);
        return m.hasMatch() ? m.captured(1).simplified() : QString();
    }
    return text.left(300).simplified();
}

// The "message" string of a JSON object that does not parse because it was cut off, decoded as
// far as it goes; nullopt when the body is not the start of a JSON object. A body that is
// JSON but names no message gives an empty one.
std::optional<QString> messageOfCutJson(QByteArrayView body)
{
    const QByteArray head = body.first(std::min<qsizetype>(body.size(), 64 * 1024)).toByteArray().trimmed();
    if (!head.startsWith('{'))
        return std::nullopt;
    static const QRegularExpression message(QStringLiteral("\"message\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.){0,600})"));
    const QRegularExpressionMatch m = message.match(QString::fromUtf8(head));
    if (!m.hasMatch())
        return QString();
    // The captured escapes are JSON's: let the JSON reader undo them.
    const QJsonDocument decoded = QJsonDocument::fromJson("[\"" + m.captured(1).toUtf8() + "\"]");
    return decoded.isArray() ? decoded.array().at(0).toString() : m.captured(1);
}

ProviderErrorBody parseErrorBody(QByteArrayView body, QByteArrayView contentType)
{
    ProviderErrorBody out;
    const QJsonDocument doc = QJsonDocument::fromJson(body.toByteArray());
    if (!doc.isObject()) {
        if (const std::optional<QString> cut = messageOfCutJson(body)) {
            // JSON cut short (a body past the read limit): its message as far as it came,
            // never the raw JSON.
            out.message = *cut;
            out.isJson = true;
            return out;
        }
        out.message = plainTextOf(body, contentType);
        return out;
    }
    const QJsonValue error = doc.object().value(QLatin1String("error"));
    if (error.isObject()) {
        const QJsonObject e = error.toObject();
        out.message = e.value(QLatin1String("message")).toString();
        out.type = e.value(QLatin1String("type")).toString();
        const QJsonValue code = e.value(QLatin1String("code"));
        out.code = code.isString() ? code.toString() : (code.isDouble() ? QString::number(code.toInt()) : QString());
        out.isJson = true;
    } else if (error.isString()) { // Ollama: {"error":"model 'x' not found"}
        out.message = error.toString();
        out.isJson = true;
    } else {
        out.message = doc.object().value(QLatin1String("message")).toString();
        out.isJson = doc.object().contains(QLatin1String("message"));
    }
    return out;
}

bool looksLikeContextOverflow(const ProviderErrorBody &e)
{
    if (e.code == QLatin1String("context_length_exceeded") || e.code == QLatin1String("string_above_max_length"))
        return true;
    static const QRegularExpression
        pattern(QStringLiteral("context length|context window|prompt is too long|too many tokens|"
                               "maximum context|exceeds the context|input is too long|reduce the length"),
                QRegularExpression::CaseInsensitiveOption);
    return pattern.match(e.message).hasMatch();
}

// A 404 is about the model only when the provider's own error says so (every provider's
// unknown-model error names the model); a 404 for a wrong path is not.
bool namesTheModel(const ProviderErrorBody &e)
{
    const auto has = [](const QString &s) { return s.contains(QLatin1String("model"), Qt::CaseInsensitive); };
    return e.isJson && (has(e.message) || has(e.code) || has(e.type));
}

} // namespace

std::optional<std::chrono::seconds> Error::parseRetryAfter(QByteArrayView value)
{
    const QByteArray v = value.toByteArray().trimmed();
    if (v.isEmpty())
        return std::nullopt;
    // delay-seconds is 1*DIGIT (RFC 9110 10.2.3): no sign, fraction or exponent, so "inf",
    // "1e308" and "-5" are garbage. Any run of digits is at least the cap.
    if (std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        if (v.size() > 9)
            return MaxRetryAfter;
        return std::min(std::chrono::seconds(v.toLongLong()), MaxRetryAfter);
    }
    // HTTP-date (IMF-fixdate), e.g. "Wed, 21 Oct 2015 07:28:00 GMT". Qt's RFC 2822 parser
    // rejects the "GMT" zone name, so the fixed format is read with the C locale.
    QDateTime when = QLocale::c().toDateTime(QString::fromLatin1(v), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"));
    if (when.isValid())
        when.setTimeSpec(Qt::UTC);
    else
        when = QDateTime::fromString(QString::fromLatin1(v), Qt::RFC2822Date);
    if (when.isValid()) {
        const qint64 delta = QDateTime::currentDateTimeUtc().secsTo(when);
        return std::chrono::seconds(std::clamp<qint64>(delta, 0, MaxRetryAfter.count()));
    }
    return std::nullopt;
}

Error::Error(Code code, QString provider, QString detail, int httpStatus)
    : m_code(code)
    , m_provider(std::move(provider))
    , m_detail(redactSecrets(std::move(detail)).trimmed())
    , m_httpStatus(httpStatus)
{
    if (m_provider.isEmpty())
        m_provider = QCoreApplication::translate("Llm::Error", "the provider");
}

QString Error::redactSecrets(QString text)
{
    // First the values this process actually sent, whatever they look like; then the shapes
    // keys usually have, for keys it never held (another user's, a masked one).
    text = Secrets::redact(std::move(text));
    // A provider's text is shown and stored: no terminal control sequence or control character
    // survives into it.
    for (QChar &c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20 || (u >= 0x7f && u <= 0x9f))
            c = QLatin1Char(' ');
    }
    // Keys look like sk-..., sk-ant-..., or long runs of base64-ish characters with digits.
    // Providers sometimes echo a (masked) key in "incorrect API key" messages.
    static const QRegularExpression key(
        QStringLiteral("(?:Bearer\\s+)?\\b(?:sk-[A-Za-z0-9_\\-*]{6,}|(?=[A-Za-z0-9_\\-*]*\\d)"
                       "(?=[A-Za-z0-9_\\-*]*[A-Za-z])[A-Za-z0-9_\\-*]{32,})"));
    text.replace(key, QStringLiteral("[redacted]"));
    if (text.size() > 500)
        text = text.left(500) + QChar(0x2026);
    return text;
}

Error Error::fromHttpStatus(const QString &provider, int status, QByteArrayView body, QByteArrayView retryAfter,
                            QByteArrayView contentType)
{
    const ProviderErrorBody e = parseErrorBody(body, contentType);
    QString detail = e.message;
    if (detail.isEmpty())
        detail = e.type.isEmpty() ? e.code : e.type;

    Code code;
    if (status == 401 || status == 403)
        code = Code::BadKey;
    else if (status == 404)
        code = namesTheModel(e) ? Code::UnknownModel : Code::NotAnApi;
    else if (status == 429)
        code = Code::RateLimited;
    else if (status == 413 || looksLikeContextOverflow(e))
        code = Code::ContextTooLong;
    else if (status >= 500)
        code = Code::ServerError;
    else if (!e.isJson && looksLikeHtml(body, contentType))
        code = Code::NotAnApi; // e.g. 405 from a plain web server that does not take a POST there
    else
        code = Code::BadRequest;
    if (code == Code::NotAnApi) {
        const QString what = QStringLiteral("HTTP %1%2")
                                 .arg(status)
                                 .arg(contentType.isEmpty() ? QString()
                                                            : QStringLiteral(", ")
                                                                  + QString::fromLatin1(contentType.toByteArray())
                                                                        .section(QLatin1Char(';'), 0, 0)
                                                                        .trimmed());
        detail = detail.isEmpty() ? what : what + QStringLiteral(": ") + detail;
    }

    Error error(code, provider, detail, status);
    if (auto after = parseRetryAfter(retryAfter))
        error.setRetryAfter(*after);
    return error;
}

const char *Error::codeName(Code code)
{
    switch (code) {
    case Code::Cancelled: return "cancelled";
    case Code::BadKey: return "bad_key";
    case Code::UnknownModel: return "unknown_model";
    case Code::RateLimited: return "rate_limited";
    case Code::ContextTooLong: return "context_too_long";
    case Code::BadRequest: return "bad_request";
    case Code::ServerError: return "server_error";
    case Code::NetworkUnreachable: return "network_unreachable";
    case Code::Tls: return "tls";
    case Code::Timeout: return "timeout";
    case Code::StreamBroken: return "stream_broken";
    case Code::MalformedStream: return "malformed_stream";
    case Code::ProviderError: return "provider_error";
    case Code::InvalidRequest: return "invalid_request";
    case Code::NotAnApi: return "not_an_api";
    case Code::InsecureHttp: return "insecure_http";
    case Code::RedirectRefused: return "redirect_refused";
    case Code::MissingKey: return "missing_key";
    case Code::ProxyRefused: return "proxy_refused";
    case Code::ProxyUnreachable: return "proxy_unreachable";
    case Code::ProxyAuth: return "proxy_auth";
    }
    return "unknown";
}

QString Error::message() const
{
    const QString p = m_provider;
    const QString status = m_httpStatus > 0 ? QString::number(m_httpStatus) : QString();
    QString text;
    switch (m_code) {
    case Code::Cancelled: return QCoreApplication::translate("Llm::Error", "Cancelled.");
    case Code::BadKey:
        text = QCoreApplication::translate(
                   "Llm::Error", "%1 rejected the API key (HTTP %2). Check the key for %1 in Settings, Providers.")
                   .arg(p, status);
        break;
    case Code::UnknownModel:
        text = QCoreApplication::translate("Llm::Error",
                                           "%1 does not know the requested model (HTTP %2). Check the model name in "
                                           "Settings, Providers.")
                   .arg(p, status);
        break;
    case Code::RateLimited:
        text = m_retryAfter
                   ? QCoreApplication::translate("Llm::Error", "%1 is limiting the request rate. Try again in %2 s.")
                         .arg(p, QLocale().toString(qint64(m_retryAfter->count())))
                   : QCoreApplication::translate("Llm::Error",
                                                 "%1 is limiting the request rate. Wait a moment and try again.")
                         .arg(p);
        break;
    case Code::ContextTooLong:
        text = QCoreApplication::translate("Llm::Error",
                                           "The prompt is too long for the model at %1. Shorten the document or the "
                                           "selection, or choose a model with a larger context window.")
                   .arg(p);
        break;
    case Code::BadRequest:
        text = QCoreApplication::translate("Llm::Error", "%1 rejected the request (HTTP %2).").arg(p, status);
        break;
    case Code::ServerError:
        text = QCoreApplication::translate("Llm::Error",
                                           "%1 had a server error (HTTP %2). Try again; if it keeps failing, check the "
                                           "provider's status page.")
                   .arg(p, status);
        break;
    case Code::NetworkUnreachable:
        text = QCoreApplication::translate("Llm::Error",
                                           "Cannot reach %1. Check the network connection and the provider's base URL "
                                           "in Settings, Providers.")
                   .arg(p);
        break;
    case Code::Tls:
        text =
            QCoreApplication::translate("Llm::Error",
                                        "The secure connection to %1 failed. Check the base URL and the system clock.")
                .arg(p);
        break;
    case Code::Timeout:
        text =
            QCoreApplication::translate("Llm::Error",
                                        "%1 did not answer in time. Try again; a long document, or a model that thinks "
                                        "before it answers, can need longer timeouts (Settings, Providers).")
                .arg(p);
        break;
    case Code::StreamBroken:
        text = QCoreApplication::translate("Llm::Error",
                                           "The connection to %1 broke before the answer was complete. The text so far "
                                           "is kept.")
                   .arg(p);
        break;
    case Code::MalformedStream:
        text = QCoreApplication::translate("Llm::Error",
                                           "%1 sent a response Headstart cannot read. The text so far is kept.")
                   .arg(p);
        break;
    case Code::ProviderError:
        text = QCoreApplication::translate("Llm::Error",
                                           "%1 reported an error while answering. The text so far is kept.")
                   .arg(p);
        break;
    case Code::InvalidRequest:
        text = QCoreApplication::translate("Llm::Error", "This request cannot be sent to %1.").arg(p);
        break;
    // These three say what the detail is in their sentence, so it is not appended again.
    case Code::NotAnApi:
        return m_expectedAnthropic
                   ? QCoreApplication::translate("Llm::Error",
                                                 "The address of %1 does not look like an Anthropic Messages API "
                                                 "(%2). Check the base URL in Settings, Providers.")
                         .arg(p, m_detail)
                   : QCoreApplication::translate("Llm::Error",
                                                 "The address of %1 does not look like an OpenAI-compatible API "
                                                 "(%2). Check the base URL in Settings, Providers.")
                         .arg(p, m_detail);
    case Code::InsecureHttp:
        return QCoreApplication::translate("Llm::Error",
                                           "The base URL of %1 is plain http:// to %2: the API key and the "
                                           "text would cross the network unencrypted. Use https://, or allow insecure "
                                           "HTTP for %1 in Settings, Providers.")
            .arg(p, m_detail);
    case Code::MissingKey:
        return QCoreApplication::translate("Llm::Error", "%1 needs an API key. Add it in Settings, Providers.").arg(p);
    // The proxy is the user's own setting, not the provider's: the sentence sends them there.
    case Code::ProxyRefused:
        return QCoreApplication::translate("Llm::Error", "Cannot reach %1: the proxy %2 refused the connection — "
                                                         "check Settings → Network.")
            .arg(p, m_detail);
    case Code::ProxyUnreachable:
        return QCoreApplication::translate("Llm::Error", "Cannot reach %1: the proxy %2 cannot be reached — check "
                                                         "Settings → Network.")
            .arg(p, m_detail);
    case Code::ProxyAuth:
        return QCoreApplication::translate("Llm::Error", "Cannot reach %1: the proxy %2 did not accept the user "
                                                         "name and password — check Settings → Network.")
            .arg(p, m_detail);
    case Code::RedirectRefused:
        return QCoreApplication::translate(
                   "Llm::Error", "%1 redirected the request (%2). Headstart sends the API key and "
                                 "the text only to the base URL's own address. Check the base URL in Settings, "
                                 "Providers.")
            .arg(p, m_detail);
    }
    if (!m_detail.isEmpty())
        text += QLatin1Char(' ') + QCoreApplication::translate("Llm::Error", "Details: %1").arg(m_detail);
    return text;
}

} // namespace Llm
