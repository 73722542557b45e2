// Compiled prompt templates: the static prefix (system prompt, tools, document) is encoded once
// and shared byte for byte by the warm-up, the prefetch and the real request, for both wire
// formats; rendering equals encoding the equivalent request from scratch; placeholders and
// fingerprints; ProviderRequest sends a rendered body as is.
// Over 600 lines: 29 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/prompts/prompttemplate.h"

#include "llm/jsonwriter.h"
#include "llm/providerrequest.h"
#include "llm/requestencoder.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QSet>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <memory>

using Llm::ApiFormat;
using Llm::ChatMessage;
using Llm::Role;
using Prefetch::CompiledPrompt;
using Prefetch::DocumentAction;
using Prefetch::GenerationParams;
using Prefetch::PromptTemplate;
using Prefetch::RenderedRequest;
using Prefetch::TemplateValues;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Llm::ApiFormat)
Q_DECLARE_METATYPE(Prefetch::DocumentAction)

namespace {

const QString Document = QStringLiteral(
    "# Quarterly notes\n\nThe \"prefix cache\" keeps the first blocks.\tTabs, back\\slashes, {braces} "
    "and a {document} placeholder that must stay text.\n中文段落：静态前缀必须逐字节相同。 Emoji 🚀.");

const QString ChineseDocument = QStringLiteral(
    "第一章 缓存\n\n提示缓存按字节前缀命中：系统提示、工具定义和文档必须放在最前面，"
    "而且在预热、预取和真正的请求之间逐字节相同。用户的选区、指令和输入放在最后。\n"
    "第二章 预取\n\n当用户把指针停在按钮上时，我们提前开始请求，并在点击时接管已经在流动的回答。");

Llm::ProviderProfile profileFor(ApiFormat format, const QString &id = QStringLiteral("test"))
{
    Llm::ProviderProfile p;
    p.id = id;
    p.displayName = QStringLiteral("Test provider");
    p.format = format;
    p.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9/v1"));
    p.model = QStringLiteral("test-model");
    return p;
}

const char *formatName(ApiFormat format)
{
    return format == ApiFormat::OpenAiChat ? "openai" : "anthropic";
}

QByteArray commonPrefix(const QByteArray &a, const QByteArray &b)
{
    qsizetype n = 0;
    while (n < a.size() && n < b.size() && a.at(n) == b.at(n))
        ++n;
    return a.left(n);
}

// Text as it appears inside a JSON string on the wire.
QByteArray escaped(const QString &text)
{
    QByteArray out;
    Llm::JsonWriter::appendEscaped(out, text.toUtf8());
    return out.mid(1, out.size() - 2);
}

QByteArray expectedFingerprint(const QString &providerId, const QUrl &endpoint, QByteArrayView bytes)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(providerId.toUtf8());
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(endpoint.toEncoded());
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(bytes);
    return hash.result().left(16);
}

CompiledPrompt compileDocument(const Llm::ProviderProfile &profile, const QString &document)
{
    auto compiled = Prefetch::documentTemplate().compile(profile, Prefetch::documentValues(document));
    if (!compiled) {
        qWarning("compile failed: %s", qPrintable(compiled.error().detail()));
        return {};
    }
    return *compiled;
}

RenderedRequest rendered(const std::expected<RenderedRequest, Llm::Error> &result)
{
    if (!result) {
        qWarning("render failed: %s", qPrintable(result.error().detail()));
        return {};
    }
    return *result;
}

QJsonObject parse(const QByteArray &body)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("invalid JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

// A one-shot HTTP server on loopback that records the request body and answers with a short
// OpenAI event stream.
class RecordingServer : public QObject
{
public:
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }
    QByteArray body() const { return m_body; }
    bool isDone() const { return m_done; }

    RecordingServer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            QTcpSocket *socket = m_server.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onData(socket); });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        });
    }

private:
    void onData(QTcpSocket *socket)
    {
        m_request += socket->readAll();
        const qsizetype headerEnd = m_request.indexOf("\r\n\r\n");
        if (headerEnd < 0 || m_done)
            return;
        qsizetype length = -1;
        for (const QByteArray &line : m_request.left(headerEnd).split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        if (length < 0 || m_request.size() < headerEnd + 4 + length)
            return;
        m_body = m_request.mid(headerEnd + 4, length);
        m_done = true;
        const QByteArray events =
            "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}]}\n\n"
            "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
            "data: [DONE]\n\n";
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\nContent-Length: "
                      + QByteArray::number(events.size()) + "\r\n\r\n" + events);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    QByteArray m_request;
    QByteArray m_body;
    bool m_done = false;
};

} // namespace

