// The local provider over real loopback sockets: wire formats, determinism, the latency and
// cache model, faults, HTTP framing, robustness, billing, continuations and the executable. The
// SSE is parsed here with a few lines of its own, never with llm/. One suite, like every module's,
// hence its length.

#include "support/localproviderfixture.h"

#include "localprovider/serverthread.h"
#include "localprovider/tokenizer.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <utility>

using namespace LocalProvider;
using namespace Qt::StringLiterals;

namespace {

using Headers = QList<QPair<QByteArray, QByteArray>>;

struct SseEvent {
    QByteArray event;
    QByteArray data;
};

// Splits a complete event stream into events; `consumed` tells how far it got.
QList<SseEvent> parseSse(const QByteArray &bytes, qsizetype *consumed = nullptr)
{
    QList<SseEvent> events;
    qsizetype pos = 0;
    for (qsizetype end; (end = bytes.indexOf("\n\n", pos)) >= 0; pos = end + 2) {
        SseEvent e;
        for (const QByteArray &line : bytes.mid(pos, end - pos).split('\n')) {
            if (line.startsWith("event: "))
                e.event = line.mid(7);
            else if (line.startsWith("data: "))
                e.data += line.mid(6);
        }
        events.append(e);
    }
    if (consumed)
        *consumed = pos;
    return events;
}

QJsonObject json(const QByteArray &bytes)
{
    return QJsonDocument::fromJson(bytes).object();
}

// The text of one content event, or a null string if the event carries none.
QString contentOf(const SseEvent &e, int *choice = nullptr)
{
    const QJsonObject o = json(e.data);
    if (e.event == "content_block_delta")
        return o[u"delta"][u"text"].toString();
    const QJsonArray choices = o[u"choices"].toArray();
    if (choices.isEmpty() || !choices[0][u"delta"].toObject().contains(u"content"))
        return {};
    const QString text = choices[0][u"delta"][u"content"].toString();
    if (choice)
        *choice = choices[0][u"index"].toInt();
    return text.isEmpty() ? QString() : text;
}

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

QByteArray chatBody(const QString &user, const QJsonObject &extra = {}, const QString &system = {})
{
    QJsonArray messages;
    if (!system.isEmpty())
        messages.append(QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, system}});
    messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, user}});
    QJsonObject o{{u"model"_s, u"headstart-local"_s}, {u"messages"_s, messages}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray streamBody(const QString &user, QJsonObject extra = {})
{
    extra.insert(u"stream"_s, true);
    return chatBody(user, extra);
}

QByteArray messagesBody(const QJsonValue &system, const QString &user, QJsonObject extra = {})
{
    QJsonObject o{{u"model"_s, u"headstart-local"_s},
                  {u"max_tokens"_s, 64},
                  {u"messages"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, user}}}}};
    if (!system.isUndefined())
        o.insert(u"system"_s, system);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// A long, deterministic document; `tag` keeps documents of different tests apart in the cache.
QString document(const QString &tag, int words)
{
    static const QStringList vocabulary{u"river"_s, u"stone"_s, u"light"_s, u"north"_s, u"garden"_s,
                                        u"window"_s, u"paper"_s, u"bridge"_s, u"cloud"_s, u"market"_s,
                                        u"winter"_s, u"signal"_s, u"harbor"_s};
    QString text = tag + u". "_s;
    for (int i = 0; i < words; ++i) {
        text += vocabulary[(i * 7 + i / 13) % vocabulary.size()];
        text += i % 11 == 10 ? u". "_s : u" "_s;
    }
    return text;
}

QJsonObject cached(const QString &text)
{
    return QJsonObject{{u"type"_s, u"text"_s},
                       {u"text"_s, text},
                       {u"cache_control"_s, QJsonObject{{u"type"_s, u"ephemeral"_s}}}};
}

// All content of choice `index` in a streamed or non-streamed response of either format.
QString textOf(const Reply &r, int index = 0)
{
    if (!r.body.startsWith("data:") && !r.body.startsWith("event:")) {
        const QJsonObject o = r.object();
        if (o.contains(u"choices"))
            return o[u"choices"][index][u"message"][u"content"].toString();
        return o[u"content"][0][u"text"].toString();
    }
    QString text;
    for (const SseEvent &e : r.events()) {
        int choice = 0;
        const QString piece = contentOf(e, &choice);
        if (choice == index)
            text += piece;
    }
    return text;
}

QJsonObject usageChunk(const Reply &r)
{
    for (const SseEvent &e : r.events()) {
        const QJsonObject o = json(e.data);
        if (o.contains(u"usage") && o[u"choices"].toArray().isEmpty())
            return o[u"usage"].toObject();
    }
    return {};
}

int countHan(const QString &text)
{
    int n = 0;
    for (QChar c : text)
        n += c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF;
    return n;
}

// A raw HTTP/1.1 client for what QNetworkAccessManager will not do: byte-level writes,
// pipelining, garbage.
class RawClient
{
public:
    explicit RawClient(const QUrl &url) { m_socket.connectToHost(u"127.0.0.1"_s, static_cast<quint16>(url.port())); }

    bool waitConnected()
    {
        QSignalSpy connected(&m_socket, &QTcpSocket::connected);
        return m_socket.state() == QAbstractSocket::ConnectedState || connected.wait(5000);
    }
    QTcpSocket &socket() { return m_socket; }

    // The next complete response (Content-Length framed), or an empty status line on timeout.
    bool readResponse(QByteArray *head, QByteArray *body, int timeoutMs = 5000)
    {
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            m_buffer += m_socket.readAll();
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end >= 0) {
                const QByteArray h = m_buffer.left(end);
                qsizetype length = 0;
                for (const QByteArray &line : h.split('\n')) {
                    if (line.toLower().startsWith("content-length:"))
                        length = line.mid(15).trimmed().toLongLong();
                }
                if (m_buffer.size() >= end + 4 + length) {
                    *head = h;
                    *body = m_buffer.mid(end + 4, length);
                    m_buffer.remove(0, end + 4 + length);
                    return true;
                }
            }
            if (timer.hasExpired(timeoutMs) || m_socket.state() != QAbstractSocket::ConnectedState)
                return false;
            QSignalSpy spy(&m_socket, &QTcpSocket::readyRead);
            spy.wait(100);
        }
    }

    // Everything the server sends until it closes the connection.
    QByteArray readUntilClosed(int timeoutMs = 5000)
    {
        QSignalSpy disconnected(&m_socket, &QTcpSocket::disconnected);
        if (m_socket.state() != QAbstractSocket::UnconnectedState)
            disconnected.wait(timeoutMs);
        return std::exchange(m_buffer, {}) + m_socket.readAll();
    }

    bool waitDisconnected(int timeoutMs = 5000)
    {
        QSignalSpy disconnected(&m_socket, &QTcpSocket::disconnected);
        return m_socket.state() == QAbstractSocket::UnconnectedState || disconnected.wait(timeoutMs);
    }

private:
    QTcpSocket m_socket;
    QByteArray m_buffer;
};

QByteArray httpPost(const QByteArray &path, const QByteArray &body, const QByteArray &extra = {})
{
    return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\n" + extra + "\r\n" + body;
}

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

Answer answerOf(const Reply &r)
{
    Answer a;
    a.text = textOf(r);
    const auto readUsage = [&a](const QJsonObject &u) {
        if (u.contains(u"prompt_tokens")) {
            a.promptTokens = u[u"prompt_tokens"].toInt();
            a.cachedTokens = u[u"prompt_tokens_details"][u"cached_tokens"].toInt();
            a.completionTokens = u[u"completion_tokens"].toInt();
        } else if (u.contains(u"input_tokens")) {
            a.cachedTokens = u[u"cache_read_input_tokens"].toInt();
            a.promptTokens = u[u"input_tokens"].toInt() + a.cachedTokens + u[u"cache_creation_input_tokens"].toInt();
        }
        if (u.contains(u"output_tokens"))
            a.completionTokens = u[u"output_tokens"].toInt();
    };
    if (!r.body.startsWith("data:") && !r.body.startsWith("event:")) {
        const QJsonObject o = r.object();
        a.finish = o.contains(u"choices") ? o[u"choices"][0][u"finish_reason"].toString() : o[u"stop_reason"].toString();
        readUsage(o[u"usage"].toObject());
        if (!a.text.isEmpty())
            a.deltas << a.text;
        return a;
    }
    for (const SseEvent &e : r.events()) {
        const QString piece = contentOf(e);
        if (!piece.isNull())
            a.deltas << piece;
        const QJsonObject o = json(e.data);
        if (e.event == "message_start") {
            readUsage(o[u"message"][u"usage"].toObject());
        } else if (e.event == "message_delta") {
            a.finish = o[u"delta"][u"stop_reason"].toString();
            readUsage(o[u"usage"].toObject());
        } else if (o[u"choices"].toArray().size() == 1 && o[u"choices"][0][u"finish_reason"].isString()) {
            a.finish = o[u"choices"][0][u"finish_reason"].toString();
        } else if (o[u"usage"].isObject()) {
            readUsage(o[u"usage"].toObject());
        }
    }
    return a;
}

// The forms a request can ask to continue the assistant's answer in.
enum class Form { Anthropic, Prefix, Partial, ContinueFinalMessage, Plain };

QString pathFor(Form form)
{
    return form == Form::Anthropic ? u"v1/messages"_s : u"v1/chat/completions"_s;
}

