#include "apierror.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace LocalProvider {

ApiError ApiError::make(int status, QString message, QByteArray code, QByteArray param)
{
    ApiError e;
    e.status = status;
    e.message = std::move(message);
    e.code = std::move(code);
    e.param = std::move(param);
    return e;
}

ApiError ApiError::forStatus(int status, const QString &model)
{
    switch (status) {
    case 401: return make(401, QStringLiteral("Incorrect API key provided."), "invalid_api_key");
    case 403:
        return make(403, QStringLiteral("You are not allowed to use this resource with this API key."),
                    "permission_denied");
    case 404:
        return make(404, QStringLiteral("The model `%1` does not exist or you do not have access to it.").arg(model),
                    "model_not_found");
    case 429:
        return make(429, QStringLiteral("Rate limit reached for requests. Please try again later."),
                    "rate_limit_exceeded");
    case 500: return make(500, QStringLiteral("The server had an error while processing your request."));
    case 503: return make(503, QStringLiteral("The server is overloaded or not ready yet."), "service_unavailable");
    default:
        return make(status, QStringLiteral("Injected fault: HTTP %1 %2")
                                .arg(status)
                                .arg(QString::fromLatin1(reasonPhrase(status))));
    }
}

QByteArray ApiError::openAiType() const
{
    if (!type.isEmpty())
        return type;
    if (status == 429)
        return "requests";
    if (status >= 500)
        return "server_error";
    return "invalid_request_error";
}

QByteArray ApiError::anthropicType() const
{
    if (!type.isEmpty())
        return type;
    switch (status) {
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 413: return "request_too_large";
    case 429: return "rate_limit_error";
    case 503:
    case 529: return "overloaded_error";
    default: return status >= 500 ? "api_error" : "invalid_request_error";
    }
}

QByteArray ApiError::openAiBody() const
{
    const QJsonObject error{
        {QStringLiteral("message"), message},
        {QStringLiteral("type"), QString::fromLatin1(openAiType())},
        {QStringLiteral("param"), param.isEmpty() ? QJsonValue() : QJsonValue(QString::fromLatin1(param))},
        {QStringLiteral("code"), code.isEmpty() ? QJsonValue() : QJsonValue(QString::fromLatin1(code))},
    };
    return QJsonDocument(QJsonObject{{QStringLiteral("error"), error}}).toJson(QJsonDocument::Compact);
}

QByteArray ApiError::anthropicBody() const
{
    const QJsonObject error{
        {QStringLiteral("type"), QString::fromLatin1(anthropicType())},
        {QStringLiteral("message"), message},
    };
    return QJsonDocument(
               QJsonObject{{QStringLiteral("type"), QStringLiteral("error")}, {QStringLiteral("error"), error}})
        .toJson(QJsonDocument::Compact);
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    case 529: return "Overloaded";
    default: return status >= 500 ? "Server Error" : "Client Error";
    }
}

} // namespace LocalProvider