class tst_PromptTemplate : public QObject
{
    Q_OBJECT

private slots:
    void sharedPrefix_data();
    void sharedPrefix();
    void renderEqualsEncodeRequest_data();
    void renderEqualsEncodeRequest();
    void chatAndWorkflowTemplates_data();
    void chatAndWorkflowTemplates();
    void toolsAreStatic_data();
    void toolsAreStatic();
    void documentChangesPrefix_data();
    void documentChangesPrefix();
    void fingerprints_data();
    void fingerprints();
    void placeholders_data();
    void placeholders();
    void missingPlaceholders_data();
    void missingPlaceholders();
    void invalidLayouts();
    void chineseDocument_data();
    void chineseDocument();
    void hugeDocumentIsNotEncodedAgain_data();
    void hugeDocumentIsNotEncodedAgain();
    void warmUp_data();
    void warmUp();
    void estimateTokens_data();
    void estimateTokens();
    void compiledFor();
    void chatReusesTheDocumentsCompiledPrefix_data();
    void chatReusesTheDocumentsCompiledPrefix();
    void streamSendsRenderedBody();
};

void tst_PromptTemplate::sharedPrefix_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addColumn<DocumentAction>("realAction");
    QTest::addColumn<QString>("selection");
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        const char *f = formatName(format);
        QTest::addRow("%s: same action", f) << format << DocumentAction::Summarize << QString();
        QTest::addRow("%s: rewrite selection", f) << format << DocumentAction::RewriteSelection
                                                  << QStringLiteral("The \"prefix cache\" keeps the first blocks.");
        QTest::addRow("%s: translate document", f) << format << DocumentAction::Translate << QString();
        QTest::addRow("%s: explain selection", f)
            << format << DocumentAction::ExplainSelection << QStringLiteral("静态前缀");
        QTest::addRow("%s: continue writing", f) << format << DocumentAction::ContinueWriting << QString();
    }
}

void tst_PromptTemplate::sharedPrefix()
{
    QFETCH(ApiFormat, format);
    QFETCH(DocumentAction, realAction);
    QFETCH(QString, selection);

    // Warm-up when the document opens, a prefetch on hover over Summarize, then the action the
    // user actually ran, with other parameters: the provider caches by exact byte prefix, so
    // all three must agree up to and including the document.
    const CompiledPrompt compiled = compileDocument(profileFor(format), Document);
    QVERIFY(!compiled.isNull());
    const RenderedRequest warmUp = rendered(compiled.warmupRequest());
    GenerationParams prefetchParams;
    prefetchParams.maxTokens = 512;
    const RenderedRequest prefetch = rendered(
        Prefetch::renderAction(compiled, DocumentAction::Summarize, {}, {}, prefetchParams));
    GenerationParams realParams;
    realParams.maxTokens = 2048;
    realParams.temperature = 0.3;
    const RenderedRequest real = rendered(
        Prefetch::renderAction(compiled, realAction, selection, QStringLiteral("German"), realParams));
    QVERIFY(!warmUp.body.isEmpty() && !prefetch.body.isEmpty() && !real.body.isEmpty());

    const QByteArray shared = commonPrefix(commonPrefix(warmUp.body, prefetch.body), real.body);
    QVERIFY(shared.startsWith(compiled.prefix().bytes()));
    QVERIFY2(shared.contains(escaped(Prefetch::systemPrompt())), shared.constData());
    QVERIFY(shared.contains(escaped(Document)));
    QVERIFY(compiled.prefix().bytes().contains(escaped(Document)));
    QVERIFY(!shared.contains("max_tokens"));
    QVERIFY(!shared.contains("temperature"));
    if (format == ApiFormat::AnthropicMessages) {
        // Breakpoints after the system prompt and after the document, both inside the shared bytes.
        QCOMPARE(shared.count("cache_control"), 2);
        QVERIFY(shared.lastIndexOf("cache_control") > shared.indexOf(escaped(Document)));
    }
    for (const RenderedRequest *r : {&warmUp, &prefetch, &real}) {
        QVERIFY(r->body.startsWith(compiled.prefix().bytes()));
        QVERIFY(!parse(r->body).isEmpty());
    }
    QCOMPARE(parse(warmUp.body).value(QLatin1String("max_tokens")).toInt(), 1);
    QCOMPARE(parse(prefetch.body).value(QLatin1String("max_tokens")).toInt(), 512);
    QCOMPARE(parse(real.body).value(QLatin1String("max_tokens")).toInt(), 2048);
    if (realAction == DocumentAction::Summarize)
        QVERIFY(prefetch.fingerprint != real.fingerprint); // other parameters, other answer
}