// A request for `user` after `system`; with a non-null `prefill`, one that continues it in
// `form`. `maxTokens` 0: none for OpenAI, 1000 for Anthropic (which needs one).
QByteArray continuationBody(Form form, const QString &system, const QString &user, const QString &prefill,
                            bool stream, int maxTokens = 0)
{
    QJsonArray messages;
    if (form != Form::Anthropic)
        messages.append(QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, system}});
    messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, user}});
    QJsonObject o{{u"model"_s, u"headstart-local"_s}, {u"stream"_s, stream}};
    if (form == Form::Anthropic) {
        o.insert(u"system"_s, system);
        o.insert(u"max_tokens"_s, maxTokens > 0 ? maxTokens : 1000);
    } else {
        if (maxTokens > 0)
            o.insert(u"max_tokens"_s, maxTokens);
        if (stream)
            o.insert(u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}});
    }
    if (!prefill.isNull()) {
        QJsonObject last{{u"role"_s, u"assistant"_s}, {u"content"_s, prefill}};
        if (form == Form::Prefix)
            last.insert(u"prefix"_s, true);
        else if (form == Form::Partial)
            last.insert(u"partial"_s, true);
        if (form == Form::ContinueFinalMessage) {
            o.insert(u"continue_final_message"_s, true);
            o.insert(u"add_generation_prompt"_s, false);
        }
        messages.append(last);
    }
    o.insert(u"messages"_s, messages);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class tst_LocalProvider : public QObject
{
    Q_OBJECT

private:
    Reply request(const QUrl &root, const QByteArray &method, const QString &path, const QByteArray &body = {},
                  const Headers &headers = {}, const std::function<void(QNetworkReply *, const Reply &)> &onData = {});
    Reply post(const QString &path, const QByteArray &body, const Headers &headers = {})
    {
        return request(m_local.server().url(), "POST", path, body, headers);
    }
    Reply get(const QString &path) { return request(m_local.server().url(), "GET", path); }
    QJsonObject statsJson(const QUrl &root) { return request(root, "GET", u"stats"_s).object(); }

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_nam;

private Q_SLOTS:
    void initTestCase();

    void tokenizer_data();
    void tokenizer();

    void healthModelsAndErrors();
    void unknownModel();
    void validation_data();
    void validation();

    void determinism();
    void maxTokensCutsWithLength();
    void chinesePromptGivesChinese();
    void systemPromptNeverInTheAnswer();
    void streamingChunkFormat();
    void usageOnlyWhenAsked();
    void twoChoicesInterleave();
    void anthropicEventsAndCache();
    void anthropicBreakpointLimits();
    void prefixCacheShortensTtft();
    void cacheEntriesExpire();
    void slotsQueueRequests();
    void firstTokenWrittenTime();

    void statusFaults_data();
    void statusFaults();
    void dropAfter();
    void stall();
    void malformedAt();
    void errorAt_data();
    void errorAt();
    void contextTooLong_data();
    void contextTooLong();
    void maxStreams();
    void apiKey();
    void clientAbortIsCancelled();

    void billedCompletedStream();
    void billedCancelledStream();
    void billedUnreadStream();
    void billedPrefillOnlyCancellation();
    void rejectedBillsNothing_data();
    void rejectedBillsNothing();
    void continuation_data();
    void continuation();
    void continuationOfOtherText();
    void anthropicTrailingWhitespace_data();
    void anthropicTrailingWhitespace();
    void continuationFlags_data();
    void continuationFlags();
    void continuationReadsCache();
    void anthropicContinuationCache();
    void hostedProfiles();

    void keepAliveAndPipelining();
    void bodyOneBytePerWrite();
    void garbageDoesNotHurt_data();
    void garbageDoesNotHurt();
    void executable();
};

Reply tst_LocalProvider::request(const QUrl &root, const QByteArray &method, const QString &path,
                                 const QByteArray &body, const Headers &headers,
                                 const std::function<void(QNetworkReply *, const Reply &)> &onData)
{
    QNetworkRequest req(root.resolved(QUrl(path)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : headers)
        req.setRawHeader(name, value);
    QElapsedTimer timer;
    timer.start();
    QNetworkReply *reply = m_nam.sendCustomRequest(req, method, body);
    Reply result;
    qsizetype parsed = 0;
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] {
        result.body += reply->readAll();
        qsizetype consumed = 0;
        const QList<SseEvent> events = parseSse(result.body.mid(parsed), &consumed);
        parsed += consumed;
        for (const SseEvent &e : events) {
            if (!contentOf(e).isNull())
                result.tokenMs.append(timer.elapsed());
        }
        if (onData)
            onData(reply, result);
    });
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(20000);
    result.body += reply->readAll();
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.error = reply->error();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        result.headers.insert(name.toLower(), value);
    reply->deleteLater();
    return result;
}

void tst_LocalProvider::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
    QCOMPARE(m_local.server().url().scheme(), u"http"_s);
    QCOMPARE(m_local.server().url().path(), u"/"_s);
    QVERIFY(LatencyProfile::names().contains(u"hosted-long-doc"_s));
    const LatencyProfile hosted = LatencyProfile::byName(u"hosted").value();
    QCOMPARE(hosted.rttMs, 150);
    QCOMPARE(hosted.slotCount, 64);
    QCOMPARE(ServerConfig().profile.name, u"hosted"_s);
}

void tst_LocalProvider::tokenizer_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("tokens");
    QTest::addRow("words") << u"The quick brown fox."_s << QStringList{u"The"_s, u" quick"_s, u" brown"_s, u" fox"_s, u"."_s};
    QTest::addRow("long word") << u"a tokenization"_s << QStringList{u"a"_s, u" toke"_s, u"niza"_s, u"tion"_s};
    QTest::addRow("digits") << u"in 2024567"_s << QStringList{u"in"_s, u" 202"_s, u"456"_s, u"7"_s};
    QTest::addRow("chinese") << u"你好，世界"_s << QStringList{u"你"_s, u"好"_s, u"，"_s, u"世"_s, u"界"_s};
    QTest::addRow("spaces") << u"a\n\n  b"_s << QStringList{u"a"_s, u"\n\n "_s, u" b"_s};
}

void tst_LocalProvider::tokenizer()
{
    QFETCH(QString, text);
    QFETCH(QStringList, tokens);
    QStringList actual;
    for (QStringView t : Tokenizer::split(text))
        actual << t.toString();
    QCOMPARE(actual, tokens);
    QCOMPARE(Tokenizer::count(text), tokens.size());
}

void tst_LocalProvider::healthModelsAndErrors()
{
    const Reply health = get(u"health"_s);
    QCOMPARE(health.status, 200);
    QCOMPARE(health.body, QByteArray("ok"));

    const Reply models = get(u"v1/models"_s);
    QCOMPARE(models.status, 200);
    QCOMPARE(models.object()[u"object"].toString(), u"list"_s);
    QStringList ids;
    for (const QJsonValue &m : models.object()[u"data"].toArray())
        ids << m[u"id"].toString();
    QVERIFY(ids.contains(u"headstart-local"_s));
    QVERIFY(ids.contains(u"headstart-local-small"_s));

    const Reply unknown = get(u"v1/nothing-here"_s);
    QCOMPARE(unknown.status, 404);
    QVERIFY(unknown.object()[u"error"][u"message"].isString());

    const Reply wrongMethod = get(u"v1/chat/completions"_s);
    QCOMPARE(wrongMethod.status, 405);
    QCOMPARE(wrongMethod.object()[u"error"][u"code"].toString(), u"method_not_allowed"_s);
    QCOMPARE(request(m_local.server().url(), "DELETE", u"health"_s).status, 405);

    const Reply badJson = post(u"v1/chat/completions"_s, "{\"model\": ");
    QCOMPARE(badJson.status, 400);
    QCOMPARE(badJson.object()[u"error"][u"type"].toString(), u"invalid_request_error"_s);

    const Reply badAnthropicJson = post(u"v1/messages"_s, "[1, 2");
    QCOMPARE(badAnthropicJson.status, 400);
    QCOMPARE(badAnthropicJson.object()[u"type"].toString(), u"error"_s);
    QCOMPARE(badAnthropicJson.object()[u"error"][u"type"].toString(), u"invalid_request_error"_s);

    // Without the /v1 prefix too.
    QCOMPARE(post(u"chat/completions"_s, chatBody(u"hello"_s)).status, 200);
}

void tst_LocalProvider::unknownModel()
{
    QByteArray body = chatBody(u"hello"_s);
    body.replace("headstart-local", "gpt-nonexistent");
    const Reply openai = post(u"v1/chat/completions"_s, body);
    QCOMPARE(openai.status, 404);
    QCOMPARE(openai.object()[u"error"][u"code"].toString(), u"model_not_found"_s);

    QByteArray anthropic = messagesBody({}, u"hello"_s);
    anthropic.replace("headstart-local", "claude-nonexistent");
    const Reply a = post(u"v1/messages"_s, anthropic);
    QCOMPARE(a.status, 404);
    QCOMPARE(a.object()[u"error"][u"type"].toString(), u"not_found_error"_s);

    QByteArray small = chatBody(u"hello"_s);
    small.replace("headstart-local", "headstart-local-small");
    QCOMPARE(post(u"v1/chat/completions"_s, small).status, 200);
}

void tst_LocalProvider::validation_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addRow("no messages") << u"v1/chat/completions"_s << QByteArray(R"({"model":"headstart-local"})");
    QTest::addRow("n too large") << u"v1/chat/completions"_s
                                 << chatBody(u"x"_s, {{u"n"_s, 9}});
    QTest::addRow("max_tokens 0") << u"v1/chat/completions"_s << chatBody(u"x"_s, {{u"max_tokens"_s, 0}});
    QTest::addRow("bad role") << u"v1/chat/completions"_s
                              << QByteArray(R"({"model":"headstart-local","messages":[{"role":"robot","content":"x"}]})");
    QTest::addRow("stream_options without stream")
        << u"v1/chat/completions"_s << chatBody(u"x"_s, {{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}});
    QTest::addRow("anthropic max_tokens missing")
        << u"v1/messages"_s
        << QByteArray(R"({"model":"headstart-local","messages":[{"role":"user","content":"x"}]})");
    QTest::addRow("anthropic temperature") << u"v1/messages"_s
                                           << messagesBody({}, u"x"_s, {{u"temperature"_s, 1.5}});
}

void tst_LocalProvider::validation()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    const Reply r = post(path, body);
    QCOMPARE(r.status, 400);
    if (path.endsWith(u"messages"))
        QCOMPARE(r.object()[u"error"][u"type"].toString(), u"invalid_request_error"_s);
    else
        QVERIFY(!r.object()[u"error"][u"message"].toString().isEmpty());
}

