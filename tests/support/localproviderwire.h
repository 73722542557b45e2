#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QNetworkReply>
#include <QPair>
#include <QString>
#include <QStringList>

// What the local provider's suites send and read over loopback, in both wire formats: request
// bodies, a stream split into events, a reply's text, usage and finish. Written here with a few
// lines of its own, never with llm/, so that a suite of the server does not take the client's
// reading of the protocol for granted.
namespace TestSupport::Wire {

using Headers = QList<QPair<QByteArray, QByteArray>>;

struct SseEvent {
    QByteArray event;
    QByteArray data;
};

// Splits a complete event stream into events; `consumed` tells how far it got.
QList<SseEvent> parseSse(const QByteArray &bytes, qsizetype *consumed = nullptr);

QJsonObject json(const QByteArray &bytes);

// The text of one content event, or a null string if the event carries none.
QString contentOf(const SseEvent &e, int *choice = nullptr);

// A finished HTTP reply as LocalProviderSuite::request() collected it.
struct Reply {
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray body;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QList<qint64> tokenMs;                 // arrival of each content event, since the request went out

    QList<SseEvent> events() const { return parseSse(body); }
    QJsonObject object() const { return json(body); }
    qint64 ttftMs() const { return tokenMs.value(0, -1); }
};

// OpenAI chat bodies for model headstart-local: `user` after an optional `system`, with the
// members of `extra` added; streamBody() sets "stream" too.
QByteArray chatBody(const QString &user, const QJsonObject &extra = {}, const QString &system = {});
QByteArray streamBody(const QString &user, QJsonObject extra = {});

// An Anthropic Messages body (max_tokens 64 unless `extra` says otherwise); an undefined
// `system` sends none.
QByteArray messagesBody(const QJsonValue &system, const QString &user, QJsonObject extra = {});

// A long, deterministic document; `tag` keeps documents of different tests apart in the cache.
QString document(const QString &tag, int words);

// An Anthropic text block with a cache breakpoint.
QJsonObject cached(const QString &text);

// All content of choice `index` in a streamed or non-streamed response of either format.
QString textOf(const Reply &r, int index = 0);

// The usage chunk of an OpenAI stream asked for with include_usage; empty if none came.
QJsonObject usageChunk(const Reply &r);

// How many CJK unified ideographs `text` holds.
int countHan(const QString &text);

// What a response of either format, streamed or not, carried: its text, its pieces (one per
// content event when streamed), finish reason and usage, Anthropic's counted back into
// OpenAI's meaning (prompt = every prompt token).
struct Answer {
    QString text;
    QStringList deltas;
    QString finish;
    int promptTokens = -1;
    int cachedTokens = -1;
    int completionTokens = -1;
};

Answer answerOf(const Reply &r);

// The forms a request can ask to continue the assistant's answer in.
enum class Form { Anthropic, Prefix, Partial, ContinueFinalMessage, Plain };

// The endpoint a form is sent to.
QString pathFor(Form form);

// A request for `user` after `system`; with a non-null `prefill`, one that continues it in
// `form`. `maxTokens` 0: none for OpenAI, 1000 for Anthropic (which needs one).
QByteArray continuationBody(Form form, const QString &system, const QString &user, const QString &prefill, bool stream,
                            int maxTokens = 0);

} // namespace TestSupport::Wire