void tst_PromptTemplate::renderEqualsEncodeRequest_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addColumn<DocumentAction>("action");
    QTest::addColumn<QString>("selection");
    QTest::addColumn<QString>("language");
    const QList<std::pair<const char *, DocumentAction>> actions = {{"summarize", DocumentAction::Summarize},
                                                                    {"continue", DocumentAction::ContinueWriting},
                                                                    {"rewrite", DocumentAction::RewriteSelection},
                                                                    {"translate", DocumentAction::Translate},
                                                                    {"explain", DocumentAction::ExplainSelection}};
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        for (const auto &[name, action] : actions) {
            QTest::addRow("%s: %s, selection", formatName(format), name)
                << format << action << QStringLiteral("a {selection} with \"quotes\"\nand 中文")
                << QStringLiteral("简体中文");
            if (action == DocumentAction::Summarize || action == DocumentAction::ContinueWriting
                || action == DocumentAction::Translate)
                QTest::addRow("%s: %s, no selection", formatName(format), name)
                    << format << action << QString() << QString();
        }
    }
}

void tst_PromptTemplate::renderEqualsEncodeRequest()
{
    QFETCH(ApiFormat, format);
    QFETCH(DocumentAction, action);
    QFETCH(QString, selection);
    QFETCH(QString, language);

    Llm::ProviderProfile profile = profileFor(format);
    profile.encodeOptions.useMaxCompletionTokens = true;
    const CompiledPrompt compiled = compileDocument(profile, Document);
    GenerationParams params;
    params.maxTokens = 300;
    params.temperature = 0.7;
    params.seed = 11;
    const RenderedRequest r = rendered(Prefetch::renderAction(compiled, action, selection, language, params));

    Llm::ChatRequest expected = Prefetch::buildActionRequest(action, Document, selection, profile.model, language);
    expected.maxTokens = 300;
    expected.temperature = 0.7;
    expected.seed = 11;
    QCOMPARE(r.request, expected);
    const auto body = Llm::encodeRequest(format, expected, profile.encodeOptions, profile.displayName);
    QVERIFY(body.has_value());
    QCOMPARE(r.body, *body);
    // The engine's fingerprint of the unencoded request is the rendered one.
    QCOMPARE(r.fingerprint, Prefetch::requestFingerprint(profile, expected));

    // The instruction is the last message and carries the dynamic values.
    const QString instruction = r.request.messages.last().content;
    QCOMPARE(r.request.messages.size(), 2);
    QCOMPARE(r.request.staticMessageCount, 1);
    if (action == DocumentAction::RewriteSelection || action == DocumentAction::ExplainSelection
        || (action == DocumentAction::Translate && !selection.isEmpty()))
        QVERIFY(instruction.endsWith(selection));
    if (action == DocumentAction::Translate)
        QVERIFY(instruction.contains(
            language.isEmpty() ? Prefetch::automaticTranslateTarget(selection.isEmpty() ? Document : selection)
                               : language));
    QVERIFY(!instruction.contains(QLatin1Char('{')) || selection.contains(QLatin1Char('{')));
}

void tst_PromptTemplate::chatAndWorkflowTemplates_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addColumn<int>("kind"); // 0 chat, 1 chat on a document, 2 workflow step
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        QTest::addRow("%s: chat", formatName(format)) << format << 0;
        QTest::addRow("%s: chat on a document", formatName(format)) << format << 1;
        QTest::addRow("%s: workflow step", formatName(format)) << format << 2;
    }
}

void tst_PromptTemplate::chatAndWorkflowTemplates()
{
    QFETCH(ApiFormat, format);
    QFETCH(int, kind);
    const Llm::ProviderProfile profile = profileFor(format);
    const PromptTemplate &t = kind == 2 ? Prefetch::workflowStepTemplate() : Prefetch::chatTemplate(kind == 1);
    TemplateValues staticValues;
    if (kind == 1)
        staticValues.insert(QStringLiteral("document"), Document);
    if (kind == 2)
        staticValues.insert(QStringLiteral("system"), QStringLiteral("You draft project proposals from a form."));
    const auto compiled = t.compile(profile, staticValues);
    QVERIFY(compiled.has_value());

    const QList<ChatMessage> history = kind == 2 ? QList<ChatMessage>()
                                                 : QList<ChatMessage>{{Role::User, QStringLiteral("Hi")},
                                                                      {Role::Assistant,
                                                                       QStringLiteral("Hello! What shall we do?")}};
    const QString key = kind == 2 ? QStringLiteral("prompt") : QStringLiteral("message");
    GenerationParams params;
    params.maxTokens = 200;
    // The draft prefetched during a typing pause and the message finally sent.
    for (const QString &text : {QStringLiteral("Which sections are too long?"), QStringLiteral("哪些部分太长？")}) {
        const TemplateValues values{{key, text}};
        const RenderedRequest r = rendered(compiled->render(values, params, history));
        const auto request = t.request(profile.model, staticValues, values, params, history);
        QVERIFY(request.has_value());
        QCOMPARE(r.request, *request);
        QCOMPARE(r.request.messages.last().content, text);
        QCOMPARE(r.request.messages.size(), r.request.staticMessageCount + history.size() + 1);
        // The history's last answer is where the next turn's cached part will end.
        QCOMPARE(r.request.cacheBreakpoint, history.isEmpty() ? -1 : r.request.staticMessageCount + history.size() - 1);
        QCOMPARE(r.body, *Llm::encodeRequest(format, *request, profile.encodeOptions));
        QVERIFY(r.body.startsWith(compiled->prefix().bytes()));
        if (kind == 1)
            QVERIFY(compiled->prefix().bytes().contains(escaped(Document)));
    }
    if (kind == 2) {
        // A workflow step has no place for a history.
        const auto refused = compiled->render({{key, QStringLiteral("x")}}, params,
                                              {{Role::User, QStringLiteral("h")}});
        QVERIFY(!refused);
        QCOMPARE(refused.error().code(), Llm::Error::Code::InvalidRequest);
    }
}