void tst_LocalProvider::determinism()
{
    const QString prompt = u"Explain how a harbor keeps boats safe during a winter storm, and why the walls matter."_s;
    const Reply first = post(u"v1/chat/completions"_s, streamBody(prompt));
    const Reply second = post(u"v1/chat/completions"_s, streamBody(prompt));
    const Reply plain = post(u"v1/chat/completions"_s, chatBody(prompt));
    QCOMPARE(first.status, 200);
    QVERIFY(!textOf(first).isEmpty());
    QCOMPARE(textOf(second).toUtf8(), textOf(first).toUtf8());
    QCOMPARE(textOf(plain), textOf(first)); // streaming changes the framing, not the text

    const Reply other = post(u"v1/chat/completions"_s, streamBody(prompt + u" Keep it short."_s));
    QVERIFY(textOf(other) != textOf(first));

    const Reply seeded = post(u"v1/chat/completions"_s, streamBody(prompt, {{u"seed"_s, 7}}));
    const Reply seededAgain = post(u"v1/chat/completions"_s, streamBody(prompt, {{u"seed"_s, 7}}));
    const Reply reseeded = post(u"v1/chat/completions"_s, streamBody(prompt, {{u"seed"_s, 8}}));
    QCOMPARE(textOf(seededAgain), textOf(seeded));
    QVERIFY(textOf(seeded) != textOf(first));
    QVERIFY(textOf(reseeded) != textOf(seeded));

    const Reply warmer = post(u"v1/chat/completions"_s, streamBody(prompt, {{u"temperature"_s, 0.2}}));
    QVERIFY(textOf(warmer) != textOf(first));

    // The same holds for Anthropic.
    const Reply a1 = post(u"v1/messages"_s, messagesBody(u"Be brief."_s, prompt, {{u"stream"_s, true}}));
    const Reply a2 = post(u"v1/messages"_s, messagesBody(u"Be brief."_s, prompt, {{u"stream"_s, true}}));
    QVERIFY(!textOf(a1).isEmpty());
    QCOMPARE(textOf(a2), textOf(a1));
}

void tst_LocalProvider::maxTokensCutsWithLength()
{
    const QString prompt = u"Describe a market by the river at dawn, with bread, fish and voices."_s;
    const Reply full = post(u"v1/chat/completions"_s, chatBody(prompt));
    const QJsonObject fullChoice = full.object()[u"choices"][0].toObject();
    QCOMPARE(fullChoice[u"finish_reason"].toString(), u"stop"_s);
    const QString fullText = fullChoice[u"message"][u"content"].toString();
    QVERIFY(fullText.endsWith(u'.') || fullText.endsWith(u'!') || fullText.endsWith(u'?'));
    const int natural = full.object()[u"usage"][u"completion_tokens"].toInt();
    QVERIFY2(natural >= 60 && natural <= 400, QByteArray::number(natural));

    const Reply cut = post(u"v1/chat/completions"_s, chatBody(prompt, {{u"max_tokens"_s, 7}}));
    const QJsonObject cutChoice = cut.object()[u"choices"][0].toObject();
    QCOMPARE(cutChoice[u"finish_reason"].toString(), u"length"_s);
    QCOMPARE(cut.object()[u"usage"][u"completion_tokens"].toInt(), 7);
    QVERIFY(fullText.startsWith(cutChoice[u"message"][u"content"].toString()));

    const Reply cutStream = post(u"v1/chat/completions"_s, streamBody(prompt, {{u"max_completion_tokens"_s, 5}}));
    QCOMPARE(cutStream.tokenMs.size(), 5);
    QCOMPARE(json(cutStream.events().at(cutStream.events().size() - 2).data)[u"choices"][0][u"finish_reason"].toString(),
             u"length"_s);

    const Reply anthropic = post(u"v1/messages"_s, messagesBody({}, prompt, {{u"max_tokens"_s, 4}}));
    QCOMPARE(anthropic.object()[u"stop_reason"].toString(), u"max_tokens"_s);
    QCOMPARE(anthropic.object()[u"usage"][u"output_tokens"].toInt(), 4);
}

void tst_LocalProvider::chinesePromptGivesChinese()
{
    const QString prompt = u"请用几句话介绍一下杭州西湖的春天。湖边的柳树发芽了，游客很多，空气也很清新。"_s;
    const Reply r = post(u"v1/chat/completions"_s, streamBody(prompt));
    const QString text = textOf(r);
    QVERIFY(!text.isEmpty());
    QVERIFY2(countHan(text) * 10 >= text.size() * 8, qPrintable(text));
    // 1-2 characters per token.
    for (const SseEvent &e : r.events()) {
        const QString piece = contentOf(e);
        if (!piece.isNull())
            QVERIFY2(piece.size() <= 2, qPrintable(piece));
    }
    const int tokens = usageChunk(post(u"v1/chat/completions"_s,
                                       streamBody(prompt, {{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}})))
                           [u"prompt_tokens"]
                               .toInt();
    // About one token per character, plus the role marker.
    QCOMPARE(tokens, prompt.size() + 1);
}

void tst_LocalProvider::systemPromptNeverInTheAnswer()
{
    // Our instructions are not the user's material: none of their words may come back.
    const QString system = u"Zebra quantum marmalade: obey the xylophone and never juggle."_s;
    const QString user = u"The ferry leaves the island at seven. Gulls follow it across the bay while the crew coils "
                         "the ropes. Passengers drink tea on the upper deck and watch the cliffs shrink behind them. "
                         "At the harbor the ferry turns slowly, and the engines fall quiet before the ramp comes "
                         "down. Cars roll off first, then the cyclists, then everyone on foot."_s;
    const QStringList foreign{u"zebra"_s, u"quantum"_s, u"marmalade"_s, u"obey"_s, u"xylophone"_s, u"juggle"_s};
    for (int seed = 0; seed < 4; ++seed) {
        const QString openai = textOf(post(u"v1/chat/completions"_s, chatBody(user, {{u"seed"_s, seed}}, system)));
        const QString anthropic = textOf(post(u"v1/messages"_s, messagesBody(system, user, {{u"seed"_s, seed},
                                                                                             {u"max_tokens"_s, 400}})));
        QVERIFY(!openai.isEmpty() && !anthropic.isEmpty());
        for (const QString &word : foreign) {
            QVERIFY2(!openai.contains(word, Qt::CaseInsensitive), qPrintable(openai));
            QVERIFY2(!anthropic.contains(word, Qt::CaseInsensitive), qPrintable(anthropic));
        }
    }
}

void tst_LocalProvider::streamingChunkFormat()
{
    const Reply r = post(u"v1/chat/completions"_s,
                         streamBody(u"List three uses of paper in a small office."_s,
                                    {{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}}),
                         {{"Accept-Encoding", "gzip, deflate, br"}});
    QCOMPARE(r.status, 200);
    QVERIFY(r.headers.value("content-type").startsWith("text/event-stream"));
    QCOMPARE(r.headers.value("transfer-encoding"), QByteArray("chunked"));
    QVERIFY(!r.headers.contains("content-encoding"));
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));

    const QList<SseEvent> events = r.events();
    QVERIFY(events.size() > 4);
    const QJsonObject first = json(events.first().data);
    QCOMPARE(first[u"object"].toString(), u"chat.completion.chunk"_s);
    QCOMPARE(first[u"choices"][0][u"delta"][u"role"].toString(), u"assistant"_s);
    QString id;
    int finishes = 0;
    for (qsizetype i = 0; i + 1 < events.size(); ++i) {
        QJsonParseError error;
        const QJsonObject chunk = QJsonDocument::fromJson(events[i].data, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(chunk[u"object"].toString(), u"chat.completion.chunk"_s);
        QCOMPARE(chunk[u"model"].toString(), u"headstart-local"_s);
        if (id.isEmpty())
            id = chunk[u"id"].toString();
        QCOMPARE(chunk[u"id"].toString(), id);
        if (!chunk[u"choices"].toArray().isEmpty() && !chunk[u"choices"][0][u"finish_reason"].isNull()) {
            ++finishes;
            QCOMPARE(chunk[u"choices"][0][u"finish_reason"].toString(), u"stop"_s);
        }
    }
    QCOMPARE(finishes, 1);
    QCOMPARE(events.last().data, QByteArray("[DONE]"));

    const QJsonObject usage = usageChunk(r);
    const int prompt = usage[u"prompt_tokens"].toInt();
    const int completion = usage[u"completion_tokens"].toInt();
    QVERIFY(prompt > 8);
    QCOMPARE(completion, r.tokenMs.size());
    QCOMPARE(usage[u"total_tokens"].toInt(), prompt + completion);
    QCOMPARE(usage[u"prompt_tokens_details"][u"cached_tokens"].toInt(), 0);
    QCOMPARE(usage[u"prompt_cache_hit_tokens"].toInt(), 0);
    QCOMPARE(usage[u"prompt_cache_miss_tokens"].toInt(), prompt);
}

void tst_LocalProvider::usageOnlyWhenAsked()
{
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"A short note about clouds."_s));
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
    QVERIFY(!r.body.contains("\"usage\""));

    const Reply plain = post(u"v1/chat/completions"_s, chatBody(u"A short note about clouds."_s));
    QVERIFY(plain.headers.contains("content-length"));
    QCOMPARE(plain.object()[u"object"].toString(), u"chat.completion"_s);
    QVERIFY(plain.object()[u"usage"][u"prompt_tokens"].toInt() > 0);
}

void tst_LocalProvider::twoChoicesInterleave()
{
    const Reply r = post(u"v1/chat/completions"_s,
                         streamBody(u"Two ideas for a garden path made of stone."_s,
                                    {{u"n"_s, 2}, {u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}}));
    QList<int> order;
    int finished[2] = {0, 0};
    int roles = 0;
    for (const SseEvent &e : r.events()) {
        const QJsonObject chunk = json(e.data);
        if (chunk[u"choices"].toArray().isEmpty())
            continue;
        const QJsonObject choice = chunk[u"choices"][0].toObject();
        const int index = choice[u"index"].toInt();
        QVERIFY(index == 0 || index == 1);
        roles += choice[u"delta"].toObject().contains(u"role");
        if (!contentOf(e).isNull())
            order << index;
        if (choice[u"finish_reason"].isString())
            ++finished[index];
    }
    QCOMPARE(roles, 2);
    QCOMPARE(finished[0], 1);
    QCOMPARE(finished[1], 1);
    QVERIFY(order.size() > 4);
    QCOMPARE(order.mid(0, 4), (QList<int>{0, 1, 0, 1}));
    QVERIFY(textOf(r, 0) != textOf(r, 1));
    QCOMPARE(usageChunk(r)[u"completion_tokens"].toInt(), order.size());

    const Reply plain = post(u"v1/chat/completions"_s, chatBody(u"Two ideas for a garden path made of stone."_s, {{u"n"_s, 2}}));
    QCOMPARE(plain.object()[u"choices"].toArray().size(), 2);
    QCOMPARE(plain.object()[u"choices"][1][u"message"][u"content"].toString(), textOf(r, 1));
}

