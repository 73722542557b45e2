#pragma once

#include <QByteArray>
#include <QString>

namespace LocalProvider {

// An error response, rendered in whichever wire format the endpoint speaks.
struct ApiError {
    int status = 500;
    QString message;
    QByteArray code;        // OpenAI error.code; empty renders as null
    QByteArray param;       // OpenAI error.param; empty renders as null
    QByteArray type;        // overrides the type derived from status (both formats)
    int retryAfterSec = -1; // >= 0: a Retry-After header

    static ApiError make(int status, QString message, QByteArray code = {}, QByteArray param = {});
    // The response an injected `status=N` fault produces.
    static ApiError forStatus(int status, const QString &model);

    QByteArray openAiType() const;
    QByteArray anthropicType() const;
    // {"error":{"message","type","param","code"}}
    QByteArray openAiBody() const;
    // {"type":"error","error":{"type","message"}}
    QByteArray anthropicBody() const;
};

QByteArray reasonPhrase(int status);

} // namespace LocalProvider