void tst_PromptTemplate::toolsAreStatic_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addRow("openai") << ApiFormat::OpenAiChat;
    QTest::addRow("anthropic") << ApiFormat::AnthropicMessages;
}

void tst_PromptTemplate::toolsAreStatic()
{
    QFETCH(ApiFormat, format);
    const PromptTemplate t = PromptTemplate()
                                 .addSystem(QStringLiteral("You are an editor of {product}."))
                                 .addTools({{QStringLiteral("search"), QStringLiteral("Search the document"),
                                             R"({"type":"object","properties":{"q":{"type":"string"}}})"}})
                                 .addSystem(QStringLiteral("House style: short."))
                                 .addStaticMessage(Role::User, QStringLiteral("{document}"))
                                 .addDynamicMessage(Role::User, QStringLiteral("{question}"));
    const auto compiled = t.compile(profileFor(format), {{QStringLiteral("product"), QStringLiteral("Headstart")},
                                                         {QStringLiteral("document"), Document}});
    QVERIFY(compiled.has_value());
    QCOMPARE(compiled->staticRequest().system,
             QStringLiteral("You are an editor of Headstart.\n\nHouse style: short."));
    QCOMPARE(compiled->staticRequest().tools.size(), 1);
    // A text that is one placeholder shares the value's buffer.
    QVERIFY(compiled->staticRequest().messages.first().content.constData() == Document.constData());
    const QByteArray prefix = compiled->prefix().bytes().toByteArray();
    QVERIFY(prefix.contains("\"search\""));
    QVERIFY(prefix.indexOf("\"search\"") < prefix.indexOf(escaped(Document)));
    const RenderedRequest a = rendered(compiled->render({{QStringLiteral("question"), QStringLiteral("A?")}}));
    const RenderedRequest b = rendered(compiled->render({{QStringLiteral("question"), QStringLiteral("B?")}}));
    QVERIFY(commonPrefix(a.body, b.body).startsWith(prefix));
    if (format == ApiFormat::AnthropicMessages)
        QCOMPARE(prefix.count("cache_control"), 3);
}

void tst_PromptTemplate::documentChangesPrefix_data()
{
    toolsAreStatic_data();
}

void tst_PromptTemplate::documentChangesPrefix()
{
    QFETCH(ApiFormat, format);
    const Llm::ProviderProfile profile = profileFor(format);
    const CompiledPrompt a = compileDocument(profile, Document);
    const CompiledPrompt again = compileDocument(profile, QString(Document)); // an equal copy
    QString edited = Document;
    edited[edited.size() - 1] = u'!'; // one character at the very end
    const CompiledPrompt b = compileDocument(profile, edited);
    QVERIFY(!a.isNull() && !again.isNull() && !b.isNull());

    QCOMPARE(again.prefix().bytes(), a.prefix().bytes());
    QCOMPARE(again.prefixFingerprint(), a.prefixFingerprint());
    QVERIFY(b.prefix().bytes() != a.prefix().bytes());
    QVERIFY(b.prefixFingerprint() != a.prefixFingerprint());
    QCOMPARE(a.prefixFingerprint().size(), 16);
    // The same action on the edited document is another request.
    QVERIFY(rendered(Prefetch::renderAction(a, DocumentAction::Summarize, {})).fingerprint
            != rendered(Prefetch::renderAction(b, DocumentAction::Summarize, {})).fingerprint);
    QCOMPARE(rendered(Prefetch::renderAction(a, DocumentAction::Summarize, {})).fingerprint,
             rendered(Prefetch::renderAction(again, DocumentAction::Summarize, {})).fingerprint);
}