void tst_LocalProvider::anthropicEventsAndCache()
{
    const QString doc = document(u"anthropic-cache"_s, 1400);
    const QJsonArray system{cached(doc)};
    const QJsonObject streamLong{{u"stream"_s, true}, {u"max_tokens"_s, 1000}};
    const Reply first = post(u"v1/messages"_s, messagesBody(system, u"Summarize the document."_s, streamLong),
                             {{"anthropic-version", "2023-06-01"}});
    QCOMPARE(first.status, 200);
    QList<QByteArray> types;
    for (const SseEvent &e : first.events()) {
        if (types.isEmpty() || types.last() != e.event)
            types << e.event;
        QCOMPARE(json(e.data)[u"type"].toString().toUtf8(), e.event);
    }
    QCOMPARE(types, (QList<QByteArray>{"message_start", "content_block_start", "ping", "content_block_delta",
                                       "content_block_stop", "message_delta", "message_stop"}));

    const auto startUsage = [](const Reply &r) { return json(r.events().first().data)[u"message"][u"usage"].toObject(); };
    const QJsonObject u1 = startUsage(first);
    QCOMPARE(u1[u"output_tokens"].toInt(), 1);
    QCOMPARE(u1[u"cache_read_input_tokens"].toInt(), 0);
    const int created = u1[u"cache_creation_input_tokens"].toInt();
    QVERIFY2(created > 1024, QByteArray::number(created));
    const int total = u1[u"input_tokens"].toInt() + created;
    QVERIFY(u1[u"input_tokens"].toInt() > 0); // the user message after the breakpoint

    const QJsonObject delta = json(first.events().at(first.events().size() - 2).data);
    QCOMPARE(delta[u"delta"][u"stop_reason"].toString(), u"end_turn"_s);
    QCOMPARE(delta[u"usage"][u"output_tokens"].toInt(), first.tokenMs.size());

    const Reply second = post(u"v1/messages"_s, messagesBody(system, u"Summarize the document."_s, streamLong));
    const QJsonObject u2 = startUsage(second);
    QCOMPARE(u2[u"cache_read_input_tokens"].toInt(), created);
    QCOMPARE(u2[u"cache_creation_input_tokens"].toInt(), 0);
    QCOMPARE(u2[u"input_tokens"].toInt() + u2[u"cache_read_input_tokens"].toInt(), total);

    // Non-streaming carries the same usage fields.
    const Reply plain = post(u"v1/messages"_s, messagesBody(system, u"Another question?"_s, {{u"max_tokens"_s, 1000}}));
    QCOMPARE(plain.object()[u"type"].toString(), u"message"_s);
    QCOMPARE(plain.object()[u"usage"][u"cache_read_input_tokens"].toInt(), created);
    QCOMPARE(plain.object()[u"stop_reason"].toString(), u"end_turn"_s);
}

void tst_LocalProvider::anthropicBreakpointLimits()
{
    // Below 1024 tokens nothing is cached, breakpoint or not.
    const QJsonArray shortSystem{cached(document(u"short-prefix"_s, 300))};
    for (int i = 0; i < 2; ++i) {
        const QJsonObject usage = post(u"v1/messages"_s, messagesBody(shortSystem, u"Hi"_s)).object()[u"usage"].toObject();
        QCOMPARE(usage[u"cache_creation_input_tokens"].toInt(), 0);
        QCOMPARE(usage[u"cache_read_input_tokens"].toInt(), 0);
    }
    // Without a breakpoint nothing is cached either.
    const QString doc = document(u"no-breakpoint"_s, 1500);
    for (int i = 0; i < 2; ++i) {
        const QJsonObject usage = post(u"v1/messages"_s, messagesBody(doc, u"Hi"_s)).object()[u"usage"].toObject();
        QCOMPARE(usage[u"cache_read_input_tokens"].toInt(), 0);
    }
    // At most four breakpoints.
    QJsonArray five;
    for (int i = 0; i < 5; ++i)
        five.append(cached(u"part %1"_s.arg(i)));
    const Reply r = post(u"v1/messages"_s, messagesBody(five, u"Hi"_s));
    QCOMPARE(r.status, 400);
    QVERIFY(r.object()[u"error"][u"message"].toString().contains(u"4"));
}

void tst_LocalProvider::prefixCacheShortensTtft()
{
    // 3000+ prompt tokens at 8000 tokens/s: an uncached prefill of about 400 ms.
    const Headers slowPrefill{{"X-Headstart-Latency", "prefill=8000,decode=1000"}};
    const QString doc = document(u"ttft-doc"_s, 3000);
    const QJsonObject usage{{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}, {u"stream"_s, true},
                            {u"max_tokens"_s, 3}};
    const Reply cold = post(u"v1/chat/completions"_s, chatBody(u"First question?"_s, usage, doc), slowPrefill);
    const Reply warm = post(u"v1/chat/completions"_s, chatBody(u"A different second question?"_s, usage, doc), slowPrefill);

    const QJsonObject coldUsage = usageChunk(cold);
    const QJsonObject warmUsage = usageChunk(warm);
    QCOMPARE(coldUsage[u"prompt_tokens_details"][u"cached_tokens"].toInt(), 0);
    const int hit = warmUsage[u"prompt_tokens_details"][u"cached_tokens"].toInt();
    QVERIFY2(hit >= 2900, QByteArray::number(hit));
    QCOMPARE(hit % 64, 0);
    QVERIFY(hit < warmUsage[u"prompt_tokens"].toInt());
    QCOMPARE(warmUsage[u"prompt_cache_hit_tokens"].toInt(), hit);
    QVERIFY2(warm.ttftMs() * 2 < cold.ttftMs(),
             qPrintable(u"cold %1 ms, warm %2 ms"_s.arg(cold.ttftMs()).arg(warm.ttftMs())));
    QVERIFY(cold.ttftMs() >= 300); // the prefill is a lower bound
}

void tst_LocalProvider::cacheEntriesExpire()
{
    const Headers shortTtl{{"X-Headstart-Latency", "ttl=1"}};
    const QString doc = document(u"ttl-doc"_s, 400);
    const QByteArray body = chatBody(u"Question?"_s, {}, doc);
    const auto cachedTokens = [](const Reply &r) { return r.object()[u"usage"][u"prompt_tokens_details"][u"cached_tokens"].toInt(); };
    QCOMPARE(cachedTokens(post(u"v1/chat/completions"_s, body, shortTtl)), 0);
    QVERIFY(cachedTokens(post(u"v1/chat/completions"_s, body, shortTtl)) > 0);
    // The entries live one second after their last hit; waiting is the point of this test.
    QElapsedTimer sinceHit;
    sinceHit.start();
    QTRY_VERIFY_WITH_TIMEOUT(sinceHit.hasExpired(1200), 5000);
    QCOMPARE(cachedTokens(post(u"v1/chat/completions"_s, body, shortTtl)), 0);
}

void tst_LocalProvider::slotsQueueRequests()
{
    // One slot: whichever request the server takes second gets its first token only after the
    // other one's last.
    QNetworkRequest req(m_local.server().url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "slots=1,decode=200");
    const QByteArray body = streamBody(u"Queue test about bridges."_s, {{u"max_tokens"_s, 20}});
    QElapsedTimer timer;
    timer.start();
    struct Track {
        std::unique_ptr<QNetworkReply> reply;
        QByteArray bytes;
        qint64 firstTokenMs = -1;
        qint64 finishedMs = -1;
    };
    Track tracks[2];
    for (Track &t : tracks) {
        t.reply.reset(m_nam.post(req, body));
        connect(t.reply.get(), &QNetworkReply::readyRead, this, [&t, &timer] {
            t.bytes += t.reply->readAll();
            if (t.firstTokenMs < 0 && t.bytes.contains("\"delta\":{\"content\""))
                t.firstTokenMs = timer.elapsed();
        });
        connect(t.reply.get(), &QNetworkReply::finished, this, [&t, &timer] { t.finishedMs = timer.elapsed(); });
    }
    QTRY_VERIFY_WITH_TIMEOUT(tracks[0].finishedMs >= 0 && tracks[1].finishedMs >= 0, 10000);
    const Track &early = tracks[0].firstTokenMs <= tracks[1].firstTokenMs ? tracks[0] : tracks[1];
    const Track &late = &early == &tracks[0] ? tracks[1] : tracks[0];
    QVERIFY(early.firstTokenMs >= 0 && late.firstTokenMs >= 0);
    // 20 tokens at 200/s: about 100 ms that the second one waits out.
    QVERIFY2(late.firstTokenMs + 5 >= early.finishedMs,
             qPrintable(u"first done at %1 ms, second's first token at %2 ms"_s.arg(early.finishedMs).arg(late.firstTokenMs)));
}

void tst_LocalProvider::firstTokenWrittenTime()
{
    const auto before = std::chrono::steady_clock::now().time_since_epoch();
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"Timing probe."_s), {{"X-Request-Id", "probe-42"}});
    QCOMPARE(r.headers.value("x-request-id"), QByteArray("probe-42"));
    const qint64 written = m_local.server().firstTokenWrittenNs("probe-42");
    QVERIFY(written >= std::chrono::duration_cast<std::chrono::nanoseconds>(before).count());
    QVERIFY(written <= std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
    QCOMPARE(m_local.server().firstTokenWrittenNs("never-sent"), -1);
}

void tst_LocalProvider::statusFaults_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QByteArray>("retryAfter");
    for (int status : {401, 403, 404, 500, 503}) {
        QTest::addRow("openai %d", status) << u"v1/chat/completions"_s << "status=" + QByteArray::number(status) << status
                                           << QString() << QByteArray();
    }
    QTest::addRow("openai 429") << u"v1/chat/completions"_s << QByteArray("status=429,retry-after=7") << 429 << QString()
                                << QByteArray("7");
    QTest::addRow("anthropic 401") << u"v1/messages"_s << QByteArray("status=401") << 401 << u"authentication_error"_s
                                   << QByteArray();
    QTest::addRow("anthropic 403") << u"v1/messages"_s << QByteArray("status=403") << 403 << u"permission_error"_s
                                   << QByteArray();
    QTest::addRow("anthropic 404") << u"v1/messages"_s << QByteArray("status=404") << 404 << u"not_found_error"_s
                                   << QByteArray();
    QTest::addRow("anthropic 429") << u"v1/messages"_s << QByteArray("status=429,retry-after=7") << 429
                                   << u"rate_limit_error"_s << QByteArray("7");
    QTest::addRow("anthropic 500") << u"v1/messages"_s << QByteArray("status=500") << 500 << u"api_error"_s << QByteArray();
    QTest::addRow("anthropic 503") << u"v1/messages"_s << QByteArray("status=503") << 503 << u"overloaded_error"_s
                                   << QByteArray();
}