void tst_PromptTemplate::fingerprints_data()
{
    toolsAreStatic_data();
}

void tst_PromptTemplate::fingerprints()
{
    QFETCH(ApiFormat, format);
    const Llm::ProviderProfile profile = profileFor(format);
    const CompiledPrompt compiled = compileDocument(profile, Document);
    QCOMPARE(compiled.prefixFingerprint(),
             expectedFingerprint(profile.id, profile.endpoint(), compiled.prefix().bytes()));

    // A rendered body's fingerprint is the documented formula, and the one the engine computes
    // from the unencoded request; every tail gives its own.
    auto expectedBody = [&](const QByteArray &body) {
        QCryptographicHash prefix(QCryptographicHash::Sha256);
        prefix.addData(profile.id.toUtf8());
        prefix.addData(QByteArrayView("\0", 1));
        prefix.addData(profile.endpoint().toEncoded());
        prefix.addData(QByteArrayView("\0", 1));
        prefix.addData(compiled.prefix().bytes());
        QCryptographicHash hash(QCryptographicHash::Sha256);
        hash.addData(prefix.result());
        hash.addData(QByteArrayView(body).sliced(compiled.prefix().bytes().size()));
        return hash.result().left(16);
    };
    QSet<QByteArray> seen;
    for (int length = 0; length < 140; ++length) {
        const QString selection(length, QLatin1Char('x'));
        const RenderedRequest r = rendered(
            Prefetch::renderAction(compiled, DocumentAction::ExplainSelection, selection));
        QCOMPARE(r.fingerprint, expectedBody(r.body));
        QCOMPARE(Prefetch::requestFingerprint(profile, r.request), r.fingerprint);
        seen.insert(r.fingerprint);
    }
    QCOMPARE(seen.size(), 140);
    const RenderedRequest warmUp = rendered(compiled.warmupRequest());
    QCOMPARE(warmUp.fingerprint, expectedBody(warmUp.body));
    QCOMPARE(Prefetch::requestFingerprint(profile, warmUp.request), warmUp.fingerprint);

    // The same body to another provider or endpoint is another request.
    const RenderedRequest here = rendered(Prefetch::renderAction(compiled, DocumentAction::Summarize, {}));
    const CompiledPrompt elsewhere = compileDocument(profileFor(format, QStringLiteral("other")), Document);
    const RenderedRequest there = rendered(Prefetch::renderAction(elsewhere, DocumentAction::Summarize, {}));
    QCOMPARE(there.body, here.body);
    QVERIFY(there.fingerprint != here.fingerprint);
    QVERIFY(elsewhere.prefixFingerprint() != compiled.prefixFingerprint());
    Llm::ProviderProfile otherUrl = profile;
    otherUrl.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:10/v1"));
    QVERIFY(
        rendered(Prefetch::renderAction(compileDocument(otherUrl, Document), DocumentAction::Summarize, {})).fingerprint
        != here.fingerprint);
}

void tst_PromptTemplate::placeholders_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QString>("filled");

    QTest::addRow("two") << QStringLiteral("{a} and {b}") << QStringList{u"a"_s, u"b"_s}
                         << QStringLiteral("A and {b-value}");
    QTest::addRow("repeated") << QStringLiteral("{a}{a}") << QStringList{u"a"_s} << QStringLiteral("AA");
    QTest::addRow("escaped braces") << QStringLiteral("{{a}} is {a}") << QStringList{u"a"_s}
                                    << QStringLiteral("{a} is A");
    QTest::addRow("not a name") << QStringLiteral("{ a } {a-b} {} {") << QStringList{}
                                << QStringLiteral("{ a } {a-b} {} {");
    QTest::addRow("unclosed") << QStringLiteral("x {a") << QStringList{} << QStringLiteral("x {a");
    QTest::addRow("json in the text") << QStringLiteral(R"(Answer as {"ok":true} for {a}.)") << QStringList{u"a"_s}
                                      << QStringLiteral(R"(Answer as {"ok":true} for A.)");
    QTest::addRow("chinese around") << QStringLiteral("请把{a}翻译成{lang_2}") << QStringList{u"a"_s, u"lang_2"_s}
                                    << QStringLiteral("请把A翻译成中文");
    QTest::addRow("no placeholder") << QStringLiteral("plain") << QStringList{} << QStringLiteral("plain");
    QTest::addRow("empty") << QString() << QStringList{} << QString();
}

void tst_PromptTemplate::placeholders()
{
    QFETCH(QString, text);
    QFETCH(QStringList, names);
    QFETCH(QString, filled);
    const Prefetch::TemplateText t(text);
    QCOMPARE(t.source(), text);
    QCOMPARE(t.placeholders(), names);
    // A value is inserted verbatim, never scanned for placeholders itself.
    const TemplateValues values{{u"a"_s, u"A"_s}, {u"b"_s, u"{b-value}"_s}, {u"lang_2"_s, u"中文"_s}};
    const auto result = t.fill(values);
    QVERIFY(result.has_value());
    QCOMPARE(*result, filled);
}

void tst_PromptTemplate::missingPlaceholders_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addColumn<bool>("atCompile");
    QTest::addColumn<QString>("name");
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        QTest::addRow("%s: static value", formatName(format)) << format << true << QStringLiteral("document");
        QTest::addRow("%s: dynamic value", formatName(format)) << format << false << QStringLiteral("instruction");
    }
}

void tst_PromptTemplate::missingPlaceholders()
{
    QFETCH(ApiFormat, format);
    QFETCH(bool, atCompile);
    QFETCH(QString, name);
    const Llm::ProviderProfile profile = profileFor(format);
    std::expected<RenderedRequest, Llm::Error> result = std::unexpected(Llm::Error());
    if (atCompile) {
        const auto compiled = Prefetch::documentTemplate().compile(profile, {{QStringLiteral("documnet"), Document}});
        QVERIFY(!compiled);
        result = std::unexpected(compiled.error());
    } else {
        const CompiledPrompt compiled = compileDocument(profile, Document);
        result = compiled.render({{QStringLiteral("selection"), QStringLiteral("x")}});
    }
    QVERIFY(!result);
    QCOMPARE(result.error().code(), Llm::Error::Code::InvalidRequest);
    QCOMPARE(result.error().provider(), profile.displayName);
    QVERIFY2(result.error().detail().contains(QLatin1Char('{') + name + QLatin1Char('}')),
             qPrintable(result.error().detail()));

    // Empty is a value; only absence is an error.
    const auto fromTemplate = Prefetch::documentTemplate().request(profile.model,
                                                                   {{QStringLiteral("document"), QString()}},
                                                                   {{QStringLiteral("instruction"), QString()}});
    QVERIFY(fromTemplate.has_value());
    QVERIFY(!Prefetch::documentTemplate().request(profile.model, {}, {{QStringLiteral("instruction"), QString()}}));
}

void tst_PromptTemplate::invalidLayouts()
{
    const Llm::ProviderProfile profile = profileFor(ApiFormat::OpenAiChat);
    // A static segment after a dynamic one would put varying bytes in front of cached ones.
    const PromptTemplate staticLast = PromptTemplate()
                                          .addSystem(QStringLiteral("s"))
                                          .addDynamicMessage(Role::User, QStringLiteral("{q}"))
                                          .addStaticMessage(Role::User, QStringLiteral("doc"));
    auto compiled = staticLast.compile(profile, {});
    QVERIFY(!compiled);
    QCOMPARE(compiled.error().code(), Llm::Error::Code::InvalidRequest);
    QVERIFY(!staticLast.request(profile.model, {}, {{QStringLiteral("q"), QStringLiteral("x")}}));

    // The encoder's own checks apply at compile time.
    Llm::ProviderProfile noModel = profile;
    noModel.model.clear();
    QVERIFY(!Prefetch::documentTemplate().compile(noModel, Prefetch::documentValues(Document)));
    QVERIFY(CompiledPrompt().render({}).error().code() == Llm::Error::Code::InvalidRequest);
    QVERIFY(!CompiledPrompt().warmupRequest());
}

void tst_PromptTemplate::chineseDocument_data()
{
    toolsAreStatic_data();
}

void tst_PromptTemplate::chineseDocument()
{
    QFETCH(ApiFormat, format);
    const CompiledPrompt compiled = compileDocument(profileFor(format), ChineseDocument);
    QVERIFY(!compiled.isNull());
    // Raw UTF-8 on the wire, not \u escapes, and the same bytes in every request.
    const QByteArray utf8 = escaped(ChineseDocument);
    QVERIFY(compiled.prefix().bytes().contains(utf8));
    const RenderedRequest a = rendered(
        Prefetch::renderAction(compiled, DocumentAction::Translate, {}, QStringLiteral("English")));
    const RenderedRequest b = rendered(
        Prefetch::renderAction(compiled, DocumentAction::ExplainSelection, QStringLiteral("提示缓存")));
    QVERIFY(commonPrefix(a.body, b.body).contains(utf8));
    const QJsonArray messages = parse(b.body).value(QLatin1String("messages")).toArray();
    QVERIFY(messages.last().toObject().value(QLatin1String("content")).toString().endsWith(QStringLiteral("提示缓存")));
    // One token per Han character: at least as many as the document has.
    qsizetype han = 0;
    for (QChar c : ChineseDocument)
        han += c.script() == QChar::Script_Han ? 1 : 0;
    QVERIFY(compiled.estimatedPrefixTokens() >= han);
    QVERIFY(compiled.estimatedPrefixTokens() < han + 100);
    QVERIFY(b.estimatedPromptTokens > compiled.estimatedPrefixTokens());
}