void tst_LocalProvider::statusFaults()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, fault);
    QFETCH(int, status);
    QFETCH(QString, type);
    QFETCH(QByteArray, retryAfter);
    const QByteArray body = path.endsWith(u"messages") ? messagesBody({}, u"hi"_s, {{u"stream"_s, true}})
                                                       : streamBody(u"hi"_s);
    const Reply r = post(path, body, {{"X-Headstart-Fault", fault}});
    QCOMPARE(r.status, status);
    QCOMPARE(r.headers.value("retry-after"), retryAfter);
    const QJsonObject o = r.object();
    if (type.isEmpty()) {
        QVERIFY(!o[u"error"][u"message"].toString().isEmpty());
        QVERIFY(o[u"error"][u"type"].isString());
        QVERIFY(o[u"error"].toObject().contains(u"code"));
    } else {
        QCOMPARE(o[u"type"].toString(), u"error"_s);
        QCOMPARE(o[u"error"][u"type"].toString(), type);
    }
}

void tst_LocalProvider::dropAfter()
{
    // On the wire: three token events, then the connection ends without the last chunk.
    RawClient client(m_local.server().url());
    QVERIFY(client.waitConnected());
    client.socket().write(httpPost("/v1/chat/completions", streamBody(u"Dropping soon."_s), "X-Headstart-Fault: drop-after=3\r\n"));
    const QByteArray raw = client.readUntilClosed();
    QVERIFY2(raw.startsWith("HTTP/1.1 200"), raw.left(40).constData());
    QCOMPARE(raw.count("\"delta\":{\"content\""), 3);
    QVERIFY(!raw.contains("[DONE]"));
    QVERIFY(!raw.endsWith("0\r\n\r\n"));

    // Through QNetworkAccessManager the same three tokens arrive. (Qt 6.4 sometimes reports such a
    // truncated chunked reply as finished without error: clients must look for the end event.)
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"Dropping soon."_s), {{"X-Headstart-Fault", "drop-after=3"}});
    QCOMPARE(r.tokenMs.size(), 3);
    QVERIFY(!r.body.contains("[DONE]"));
    QVERIFY(!r.body.contains("finish_reason\":\"stop"));
}

void tst_LocalProvider::stall()
{
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"Stalling a little."_s, {{u"max_tokens"_s, 6}}),
                         {{"X-Headstart-Fault", "stall=250@2"}});
    QCOMPARE(r.tokenMs.size(), 6);
    QVERIFY2(r.tokenMs[2] - r.tokenMs[1] >= 200, qPrintable(u"gap %1 ms"_s.arg(r.tokenMs[2] - r.tokenMs[1])));
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
}

void tst_LocalProvider::malformedAt()
{
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"Malformed in the middle."_s, {{u"max_tokens"_s, 6}}),
                         {{"X-Headstart-Fault", "malformed-at=2"}});
    int contentBefore = -1;
    int invalid = 0;
    int content = 0;
    for (const SseEvent &e : r.events()) {
        if (e.data == "[DONE]")
            continue;
        QJsonParseError error;
        QJsonDocument::fromJson(e.data, &error);
        if (error.error != QJsonParseError::NoError) {
            ++invalid;
            contentBefore = content;
        } else if (!contentOf(e).isNull()) {
            ++content;
        }
    }
    QCOMPARE(invalid, 1);
    QCOMPARE(contentBefore, 2);
    QCOMPARE(content, 6);
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
}

void tst_LocalProvider::errorAt_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::addRow("openai") << false;
    QTest::addRow("anthropic") << true;
}

void tst_LocalProvider::errorAt()
{
    QFETCH(bool, anthropic);
    const Headers fault{{"X-Headstart-Fault", "error-at=2"}};
    const Reply r = anthropic ? post(u"v1/messages"_s, messagesBody({}, u"Fail soon."_s, {{u"stream"_s, true}}), fault)
                              : post(u"v1/chat/completions"_s, streamBody(u"Fail soon."_s), fault);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.error, QNetworkReply::NoError); // the stream ends cleanly, with an error event
    QCOMPARE(r.tokenMs.size(), 2);
    const SseEvent last = r.events().last();
    if (anthropic) {
        QCOMPARE(last.event, QByteArray("error"));
        QCOMPARE(json(last.data)[u"error"][u"type"].toString(), u"overloaded_error"_s);
        QVERIFY(!r.body.contains("message_stop"));
    } else {
        QCOMPARE(json(last.data)[u"error"][u"type"].toString(), u"server_error"_s);
        QVERIFY(!r.body.contains("[DONE]"));
    }
}

void tst_LocalProvider::contextTooLong_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("value");
    QTest::addRow("openai fault") << false << QByteArray("X-Headstart-Fault") << QByteArray("context-too-long");
    QTest::addRow("anthropic fault") << true << QByteArray("X-Headstart-Fault") << QByteArray("context-too-long");
    QTest::addRow("openai real") << false << QByteArray("X-Headstart-Latency") << QByteArray("context=40");
    QTest::addRow("anthropic real") << true << QByteArray("X-Headstart-Latency") << QByteArray("context=40");
}

void tst_LocalProvider::contextTooLong()
{
    QFETCH(bool, anthropic);
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, value);
    const QString prompt = document(u"context"_s, 30);
    const Headers headers{{header, value}};
    if (anthropic) {
        const Reply r = post(u"v1/messages"_s, messagesBody({}, prompt, {{u"max_tokens"_s, 16}}), headers);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.object()[u"error"][u"type"].toString(), u"invalid_request_error"_s);
        const QString message = r.object()[u"error"][u"message"].toString();
        QVERIFY2(message.startsWith(u"prompt is too long: "), qPrintable(message));
        QVERIFY(message.endsWith(u" maximum"));
    } else {
        const Reply r = post(u"v1/chat/completions"_s, chatBody(prompt, {{u"max_tokens"_s, 16}}), headers);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.object()[u"error"][u"code"].toString(), u"context_length_exceeded"_s);
    }
}

void tst_LocalProvider::maxStreams()
{
    TestSupport::LocalProviderFixture local(u"instant", [](ServerConfig &c) {
        c.profile.decodeTokensPerSec = 20;
        c.maxConcurrentStreams = 1;
    });
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    std::unique_ptr<QNetworkReply> open(m_nam.post(req, streamBody(u"Slow stream."_s)));
    QSignalSpy firstBytes(open.get(), &QNetworkReply::readyRead);
    QVERIFY(firstBytes.wait(5000));
    QCOMPARE(server.stats().streamsOpen, 1);

    const Reply refused = request(server.url(), "POST", u"v1/chat/completions"_s, streamBody(u"Second."_s));
    QCOMPARE(refused.status, 429);
    QCOMPARE(refused.headers.value("retry-after"), QByteArray("1"));
    QCOMPARE(server.stats().requestsRejected, 1);
    // Non-streaming requests are not streams.
    QCOMPARE(request(server.url(), "POST", u"v1/chat/completions"_s, chatBody(u"Third."_s),
                     {{"X-Headstart-Latency", "decode=0"}})
                 .status,
             200);

    open->abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsOpen, 0, 5000);
    QCOMPARE(request(server.url(), "POST", u"v1/chat/completions"_s, streamBody(u"Now it fits."_s, {{u"max_tokens"_s, 2}}))
                 .status,
             200);
}

void tst_LocalProvider::apiKey()
{
    TestSupport::LocalProviderFixture local(u"instant", [](ServerConfig &c) { c.apiKey = u"sk-test-123"_s; });
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const auto chat = [&](const Headers &headers) {
        return request(server.url(), "POST", u"v1/chat/completions"_s, chatBody(u"Key check."_s), headers);
    };
    const Reply none = chat({});
    QCOMPARE(none.status, 401);
    QCOMPARE(none.object()[u"error"][u"code"].toString(), u"invalid_api_key"_s);
    QCOMPARE(chat({{"Authorization", "Bearer wrong"}}).status, 401);
    QCOMPARE(chat({{"Authorization", "Bearer sk-test-123"}}).status, 200);
    QCOMPARE(chat({{"x-api-key", "sk-test-123"}}).status, 200);
    const Reply anthropic = request(server.url(), "POST", u"v1/messages"_s, messagesBody({}, u"Key?"_s));
    QCOMPARE(anthropic.status, 401);
    QCOMPARE(anthropic.object()[u"error"][u"type"].toString(), u"authentication_error"_s);
    QCOMPARE(request(server.url(), "GET", u"health"_s).status, 200);
    QCOMPARE(server.stats().requestsRejected, 3);
}

void tst_LocalProvider::clientAbortIsCancelled()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "decode=20");
    std::unique_ptr<QNetworkReply> reply(m_nam.post(req, streamBody(u"Abort me."_s)));
    QSignalSpy data(reply.get(), &QNetworkReply::readyRead);
    QVERIFY(data.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsOpen, 1, 5000);
    reply->abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsCancelled, 1, 5000);
    QCOMPARE(server.stats().streamsOpen, 0);
    QCOMPARE(server.stats().streamsCompleted, 0);

    QCOMPARE(request(server.url(), "POST", u"v1/chat/completions"_s, streamBody(u"Complete me."_s)).status, 200);
    const QJsonObject stats = statsJson(server.url());
    QCOMPARE(stats[u"streams_cancelled"].toInteger(), 1);
    QCOMPARE(stats[u"streams_completed"].toInteger(), 1);
    QCOMPARE(stats[u"streams_open"].toInteger(), 0);
    QCOMPARE(stats[u"requests_served"].toInteger(), 2);
    QCOMPARE(stats[u"requests_rejected"].toInteger(), 0);
    QVERIFY(stats[u"tokens_generated"].toInteger() > 1);
    QVERIFY(stats[u"prompt_tokens"].toInteger() > 1);
    QCOMPARE(stats[u"cache_hit_tokens"].toInteger(), 0);
}