void tst_PromptTemplate::hugeDocumentIsNotEncodedAgain_data()
{
    toolsAreStatic_data();
}

void tst_PromptTemplate::hugeDocumentIsNotEncodedAgain()
{
    QFETCH(ApiFormat, format);
    QString document;
    document.reserve(5'000'100);
    const QString paragraph = QStringLiteral("Paragraph about prompt caches and \"prefixes\", 中文也有。\n");
    while (document.size() < 5'000'000)
        document += paragraph;

    const CompiledPrompt compiled = compileDocument(profileFor(format), document);
    QVERIFY(!compiled.isNull());
    const QByteArrayView prefix = compiled.prefix().bytes();
    QVERIFY(prefix.size() > 5'000'000);
    const char *const prefixData = prefix.data();
    const QChar *const documentData = compiled.staticRequest().messages.first().content.constData();
    const quint64 encodes = Llm::prefixEncodeCount();

    QList<RenderedRequest> bodies;
    bodies.append(rendered(compiled.warmupRequest()));
    for (DocumentAction action : {DocumentAction::Summarize, DocumentAction::RewriteSelection,
                                  DocumentAction::Translate, DocumentAction::ExplainSelection})
        bodies.append(
            rendered(Prefetch::renderAction(compiled, action, QStringLiteral("Paragraph about prompt caches"))));

    // No static prefix was encoded again, the compiled one stayed where it was, and every body
    // is that prefix plus a short tail.
    QCOMPARE(Llm::prefixEncodeCount(), encodes);
    QVERIFY(compiled.prefix().bytes().data() == prefixData);
    for (const RenderedRequest &r : std::as_const(bodies)) {
        QVERIFY(r.body.size() > prefix.size());
        QVERIFY(r.body.size() - prefix.size() < 1024);
        QVERIFY(QByteArrayView(r.body).first(prefix.size()) == prefix);
        // The request describing it shares the document instead of copying it.
        QVERIFY(r.request.messages.first().content.constData() == documentData);
    }
    QVERIFY(compiled.estimatedPrefixTokens() > 1'000'000);
}

void tst_PromptTemplate::warmUp_data()
{
    toolsAreStatic_data();
}

void tst_PromptTemplate::warmUp()
{
    QFETCH(ApiFormat, format);
    const Llm::ProviderProfile profile = profileFor(format);
    const CompiledPrompt compiled = compileDocument(profile, Document);
    const RenderedRequest warmUp = rendered(compiled.warmupRequest());
    QCOMPARE(warmUp.request.maxTokens, 1);
    QCOMPARE(warmUp.request.messages.size(), warmUp.request.staticMessageCount);
    QCOMPARE(warmUp.body, *Llm::encodeRequest(format, warmUp.request));
    const QJsonObject root = parse(warmUp.body);
    QCOMPARE(root.value(QLatin1String("max_tokens")).toInt(), 1);
    QCOMPARE(root.value(QLatin1String("stream")).toBool(), true);
    QVERIFY(warmUp.body.endsWith(format == ApiFormat::OpenAiChat ? QByteArray(
                                     R"(],"stream":true,"stream_options":{"include_usage":true},"max_tokens":1})")
                                                                 : QByteArray(R"(],"max_tokens":1,"stream":true})")));
    QCOMPARE(warmUp.estimatedPromptTokens, compiled.estimatedPrefixTokens());

    // A template whose static part is only a system prompt: fine for OpenAI, but Anthropic
    // needs a message, so there is nothing to warm.
    const auto step = Prefetch::workflowStepTemplate().compile(profile,
                                                               {{QStringLiteral("system"), QStringLiteral("s")}});
    QVERIFY(step.has_value());
    QCOMPARE(step->warmupRequest().has_value(), format == ApiFormat::OpenAiChat);
}

void tst_PromptTemplate::estimateTokens_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("tokens");
    QTest::addRow("empty") << QString() << qint64(0);
    QTest::addRow("four latin") << QStringLiteral("abcd") << qint64(1);
    QTest::addRow("five latin") << QStringLiteral("abcde") << qint64(2);
    QTest::addRow("han") << QStringLiteral("中文") << qint64(2);
    QTest::addRow("mixed") << QStringLiteral("中文 abc") << qint64(3);
    QTest::addRow("kana and hangul") << QStringLiteral("カタカナ한국어") << qint64(7);
    QTest::addRow("full-width punctuation") << QStringLiteral("，。！") << qint64(3);
    QTest::addRow("extension B") << QStringLiteral("𠀀𠀁") << qint64(2);
    QTest::addRow("emoji") << QStringLiteral("🚀") << qint64(1);
}