void tst_LocalProvider::keepAliveAndPipelining()
{
    RawClient client(m_local.server().url());
    QVERIFY(client.waitConnected());
    const QByteArray body = chatBody(u"Keep the line open."_s, {{u"max_tokens"_s, 3}});
    QByteArray head;
    QByteArray response;

    client.socket().write(httpPost("/v1/chat/completions", body));
    QVERIFY(client.readResponse(&head, &response));
    QVERIFY2(head.startsWith("HTTP/1.1 200"), head.constData());
    QVERIFY(head.toLower().contains("connection: keep-alive"));
    const QString first = json(response)[u"choices"][0][u"message"][u"content"].toString();

    client.socket().write(httpPost("/v1/chat/completions", body));
    QVERIFY(client.readResponse(&head, &response));
    QVERIFY(head.startsWith("HTTP/1.1 200"));
    QCOMPARE(json(response)[u"choices"][0][u"message"][u"content"].toString(), first);

    // Two requests in one write: answered in order.
    client.socket().write(httpPost("/v1/chat/completions", body) + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(client.readResponse(&head, &response));
    QCOMPARE(json(response)[u"choices"][0][u"message"][u"content"].toString(), first);
    QVERIFY(client.readResponse(&head, &response));
    QCOMPARE(response, QByteArray("ok"));
    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);

    client.socket().write("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n");
    QVERIFY(client.readResponse(&head, &response));
    QVERIFY(client.waitDisconnected());
}

void tst_LocalProvider::bodyOneBytePerWrite()
{
    RawClient client(m_local.server().url());
    QVERIFY(client.waitConnected());
    client.socket().setSocketOption(QAbstractSocket::LowDelayOption, 1);
    const QByteArray body = chatBody(u"Sent one byte at a time, slowly."_s, {{u"max_tokens"_s, 4}});
    const QByteArray bytes = httpPost("/v1/chat/completions", body);
    qsizetype sent = 0;
    QTimer drip;
    drip.setInterval(0);
    connect(&drip, &QTimer::timeout, this, [&] {
        if (sent < bytes.size()) {
            client.socket().write(bytes.mid(sent++, 1));
            client.socket().flush();
        }
    });
    drip.start();
    QTRY_COMPARE_WITH_TIMEOUT(sent, bytes.size(), 10000);
    QByteArray head;
    QByteArray response;
    QVERIFY(client.readResponse(&head, &response));
    QVERIFY2(head.startsWith("HTTP/1.1 200"), head.constData());
    QCOMPARE(json(response)[u"choices"][0][u"message"][u"content"].toString(),
             textOf(post(u"v1/chat/completions"_s, body)));
}

void tst_LocalProvider::garbageDoesNotHurt_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QByteArray>("statusLine"); // empty: any answer or none
    QTest::addColumn<bool>("abortEarly");

    QByteArray noise;
    quint32 x = 12345;
    for (int i = 0; i < 20000; ++i) {
        x = x * 1103515245u + 12345u;
        noise.append(static_cast<char>(x >> 16));
        if (i % 997 == 0)
            noise.append("\r\n\r\n");
    }
    QTest::addRow("noise") << noise << QByteArray() << false;
    QTest::addRow("bad request line") << QByteArray("HELLO\r\n\r\n") << QByteArray("HTTP/1.1 400") << false;
    QTest::addRow("http/2 preface") << QByteArray("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") << QByteArray("HTTP/1.1 400") << false;
    QTest::addRow("http/9") << QByteArray("GET /health HTTP/9.9\r\n\r\n") << QByteArray("HTTP/1.1 505") << false;
    QTest::addRow("huge headers") << "GET /health HTTP/1.1\r\nX-Big: " + QByteArray(70000, 'a') << QByteArray("HTTP/1.1 431")
                                  << false;
    QTest::addRow("body too large") << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 70000000\r\n\r\n")
                                    << QByteArray("HTTP/1.1 413") << false;
    QTest::addRow("negative length") << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nContent-Length: -5\r\n\r\n")
                                     << QByteArray("HTTP/1.1 400") << false;
    QTest::addRow("chunked body")
        << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        << QByteArray("HTTP/1.1 411") << false;
    QTest::addRow("vanish mid-body") << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 1000\r\n\r\n{\"mod")
                                     << QByteArray() << true;
    QTest::addRow("vanish mid-headers") << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nContent-Le") << QByteArray()
                                        << true;
    QTest::addRow("deep json") << httpPost("/v1/chat/completions", QByteArray(100000, '['), "Connection: close\r\n") << QByteArray("HTTP/1.1 400")
                               << false;
}

void tst_LocalProvider::garbageDoesNotHurt()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QByteArray, statusLine);
    QFETCH(bool, abortEarly);
    {
        RawClient client(m_local.server().url());
        QVERIFY(client.waitConnected());
        client.socket().write(bytes);
        client.socket().flush();
        if (abortEarly) {
            client.socket().abort();
        } else if (!statusLine.isEmpty()) {
            QByteArray head;
            QByteArray body;
            QVERIFY(client.readResponse(&head, &body));
            QVERIFY2(head.startsWith(statusLine), head.left(40).constData());
            QVERIFY(json(body).contains(u"error"));
            QVERIFY(client.waitDisconnected());
        } else {
            QVERIFY(client.waitDisconnected());
        }
    }
    QCOMPARE(get(u"health"_s).status, 200);
    QCOMPARE(post(u"v1/chat/completions"_s, chatBody(u"Still alive?"_s, {{u"max_tokens"_s, 2}})).status, 200);
}

void tst_LocalProvider::executable()
{
    const QString program = QStringLiteral(HEADSTART_BIN_DIR "/localprovider/headstart-localprovider");
    {
        // A demo server: it refuses to be reachable from the network unless told otherwise.
        QProcess refused;
        refused.start(program, {u"--host"_s, u"0.0.0.0"_s});
        QTRY_COMPARE_WITH_TIMEOUT(refused.state(), QProcess::NotRunning, 10000);
        QCOMPARE(refused.exitCode(), 2);
    }
    QProcess process;
    process.start(program, {u"--profile"_s, u"instant"_s, u"--quiet"_s});
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), 10000);
    const QByteArray line = process.readLine().trimmed();
    QVERIFY2(line.startsWith("http://127.0.0.1:") && line.endsWith('/'), line.constData());
    const QUrl url(QString::fromLatin1(line));
    const Reply health = request(url, "GET", u"health"_s);
    QCOMPARE(health.status, 200);
    QCOMPARE(health.body, QByteArray("ok"));
    QCOMPARE(request(url, "POST", u"v1/chat/completions"_s, chatBody(u"From a process."_s)).status, 200);
    process.terminate();
    QTRY_COMPARE_WITH_TIMEOUT(process.state(), QProcess::NotRunning, 10000);
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
}

void tst_LocalProvider::billedCompletedStream()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const QByteArray body = streamBody(u"Describe a bridge over a river in winter light."_s,
                                       {{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}});
    const Reply marked = request(server.url(), "POST", u"v1/chat/completions"_s, body, {{"X-Headstart-Purpose", "foreground"}});
    QCOMPARE(marked.status, 200);
    // The usage at the end of the stream is what was generated: one token per content event.
    const QJsonObject usage = usageChunk(marked);
    QCOMPARE(usage[u"completion_tokens"].toInt(), marked.tokenMs.size());

    Stats s = server.stats();
    const BilledTokens foreground = s.billedByPurpose.value(u"foreground"_s);
    QCOMPARE(foreground.output, usage[u"completion_tokens"].toInteger());
    QCOMPARE(foreground.inputUncached + foreground.cacheRead, usage[u"prompt_tokens"].toInteger());
    QCOMPARE(foreground.cacheRead, usage[u"prompt_tokens_details"][u"cached_tokens"].toInteger());
    QCOMPARE(foreground.cacheWrite, 0); // an automatic cache bills no writes
    QCOMPARE(s.billed, foreground);

    // Without the header: "unmarked". Anthropic bills the cache write it reports.
    const QJsonArray system{cached(document(u"billed-anthropic"_s, 1400))};
    const Reply anthropic = request(server.url(), "POST", u"v1/messages"_s, messagesBody(system, u"Summarize."_s));
    QCOMPARE(anthropic.status, 200);
    const QJsonObject aUsage = anthropic.object()[u"usage"].toObject();
    s = server.stats();
    const BilledTokens unmarked = s.billedByPurpose.value(u"unmarked"_s);
    QVERIFY(aUsage[u"cache_creation_input_tokens"].toInt() > 1024);
    QCOMPARE(unmarked.cacheWrite, aUsage[u"cache_creation_input_tokens"].toInteger());
    QCOMPARE(unmarked.inputUncached, aUsage[u"input_tokens"].toInteger());
    QCOMPARE(unmarked.cacheRead, 0);
    QCOMPARE(unmarked.output, aUsage[u"output_tokens"].toInteger());
    BilledTokens sum = foreground;
    sum += unmarked;
    QCOMPARE(s.billed, sum);
    QCOMPARE(s.billed.output, s.tokensGenerated);

    // /stats says the same.
    const QJsonObject billed = statsJson(server.url())[u"billed"].toObject();
    QCOMPARE(billed[u"output"].toInteger(), s.billed.output);
    QCOMPARE(billed[u"input_uncached"].toInteger(), s.billed.inputUncached);
    QCOMPARE(billed[u"cache_read"].toInteger(), s.billed.cacheRead);
    QCOMPARE(billed[u"cache_write"].toInteger(), s.billed.cacheWrite);
    const QJsonObject byPurpose = billed[u"by_purpose"].toObject();
    QCOMPARE(byPurpose.keys(), (QStringList{u"foreground"_s, u"unmarked"_s}));
    QCOMPARE(byPurpose[u"foreground"][u"output"].toInteger(), foreground.output);
    QCOMPARE(byPurpose[u"unmarked"][u"cache_write"].toInteger(), unmarked.cacheWrite);
}

void tst_LocalProvider::billedCancelledStream()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "decode=20");
    req.setRawHeader("X-Headstart-Purpose", "hover");
    std::unique_ptr<QNetworkReply> reply(m_nam.post(req, streamBody(u"Cancel me half way."_s, {{u"max_tokens"_s, 100}})));
    QByteArray bytes;
    connect(reply.get(), &QNetworkReply::readyRead, this, [&] { bytes += reply->readAll(); });
    const auto tokensRead = [&] {
        qsizetype n = 0;
        for (const SseEvent &e : parseSse(bytes))
            n += !contentOf(e).isNull();
        return n;
    };
    QTRY_VERIFY_WITH_TIMEOUT(tokensRead() >= 5, 10000);
    reply->abort();
    const qsizetype read = tokensRead();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsCancelled, 1, 5000);
    const Stats s = server.stats();
    // Billed: what was generated until the server noticed; at least what was read, at most max_tokens.
    QVERIFY2(s.billed.output >= read && s.billed.output <= 100,
             qPrintable(u"billed %1, read %2"_s.arg(s.billed.output).arg(read)));
    QCOMPARE(s.billedByPurpose.value(u"hover"_s), s.billed);
    QVERIFY(s.billed.inputUncached > 0);
}

void tst_LocalProvider::billedUnreadStream()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "decode=100");
    req.setRawHeader("X-Headstart-Purpose", "debounce");
    std::unique_ptr<QNetworkReply> reply(m_nam.post(req, streamBody(u"Nobody reads me to the end."_s, {{u"max_tokens"_s, 40}})));
    // Like a paused prefetch: read the first token, then stop reading; the reply's buffer fills
    // and TCP pushes back.
    reply->setReadBufferSize(512);
    QByteArray bytes;
    const auto tokensIn = [](const QByteArray &b) {
        qsizetype n = 0;
        for (const SseEvent &e : parseSse(b))
            n += !contentOf(e).isNull();
        return n;
    };
    bool reading = true;
    connect(reply.get(), &QNetworkReply::readyRead, this, [&] {
        if (reading)
            bytes += reply->readAll();
        reading = tokensIn(bytes) == 0;
    });
    QTRY_VERIFY_WITH_TIMEOUT(tokensIn(bytes) >= 1, 10000);
    // The provider goes on generating, and billing, to max_tokens.
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().billed.output, 40, 10000);
    reply->abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsOpen, 0, 5000);
    const qsizetype read = tokensIn(bytes);
    const Stats s = server.stats();
    QVERIFY2(read < 40, QByteArray::number(read));
    QCOMPARE(s.billed.output, 40);
    QCOMPARE(s.billedByPurpose.value(u"debounce"_s).output, 40);
}

void tst_LocalProvider::billedPrefillOnlyCancellation()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    // About 3000 prompt tokens at 1000 tokens/s: a 3 s prefill to cancel in.
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "prefill=1000");
    req.setRawHeader("X-Headstart-Purpose", "warmup");
    const QByteArray body = chatBody(u"Question?"_s, {{u"stream"_s, true}}, document(u"prefill-cancel"_s, 3000));
    std::unique_ptr<QNetworkReply> reply(m_nam.post(req, body));
    // Input is billed once prefill begins.
    QTRY_VERIFY_WITH_TIMEOUT(server.stats().billed.inputUncached > 0, 5000);
    reply->abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsCancelled, 1, 5000);
    const Stats s = server.stats();
    QCOMPARE(s.billed.output, 0);
    QCOMPARE(s.tokensGenerated, 0);
    QVERIFY2(s.billed.inputUncached > 3000, QByteArray::number(s.billed.inputUncached));
    QCOMPARE(s.billed.inputUncached, s.promptTokens);
    QCOMPARE(s.billedByPurpose.value(u"warmup"_s), s.billed);
}

void tst_LocalProvider::rejectedBillsNothing_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<int>("status");
    QTest::addRow("fault") << QByteArray("X-Headstart-Fault") << QByteArray("status=500") << 500;
    QTest::addRow("context") << QByteArray("X-Headstart-Fault") << QByteArray("context-too-long") << 400;
    QTest::addRow("purpose upper case") << QByteArray("X-Headstart-Purpose") << QByteArray("Hover") << 400;
    QTest::addRow("purpose space") << QByteArray("X-Headstart-Purpose") << QByteArray("a b") << 400;
    QTest::addRow("purpose underscore") << QByteArray("X-Headstart-Purpose") << QByteArray("warm_up") << 400;
    QTest::addRow("purpose too long") << QByteArray("X-Headstart-Purpose") << QByteArray(33, 'a') << 400;
    QTest::addRow("purpose not ascii") << QByteArray("X-Headstart-Purpose") << QByteArray("h\xc3\xbcver") << 400;
}

void tst_LocalProvider::rejectedBillsNothing()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, value);
    QFETCH(int, status);
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const Reply r = request(server.url(), "POST", u"v1/chat/completions"_s, streamBody(u"Refuse me."_s), {{header, value}});
    QCOMPARE(r.status, status);
    if (header == "X-Headstart-Purpose")
        QVERIFY(r.object()[u"error"][u"message"].toString().startsWith(u"X-Headstart-Purpose"));
    const Stats s = server.stats();
    QCOMPARE(s.requestsRejected, 1);
    QCOMPARE(s.billed, BilledTokens());
    QVERIFY(s.billedByPurpose.isEmpty());
    // Plain ones pass.
    for (const QByteArray &purpose : {QByteArray("a"), QByteArray(32, 'z'), QByteArray("trajectory-2")}) {
        QCOMPARE(request(server.url(), "POST", u"v1/chat/completions"_s, chatBody(u"Fine."_s, {{u"max_tokens"_s, 1}}),
                         {{"X-Headstart-Purpose", purpose}})
                     .status,
                 200);
        QCOMPARE(server.stats().billedByPurpose.value(QString::fromLatin1(purpose)).output, 1);
    }
}

void tst_LocalProvider::continuation_data()
{
    QTest::addColumn<int>("form");
    QTest::addColumn<bool>("stream");
    const std::pair<Form, const char *> forms[] = {{Form::Anthropic, "anthropic"},
                                                   {Form::Prefix, "prefix"},
                                                   {Form::Partial, "partial"},
                                                   {Form::ContinueFinalMessage, "continue_final_message"},
                                                   {Form::Plain, "plain"}};
    for (const auto &[form, name] : forms) {
        QTest::addRow("%s, stream", name) << int(form) << true;
        QTest::addRow("%s, whole", name) << int(form) << false;
    }
}

void tst_LocalProvider::continuation()
{
    QFETCH(int, form);
    QFETCH(bool, stream);
    const Form f = Form(form);
    const QString path = pathFor(f);
    const QString system = u"You write short notes about harbors, bridges and markets."_s;
    const QString user = u"Write a note about the harbor at dawn, with boats, nets and gulls. Tag %1 %2."_s.arg(form).arg(stream);
    const Answer fresh = answerOf(post(path, continuationBody(f, system, user, {}, true)));
    QVERIFY(fresh.deltas.size() > 20);
    QCOMPARE(fresh.finish, f == Form::Anthropic ? u"end_turn"_s : u"stop"_s);
    // A prefix request, as the prefetch engine sends: the same answer cut short.
    const Answer prefix = answerOf(post(path, continuationBody(f, system, user, {}, stream, 8)));
    QVERIFY(fresh.text.startsWith(prefix.text));
    QCOMPARE(prefix.finish, f == Form::Anthropic ? u"max_tokens"_s : u"length"_s);

    // Cuts: the prefix request's text, one token, inside a token, about half, all of it. None
    // ends in whitespace (Anthropic refuses that).
    QList<qsizetype> cuts{prefix.text.size(), fresh.deltas.first().size()};
    qsizetype midCut = -1;
    QString midRest; // what is left of the token the cut falls inside
    qsizetype at = 0;
    for (const QString &d : std::as_const(fresh.deltas)) {
        if (at > 0 && d.size() >= 4 && d[0] == u' ' && d[2].isLetter()) {
            midCut = at + 3; // " qu|ick"
            midRest = d.sliced(3);
            break;
        }
        at += d.size();
    }
    QVERIFY(midCut > 0);
    qsizetype half = fresh.text.size() / 2;
    while (fresh.text[half - 1].isSpace())
        ++half;
    cuts << midCut << half << fresh.text.size();

    for (qsizetype cut : std::as_const(cuts)) {
        const QString prefill = fresh.text.left(cut);
        const Reply r = post(path, continuationBody(f, system, user, prefill, stream));
        QCOMPARE(r.status, 200);
        const Answer rest = answerOf(r);
        QVERIFY2((prefill + rest.text).toUtf8() == fresh.text.toUtf8(),
                 qPrintable(u"cut at %1: \"%2\" + \"%3\""_s.arg(cut).arg(prefill.right(20), rest.text.left(20))));
        QCOMPARE(rest.finish, fresh.finish);
        // The prefill is prompt; the continuation's own tokens are its output.
        QVERIFY2(rest.promptTokens > fresh.promptTokens, qPrintable(u"cut at %1"_s.arg(cut)));
        if (stream) {
            QCOMPARE(rest.completionTokens, rest.deltas.size());
            if (cut == midCut)
                QCOMPARE(rest.deltas.value(0), midRest);
        }
    }

    // max_tokens and finish_reason of a continuation count its own tokens.
    const QString prefill = fresh.text.left(prefix.text.size());
    const Answer three = answerOf(post(path, continuationBody(f, system, user, prefill, true, 3)));
    QCOMPARE(three.deltas.size(), 3);
    QCOMPARE(three.completionTokens, 3);
    QCOMPARE(three.finish, f == Form::Anthropic ? u"max_tokens"_s : u"length"_s);
    QVERIFY(fresh.text.mid(prefill.size()).startsWith(three.text));
}

void tst_LocalProvider::continuationOfOtherText()
{
    const QString system = u"Notes about gardens."_s;
    const QString user = u"Describe a garden by a north window in winter."_s;
    const QString prefill = u"Completely unrelated opening words about a market"_s;
    for (Form f : {Form::Anthropic, Form::Prefix}) {
        const Answer fresh = answerOf(post(pathFor(f), continuationBody(f, system, user, {}, false)));
        const Answer a = answerOf(post(pathFor(f), continuationBody(f, system, user, prefill, false)));
        const Answer b = answerOf(post(pathFor(f), continuationBody(f, system, user, prefill, true)));
        QVERIFY(!a.text.isEmpty());
        QVERIFY(a.text.startsWith(u' ')); // goes on after the prefill's last word
        QCOMPARE(b.text, a.text);         // deterministic, streamed or not
        QVERIFY(!fresh.text.contains(a.text));
    }
}

void tst_LocalProvider::anthropicTrailingWhitespace_data()
{
    QTest::addColumn<QJsonValue>("content");
    QTest::addRow("space") << QJsonValue(u"The harbor at dawn is "_s);
    QTest::addRow("newline") << QJsonValue(u"The harbor\n"_s);
    QTest::addRow("blocks") << QJsonValue(QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"The"_s}},
                                                     QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u" harbor "_s}}});
}