void tst_PromptTemplate::estimateTokens()
{
    QFETCH(QString, text);
    QFETCH(qint64, tokens);
    QCOMPARE(Prefetch::estimateTokens(text), tokens);
}

void tst_PromptTemplate::compiledFor()
{
    const Llm::ProviderProfile profile = profileFor(ApiFormat::OpenAiChat);
    const CompiledPrompt compiled = compileDocument(profile, Document);
    QVERIFY(compiled.isFor(profile));
    QVERIFY(!CompiledPrompt().isFor(profile));
    Llm::ProviderProfile p = profile;
    p.model = QStringLiteral("other");
    QVERIFY(!compiled.isFor(p));
    p = profile;
    p.format = ApiFormat::AnthropicMessages;
    QVERIFY(!compiled.isFor(p));
    p = profile;
    p.encodeOptions.includeUsage = false;
    QVERIFY(!compiled.isFor(p));
    p = profile;
    p.apiKey = QStringLiteral("a key does not change the request");
    QVERIFY(compiled.isFor(p));
    p.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1/v1"));
    QVERIFY(!compiled.isFor(p)); // another endpoint
    QVERIFY(compiled.target() == profile.target());
}

void tst_PromptTemplate::chatReusesTheDocumentsCompiledPrefix_data()
{
    QTest::addColumn<ApiFormat>("format");
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages})
        QTest::addRow("%s", formatName(format)) << format;
}

void tst_PromptTemplate::chatReusesTheDocumentsCompiledPrefix()
{
    QFETCH(ApiFormat, format);
    const Llm::ProviderProfile profile = profileFor(format);
    const CompiledPrompt document = compileDocument(profile, Document);
    const quint64 encodedBefore = Llm::prefixEncodeCount();
    const auto chat = document.withDynamicPartOf(Prefetch::chatTemplate(true));
    QVERIFY(chat);
    QCOMPARE(Llm::prefixEncodeCount(), encodedBefore); // the document is not encoded again
    const QList<Llm::ChatMessage> history{{Llm::Role::User, QStringLiteral("Earlier question")},
                                          {Llm::Role::Assistant, QStringLiteral("Earlier answer")}};
    const TemplateValues message{{QStringLiteral("message"), QStringLiteral("What does it say about caches?")}};
    const RenderedRequest reused = rendered(chat->render(message, {}, history));
    const auto direct = Prefetch::chatTemplate(true).compile(profile, Prefetch::documentValues(Document));
    QVERIFY(direct);
    const RenderedRequest expected = rendered(direct->render(message, {}, history));
    QCOMPARE(reused.body, expected.body);
    QCOMPARE(reused.fingerprint, expected.fingerprint);
    QCOMPARE(chat->prefixFingerprint(), document.prefixFingerprint()); // one warm-up serves both

    // A template with another static part cannot borrow the prefix.
    const auto plain = document.withDynamicPartOf(Prefetch::chatTemplate(false));
    QVERIFY(!plain);
    QCOMPARE(plain.error().code(), Llm::Error::Code::InvalidRequest);
}

void tst_PromptTemplate::streamSendsRenderedBody()
{
    RecordingServer server;
    QVERIFY(server.listen());
    Llm::ProviderProfile profile = profileFor(ApiFormat::OpenAiChat);
    profile.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(server.port()));
    const CompiledPrompt compiled = compileDocument(profile, Document);
    const RenderedRequest r = rendered(Prefetch::renderAction(compiled, DocumentAction::Summarize, {}));

    QNetworkAccessManager network;
    Llm::StreamOptions options;
    options.encodedBody = r.body;
    // The request only describes the body; a changed copy shows it is not encoded again.
    Llm::ChatRequest description = r.request;
    description.messages.last().content = QStringLiteral("not sent");
    Llm::ProviderRequest stream(&network, profile, description, options);
    QSignalSpy finished(&stream, &Llm::ProviderRequest::finished);
    QSignalSpy failed(&stream, &Llm::ProviderRequest::failed);
    stream.start();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, 10000);
    QCOMPARE(failed.count(), 0);
    QCOMPARE(stream.text(), QStringLiteral("ok"));
    QVERIFY(server.isDone());
    QCOMPARE(server.body(), r.body);
}

QTEST_GUILESS_MAIN(tst_PromptTemplate)
#include "tst_prompttemplate.moc"