void tst_LocalProvider::anthropicTrailingWhitespace()
{
    QFETCH(QJsonValue, content);
    QJsonObject o = json(messagesBody({}, u"Describe the harbor."_s));
    QJsonArray messages = o[u"messages"].toArray();
    messages.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, content}});
    o[u"messages"] = messages;
    const Reply r = post(u"v1/messages"_s, QJsonDocument(o).toJson(QJsonDocument::Compact));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.object()[u"type"].toString(), u"error"_s);
    QCOMPARE(r.object()[u"error"][u"type"].toString(), u"invalid_request_error"_s);
    QCOMPARE(r.object()[u"error"][u"message"].toString(),
             u"messages: final assistant content cannot end with trailing whitespace"_s);
    // OpenAI-compatible servers take it.
    QJsonObject openAi = json(chatBody(u"Describe the harbor."_s));
    QJsonArray chat = openAi[u"messages"].toArray();
    chat.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"The harbor at dawn is "_s}, {u"prefix"_s, true}});
    openAi[u"messages"] = chat;
    QCOMPARE(post(u"v1/chat/completions"_s, QJsonDocument(openAi).toJson(QJsonDocument::Compact)).status, 200);
}

void tst_LocalProvider::continuationFlags_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("continues"); // with 200: the answer goes on from the assistant message
    const auto with = [](const QJsonObject &top, const QJsonObject &assistant, bool lastIsUser = false) {
        QJsonArray messages{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Describe the river stone."_s}}};
        QJsonObject a{{u"role"_s, u"assistant"_s}, {u"content"_s, u"The"_s}};
        for (auto it = assistant.begin(); it != assistant.end(); ++it)
            a.insert(it.key(), it.value());
        messages.append(a);
        if (lastIsUser)
            messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"And more?"_s}});
        QJsonObject o{{u"model"_s, u"headstart-local"_s}, {u"messages"_s, messages}};
        for (auto it = top.begin(); it != top.end(); ++it)
            o.insert(it.key(), it.value());
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    };
    QTest::addRow("plain") << with({}, {}) << 200 << true;
    QTest::addRow("prefix false") << with({}, {{u"prefix"_s, false}}) << 200 << false;
    QTest::addRow("partial false") << with({}, {{u"partial"_s, false}}) << 200 << false;
    QTest::addRow("add_generation_prompt") << with({{u"add_generation_prompt"_s, true}}, {}) << 200 << false;
    QTest::addRow("prefix over add_generation_prompt")
        << with({{u"add_generation_prompt"_s, true}}, {{u"prefix"_s, true}}) << 200 << true;
    QTest::addRow("continue_final_message alone") << with({{u"continue_final_message"_s, true}}, {}) << 400 << false;
    QTest::addRow("continue_final_message, last is user")
        << with({{u"continue_final_message"_s, true}, {u"add_generation_prompt"_s, false}}, {}, true) << 400 << false;
    QTest::addRow("prefix not last") << with({}, {{u"prefix"_s, true}}, true) << 400 << false;
    QTest::addRow("prefix not a boolean") << with({}, {{u"prefix"_s, u"yes"_s}}) << 400 << false;
    QTest::addRow("prefix with tool_calls")
        << with({}, {{u"prefix"_s, true},
                     {u"tool_calls"_s, QJsonArray{QJsonObject{{u"id"_s, u"call_1"_s}, {u"type"_s, u"function"_s}}}}})
        << 400 << false;
}

void tst_LocalProvider::continuationFlags()
{
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(bool, continues);
    const Reply r = post(u"v1/chat/completions"_s, body);
    QCOMPARE(r.status, status);
    if (status != 200) {
        QCOMPARE(r.object()[u"error"][u"type"].toString(), u"invalid_request_error"_s);
        return;
    }
    const QString fresh = answerOf(post(u"v1/chat/completions"_s, chatBody(u"Describe the river stone."_s))).text;
    const QString text = answerOf(r).text;
    // The fresh answer begins with "The" only by chance; the continuation does not repeat it.
    if (fresh.startsWith(u"The"))
        QCOMPARE(text == fresh.sliced(3), continues);
    else
        QCOMPARE(text.startsWith(u' '), continues);
}

void tst_LocalProvider::continuationReadsCache()
{
    const QString system = document(u"continuation-cache"_s, 700);
    // Questions whose fresh answers are long enough to cut; found on the suite's own server, so
    // that the one under test has cached nothing yet (the text is the same on every server).
    QStringList questions;
    for (int i = 0; i < 40 && questions.size() < 2; ++i) {
        const QString q = u"What does the document say about harbor number %1?"_s.arg(i);
        if (answerOf(post(u"v1/chat/completions"_s, continuationBody(Form::Prefix, system, q, {}, true))).deltas.size() >= 220)
            questions << q;
    }
    QCOMPARE(questions.size(), 2);

    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const auto ask = [&](const QString &user, const QString &prefill, int maxTokens, const QByteArray &purpose) {
        return answerOf(request(server.url(), "POST", u"v1/chat/completions"_s,
                                continuationBody(Form::Prefix, system, user, prefill, true, maxTokens),
                                {{"X-Headstart-Purpose", purpose}}));
    };
    const Answer prefix = ask(questions[0], {}, 150, "hover");
    QCOMPARE(prefix.cachedTokens, 0);
    QCOMPARE(prefix.deltas.size(), 150);
    // The prompt and the 150 tokens generated are cached: the continuation reads every full block
    // of its prompt, most of its prefill included.
    const Answer rest = ask(questions[0], prefix.text, 0, "foreground");
    QVERIFY2(rest.cachedTokens > prefix.promptTokens + 64,
             qPrintable(u"cached %1 of %2, prompt alone %3"_s.arg(rest.cachedTokens).arg(rest.promptTokens).arg(prefix.promptTokens)));
    QCOMPARE(rest.cachedTokens, rest.promptTokens / 64 * 64);
    const BilledTokens foreground = server.stats().billedByPurpose.value(u"foreground"_s);
    QCOMPARE(foreground.cacheRead, rest.cachedTokens);
    QCOMPARE(foreground.inputUncached, rest.promptTokens - rest.cachedTokens);

    // A cancelled request leaves what it had generated in the cache too.
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "decode=100");
    std::unique_ptr<QNetworkReply> reply(m_nam.post(req, continuationBody(Form::Prefix, system, questions[1], {}, true)));
    QByteArray bytes;
    connect(reply.get(), &QNetworkReply::readyRead, this, [&] { bytes += reply->readAll(); });
    const auto readText = [&] {
        QString text;
        qsizetype n = 0;
        for (const SseEvent &e : parseSse(bytes)) {
            const QString piece = contentOf(e);
            n += !piece.isNull();
            text += piece;
        }
        return std::pair{text, n};
    };
    QTRY_VERIFY_WITH_TIMEOUT(readText().second >= 180, 10000);
    reply->abort();
    const QString readSoFar = readText().first;
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsCancelled, 1, 5000);
    const Answer after = ask(questions[1], readSoFar, 5, "foreground");
    QVERIFY2(after.cachedTokens >= after.promptTokens / 64 * 64 - 64 && after.cachedTokens > prefix.promptTokens + 32,
             qPrintable(u"cached %1 of %2"_s.arg(after.cachedTokens).arg(after.promptTokens)));
}

void tst_LocalProvider::anthropicContinuationCache()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const QString doc = document(u"anthropic-continuation"_s, 1400);
    const auto ask = [&](const QString &prefill, int maxTokens) {
        QJsonObject o = json(messagesBody(QJsonArray{cached(doc)}, u"Summarize the document."_s, {{u"max_tokens"_s, maxTokens}}));
        if (!prefill.isNull()) {
            QJsonArray messages = o[u"messages"].toArray();
            messages.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, prefill}});
            o[u"messages"] = messages;
        }
        return request(server.url(), "POST", u"v1/messages"_s, QJsonDocument(o).toJson(QJsonDocument::Compact)).object();
    };
    const QJsonObject prefix = ask({}, 100);
    const int written = prefix[u"usage"][u"cache_creation_input_tokens"].toInt();
    QVERIFY(written > 1024);
    const QString prefill = prefix[u"content"][0][u"text"].toString();
    // Only breakpoints are cached: the continuation reads the document and pays its prefill,
    // which carries none, as uncached input.
    const QJsonObject rest = ask(prefill, 1000);
    const QJsonObject usage = rest[u"usage"].toObject();
    QCOMPARE(usage[u"cache_read_input_tokens"].toInt(), written);
    QCOMPARE(usage[u"cache_creation_input_tokens"].toInt(), 0);
    const int prefillTokens = int(Tokenizer::count(prefill)) + 1; // and its role marker
    QCOMPARE(usage[u"input_tokens"].toInt(), prefix[u"usage"][u"input_tokens"].toInt() + prefillTokens);
    QCOMPARE(server.stats().billed.cacheRead, written);
}

void tst_LocalProvider::hostedProfiles()
{
    const QStringList names = LatencyProfile::names();
    for (const QString &name : {u"hosted"_s, u"hosted-fast"_s, u"hosted-slow"_s, u"hosted-long-doc"_s, u"local-gpu"_s,
                                u"instant"_s}) {
        QVERIFY2(names.contains(name), qPrintable(name));
        QCOMPARE(LatencyProfile::byName(name).value().name, name);
    }
    // The profile table's short-prompt first-token figures: rtt + overhead (+ a few ms of prefill).
    const auto firstToken = [](const QString &name) {
        const LatencyProfile p = LatencyProfile::byName(name).value();
        return p.rttMs + p.overheadMs;
    };
    QCOMPARE(firstToken(u"hosted"_s), 700);
    QCOMPARE(firstToken(u"hosted-fast"_s), 300);
    QCOMPARE(firstToken(u"hosted-slow"_s), 1700);
    QCOMPARE(LatencyProfile::byName(u"hosted-fast").value().prefillTokensPerSec, 20000.0);
    QCOMPARE(LatencyProfile::byName(u"hosted-fast").value().decodeTokensPerSec, 80.0);
    QCOMPARE(LatencyProfile::byName(u"hosted-slow").value().prefillTokensPerSec, 10000.0);

    // And over the wire: no sooner than the model says, the fast one before the slow one.
    const auto ttft = [&](const QByteArray &profile) {
        return post(u"v1/chat/completions"_s, streamBody(u"Profile probe %1."_s.arg(QString::fromLatin1(profile)), {{u"max_tokens"_s, 2}}),
                    {{"X-Headstart-Profile", profile}})
            .ttftMs();
    };
    const qint64 fast = ttft("hosted-fast");
    const qint64 slow = ttft("hosted-slow");
    QVERIFY2(fast >= 300 && slow >= 1700 && fast < slow, qPrintable(u"fast %1 ms, slow %2 ms"_s.arg(fast).arg(slow)));
}

QTEST_GUILESS_MAIN(tst_LocalProvider)
#include "tst_localprovider.moc"
