// Over 600 lines: 30 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "llm/jsonwriter.h"
#include "llm/requestencoder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <limits>

using Llm::ApiFormat;
using Llm::ChatMessage;
using Llm::ChatRequest;
using Llm::Role;

Q_DECLARE_METATYPE(Llm::ApiFormat)
Q_DECLARE_METATYPE(Llm::ChatRequest)
Q_DECLARE_METATYPE(Llm::EncodeOptions)
Q_DECLARE_METATYPE(Llm::ContinuationStyle)

namespace {

const QString Document = QStringLiteral(
    "# Release notes\n\nThe \"prefix cache\" keeps the first 4 096 tokens.\tTabs, back\\slashes,\n"
    "中文段落：静态前缀必须逐字节相同。 Emoji 🚀 and a control \x01 char.");

ChatRequest baseRequest(const QString &question, int maxTokens)
{
    ChatRequest r;
    r.model = QStringLiteral("test-model");
    r.system = QStringLiteral("You are a careful editor.");
    r.tools = {{QStringLiteral("search"), QStringLiteral("Search the document"),
                R"({"type":"object","properties":{"q":{"type":"string"}},"required":["q"]})"},
               {QStringLiteral("count_words"), QString(), {}}};
    r.messages = {{Role::User, Document}, {Role::User, question}};
    r.staticMessageCount = 1;
    r.maxTokens = maxTokens;
    return r;
}

QByteArray encode(ApiFormat format, const ChatRequest &r, const Llm::EncodeOptions &options = {})
{
    auto body = Llm::encodeRequest(format, r, options, QStringLiteral("Test"));
    if (!body) {
        qWarning("encode failed: %s", qPrintable(body.error().detail()));
        return {};
    }
    return *body;
}

QByteArray commonPrefix(const QByteArray &a, const QByteArray &b)
{
    qsizetype n = 0;
    while (n < a.size() && n < b.size() && a.at(n) == b.at(n))
        ++n;
    return a.left(n);
}

// The document as it appears inside a JSON string on the wire.
QByteArray escapedDocument()
{
    QByteArray out;
    Llm::JsonWriter::appendEscaped(out, Document.toUtf8());
    return out.mid(1, out.size() - 2);
}

QJsonObject parse(const QByteArray &body)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("invalid JSON: %s in %s", qPrintable(error.errorString()), body.constData());
    return doc.object();
}

} // namespace

class tst_RequestEncoder : public QObject
{
    Q_OBJECT

private slots:
    void historyBreakpointMovesWithTheConversation();
    void oneHourCacheLifetime();
    void promptCacheKeyOnlyWhereUsed();
    void staticPrefixIsShared_data();
    void staticPrefixIsShared();
    void exactBytesOpenAi();
    void exactBytesAnthropic();
    void optionalFields();
    void anthropicBreakpoints_data();
    void anthropicBreakpoints();
    void anthropicSystemMessages();
    void anthropicRejectsSeveralChoices();
    void invalidRequests_data();
    void invalidRequests();
    void escapingRoundTrips_data();
    void escapingRoundTrips();
    void numbers();
    void writerNesting();
    void prefixThenTail_data();
    void prefixThenTail();
    void onePrefixManyTails_data();
    void onePrefixManyTails();
    void warmUpHasNoDynamicPart_data();
    void warmUpHasNoDynamicPart();
    void staticPartIsNotReadAgain();
    void prefixMismatchRefused();
    void tailErrors();
    void continuationForms_data();
    void continuationForms();
    void continuationRefusals();
};

void tst_RequestEncoder::staticPrefixIsShared_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addRow("openai") << ApiFormat::OpenAiChat;
    QTest::addRow("anthropic") << ApiFormat::AnthropicMessages;
}

void tst_RequestEncoder::staticPrefixIsShared()
{
    QFETCH(ApiFormat, format);
    // A prefetch, the real request (other question, other limit, a temperature) and a cache
    // warm-up (max_tokens 1): the provider caches by exact prefix, so all three must share
    // every byte up to and including the document.
    const QByteArray prefetch = encode(format, baseRequest(QStringLiteral("Summarise it."), 512));
    ChatRequest realRequest = baseRequest(QStringLiteral("把它翻译成英文。"), 2048);
    realRequest.temperature = 0.3;
    const QByteArray real = encode(format, realRequest);
    const QByteArray warmUp = encode(format, baseRequest(QStringLiteral("."), 1));
    QVERIFY(!prefetch.isEmpty() && !real.isEmpty() && !warmUp.isEmpty());

    const QByteArray shared = commonPrefix(commonPrefix(prefetch, real), warmUp);
    const QByteArray document = escapedDocument();
    QVERIFY2(shared.contains(document), shared.constData());
    QVERIFY(shared.contains("You are a careful editor."));
    QVERIFY(shared.contains("count_words"));
    // Nothing that differs between them is written before the document.
    QVERIFY(!shared.contains("max_tokens"));
    QVERIFY(!shared.contains("temperature"));
    if (format == ApiFormat::AnthropicMessages) {
        // The last breakpoint (after the document) lies inside the shared bytes too.
        QVERIFY(shared.lastIndexOf("cache_control") > shared.indexOf(document));
        QCOMPARE(shared.count("cache_control"), 3);
    }
    // Deterministic: the same request encodes to the same bytes.
    QCOMPARE(encode(format, baseRequest(QStringLiteral("Summarise it."), 512)), prefetch);
}

void tst_RequestEncoder::exactBytesOpenAi()
{
    ChatRequest r;
    r.model = QStringLiteral("gpt-x");
    r.system = QStringLiteral("Be brief.");
    r.tools = {{QStringLiteral("f"), QStringLiteral("does f"), R"({"type":"object"})"}};
    r.messages = {{Role::User, QStringLiteral("doc")},
                  {Role::Assistant, QStringLiteral("ok")},
                  {Role::User, QStringLiteral("q")}};
    r.staticMessageCount = 1;
    r.maxTokens = 100;
    r.temperature = 0.7;
    r.seed = 42;
    r.choiceCount = 2;
    QCOMPARE(
        encode(ApiFormat::OpenAiChat, r),
        QByteArray(
            R"({"model":"gpt-x","tools":[{"type":"function","function":{"name":"f","description":"does f","parameters":{"type":"object"}}}],)"
            R"("messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"doc"},{"role":"assistant","content":"ok"},{"role":"user","content":"q"}],)"
            R"("stream":true,"stream_options":{"include_usage":true},"max_tokens":100,"temperature":0.7,"seed":42,"n":2})"));
}

void tst_RequestEncoder::exactBytesAnthropic()
{
    ChatRequest r;
    r.model = QStringLiteral("claude-x");
    r.system = QStringLiteral("Be brief.");
    r.tools = {{QStringLiteral("f"), QStringLiteral("does f"), R"({"type":"object"})"},
               {QStringLiteral("g"), QString(), {}}};
    r.messages = {{Role::User, QStringLiteral("doc")},
                  {Role::Assistant, QStringLiteral("ok")},
                  {Role::User, QStringLiteral("q")}};
    r.staticMessageCount = 2;
    r.maxTokens = 100;
    r.temperature = 0.5;
    r.seed = 42; // no such parameter at Anthropic: dropped
    QCOMPARE(
        encode(ApiFormat::AnthropicMessages, r),
        QByteArray(
            R"({"model":"claude-x","tools":[{"name":"f","description":"does f","input_schema":{"type":"object"}},)"
            R"({"name":"g","input_schema":{"type":"object","properties":{}},"cache_control":{"type":"ephemeral"}}],)"
            R"("system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral"}}],)"
            R"("messages":[{"role":"user","content":"doc"},)"
            R"({"role":"assistant","content":[{"type":"text","text":"ok","cache_control":{"type":"ephemeral"}}]},)"
            R"({"role":"user","content":"q"}],"max_tokens":100,"stream":true,"temperature":0.5})"));
}

void tst_RequestEncoder::optionalFields()
{
    ChatRequest r;
    r.model = QStringLiteral("m");
    r.messages = {{Role::User, QStringLiteral("hi")}};
    r.maxTokens = 7;
    QCOMPARE(
        encode(ApiFormat::OpenAiChat, r),
        QByteArray(
            R"({"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true},"max_tokens":7})"));
    Llm::EncodeOptions options;
    options.useMaxCompletionTokens = true;
    options.includeUsage = false;
    QCOMPARE(
        encode(ApiFormat::OpenAiChat, r, options),
        QByteArray(
            R"({"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true,"max_completion_tokens":7})"));
    r.stream = false;
    QCOMPARE(encode(ApiFormat::OpenAiChat, r),
             QByteArray(R"({"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":7})"));
    QCOMPARE(encode(ApiFormat::AnthropicMessages, r),
             QByteArray(R"({"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":7})"));
}

void tst_RequestEncoder::anthropicBreakpoints_data()
{
    QTest::addColumn<bool>("tools");
    QTest::addColumn<bool>("system");
    QTest::addColumn<int>("staticCount");
    QTest::addColumn<QStringList>("expected"); // the JSON paths carrying cache_control

    const QString tool = QStringLiteral("tools[last]");
    const QString sys = QStringLiteral("system[last]");
    QTest::addRow("all three") << true << true << 2 << QStringList{tool, sys, QStringLiteral("messages[1]")};
    QTest::addRow("no tools") << false << true << 1 << QStringList{sys, QStringLiteral("messages[0]")};
    QTest::addRow("no system") << true << false << 1 << QStringList{tool, QStringLiteral("messages[0]")};
    QTest::addRow("no static messages") << true << true << 0 << QStringList{tool, sys};
    QTest::addRow("everything static") << true << true << 3 << QStringList{tool, sys, QStringLiteral("messages[2]")};
    QTest::addRow("nothing cacheable") << false << false << 0 << QStringList{};
}

void tst_RequestEncoder::anthropicBreakpoints()
{
    QFETCH(bool, tools);
    QFETCH(bool, system);
    QFETCH(int, staticCount);
    QFETCH(QStringList, expected);

    ChatRequest r = baseRequest(QStringLiteral("q"), 10);
    r.messages = {{Role::User, QStringLiteral("a")},
                  {Role::Assistant, QStringLiteral("b")},
                  {Role::User, QStringLiteral("c")}};
    r.staticMessageCount = staticCount;
    if (!tools)
        r.tools.clear();
    if (!system)
        r.system.clear();
    const QByteArray body = encode(ApiFormat::AnthropicMessages, r);
    QVERIFY(body.count("cache_control") <= 4);
    QCOMPARE(body.count("cache_control"), expected.size());

    const QJsonObject root = parse(body);
    QStringList found;
    auto hasMark = [](const QJsonObject &o) { return o.contains(QLatin1String("cache_control")); };
    const QJsonArray toolArray = root.value(QLatin1String("tools")).toArray();
    for (qsizetype i = 0; i < toolArray.size(); ++i) {
        if (hasMark(toolArray.at(i).toObject()))
            found.append(i == toolArray.size() - 1 ? QStringLiteral("tools[last]")
                                                   : QStringLiteral("tools[%1]").arg(i));
    }
    const QJsonArray systemArray = root.value(QLatin1String("system")).toArray();
    for (qsizetype i = 0; i < systemArray.size(); ++i) {
        if (hasMark(systemArray.at(i).toObject()))
            found.append(i == systemArray.size() - 1 ? QStringLiteral("system[last]")
                                                     : QStringLiteral("system[%1]").arg(i));
    }
    const QJsonArray messages = root.value(QLatin1String("messages")).toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonValue content = messages.at(i).toObject().value(QLatin1String("content"));
        if (content.isArray() && hasMark(content.toArray().at(0).toObject()))
            found.append(QStringLiteral("messages[%1]").arg(i));
    }
    QCOMPARE(found, expected);
}

void tst_RequestEncoder::anthropicSystemMessages()
{
    // A system message in the static part joins the system blocks (the breakpoint moves to the
    // last of them); in the dynamic part it is refused with a clear reason.
    ChatRequest r = baseRequest(QStringLiteral("q"), 10);
    r.tools.clear();
    r.messages = {{Role::System, QStringLiteral("House style: short.")},
                  {Role::User, QStringLiteral("doc")},
                  {Role::User, QStringLiteral("q")}};
    r.staticMessageCount = 2;
    const QJsonObject root = parse(encode(ApiFormat::AnthropicMessages, r));
    const QJsonArray system = root.value(QLatin1String("system")).toArray();
    QCOMPARE(system.size(), 2);
    QCOMPARE(system.at(1).toObject().value(QLatin1String("text")).toString(), QStringLiteral("House style: short."));
    QVERIFY(!system.at(0).toObject().contains(QLatin1String("cache_control")));
    QVERIFY(system.at(1).toObject().contains(QLatin1String("cache_control")));
    QCOMPARE(root.value(QLatin1String("messages")).toArray().size(), 2);

    r.messages.append({Role::System, QStringLiteral("late instruction")});
    const auto refused = Llm::encodeRequest(ApiFormat::AnthropicMessages, r, {}, QStringLiteral("Anthropic"));
    QVERIFY(!refused);
    QCOMPARE(refused.error().code(), Llm::Error::Code::InvalidRequest);
    QVERIFY(refused.error().detail().contains(QStringLiteral("system")));

    // OpenAI takes system messages anywhere.
    QVERIFY(Llm::encodeRequest(ApiFormat::OpenAiChat, r).has_value());
}

void tst_RequestEncoder::anthropicRejectsSeveralChoices()
{
    ChatRequest r = baseRequest(QStringLiteral("q"), 10);
    r.choiceCount = 3;
    const auto result = Llm::encodeRequest(ApiFormat::AnthropicMessages, r, {}, QStringLiteral("Anthropic"));
    QVERIFY(!result);
    QCOMPARE(result.error().code(), Llm::Error::Code::InvalidRequest);
    QCOMPARE(result.error().provider(), QStringLiteral("Anthropic"));
    QVERIFY(Llm::encodeRequest(ApiFormat::OpenAiChat, r).has_value());
}

void tst_RequestEncoder::invalidRequests_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addColumn<ChatRequest>("request");

    const ChatRequest good = baseRequest(QStringLiteral("q"), 10);
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        const char *f = format == ApiFormat::OpenAiChat ? "openai" : "anthropic";
        ChatRequest r = good;
        r.model.clear();
        QTest::addRow("%s: no model", f) << format << r;
        r = good;
        r.staticMessageCount = 3;
        QTest::addRow("%s: static count past the end", f) << format << r;
        r = good;
        r.staticMessageCount = -1;
        QTest::addRow("%s: negative static count", f) << format << r;
        r = good;
        r.maxTokens = 0;
        QTest::addRow("%s: zero max tokens", f) << format << r;
        r = good;
        r.choiceCount = 0;
        QTest::addRow("%s: zero choices", f) << format << r;
        r = good;
        r.temperature = std::numeric_limits<double>::quiet_NaN();
        QTest::addRow("%s: NaN temperature", f) << format << r;
        r = good;
        r.tools[0].parametersSchema = "{\"type\":";
        QTest::addRow("%s: broken schema", f) << format << r;
        r = good;
        r.tools[0].parametersSchema = "[1]";
        QTest::addRow("%s: schema not an object", f) << format << r;
        r = good;
        r.tools[1].name.clear();
        QTest::addRow("%s: nameless tool", f) << format << r;
        r = good;
        r.system.clear();
        r.messages.clear();
        r.staticMessageCount = 0;
        QTest::addRow("%s: nothing to send", f) << format << r;
    }
    ChatRequest empty = good;
    empty.messages[1].content.clear();
    QTest::addRow("anthropic: empty message") << ApiFormat::AnthropicMessages << empty;
}

void tst_RequestEncoder::invalidRequests()
{
    QFETCH(ApiFormat, format);
    QFETCH(ChatRequest, request);
    const auto result = Llm::encodeRequest(format, request, {}, QStringLiteral("P"));
    QVERIFY(!result);
    QCOMPARE(result.error().code(), Llm::Error::Code::InvalidRequest);
    QVERIFY(!result.error().detail().isEmpty());
}

void tst_RequestEncoder::escapingRoundTrips_data()
{
    QTest::addColumn<QString>("text");
    QTest::addRow("quotes and backslashes") << QStringLiteral("say \"hi\" \\ C:\\path\\ \"\\\"");
    QTest::addRow("whitespace controls") << QStringLiteral("a\nb\r\nc\td\be\ff");
    QString controls;
    for (char16_t c = 0; c < 0x20; ++c)
        controls.append(QChar(c));
    controls.append(QChar(0x7f));
    QTest::addRow("every control char") << controls;
    QTest::addRow("chinese") << QStringLiteral("静态前缀，逐字节相同。");
    QTest::addRow("emoji surrogate pair") << QStringLiteral("rocket 🚀 done");
    QTest::addRow("line separators") << QStringLiteral("a\u2028b\u2029c");
    QTest::addRow("slash and html") << QStringLiteral("</script><!-- & -->");
    QTest::addRow("empty") << QString();
}

void tst_RequestEncoder::escapingRoundTrips()
{
    QFETCH(QString, text);
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        ChatRequest r;
        r.model = text.isEmpty() ? QStringLiteral("m") : text;
        r.system = text;
        r.messages = {{Role::User, text.isEmpty() ? QStringLiteral("x") : text}};
        const QByteArray body = encode(format, r);
        const QJsonObject root = parse(body);
        QVERIFY(!root.isEmpty());
        QCOMPARE(root.value(QLatin1String("model")).toString(), r.model);
        const QJsonObject message = root.value(QLatin1String("messages")).toArray().last().toObject();
        QCOMPARE(message.value(QLatin1String("content")).toString(), r.messages.first().content);
        // Non-ASCII goes on the wire as raw UTF-8, not as \u escapes.
        for (const QChar c : text) {
            if (c.unicode() >= 0x80 && !c.isSurrogate())
                QVERIFY(body.contains(QString(c).toUtf8()));
        }
    }
}

void tst_RequestEncoder::numbers()
{
    auto temperature = [](double t) {
        ChatRequest r;
        r.model = QStringLiteral("m");
        r.messages = {{Role::User, QStringLiteral("x")}};
        r.temperature = t;
        const QByteArray body = encode(ApiFormat::OpenAiChat, r);
        const qsizetype at = body.indexOf("\"temperature\":") + 14;
        return body.mid(at, body.indexOf('}', at) - at);
    };
    QCOMPARE(temperature(0.7), QByteArray("0.7"));
    QCOMPARE(temperature(1.0), QByteArray("1"));
    QCOMPARE(temperature(0.0), QByteArray("0"));
    QCOMPARE(temperature(0.1 + 0.2), QByteArray("0.30000000000000004"));
    QCOMPARE(temperature(1e-7), QByteArray("1e-07"));

    Llm::JsonWriter w;
    w.beginArray()
        .value(std::numeric_limits<qint64>::min())
        .value(std::numeric_limits<qint64>::max())
        .value(std::numeric_limits<double>::infinity())
        .value(std::numeric_limits<double>::quiet_NaN())
        .value(-0.5)
        .endArray();
    QCOMPARE(w.data(), QByteArray("[-9223372036854775808,9223372036854775807,null,null,-0.5]"));
}

void tst_RequestEncoder::writerNesting()
{
    Llm::JsonWriter w;
    w.beginObject()
        .field("z", 1)
        .field("a", true)
        .key("arr")
        .beginArray()
        .beginObject()
        .endObject()
        .beginArray()
        .endArray()
        .nullValue()
        .value("s")
        .endArray()
        .key("raw")
        .rawValue(R"({"b":[1,2]})")
        .field("k\"ey", QStringLiteral("v"))
        .endObject();
    // (moc cannot read a backslash inside a raw string within a macro, hence the plain literal.)
    const QByteArray expected =
        "{\"z\":1,\"a\":true,\"arr\":[{},[],null,\"s\"],\"raw\":{\"b\":[1,2]},\"k\\\"ey\":\"v\"}";
    QCOMPARE(w.data(), expected);
    QVERIFY(!QJsonDocument::fromJson(w.data()).isNull());
}

void tst_RequestEncoder::prefixThenTail_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addColumn<ChatRequest>("request");
    QTest::addColumn<Llm::EncodeOptions>("options");

    Llm::EncodeOptions completionTokens;
    completionTokens.useMaxCompletionTokens = true;
    completionTokens.includeUsage = false;

    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        const char *f = format == ApiFormat::OpenAiChat ? "openai" : "anthropic";
        const ChatRequest base = baseRequest(QStringLiteral("Summarise it."), 512);
        QTest::addRow("%s: document and question", f) << format << base << Llm::EncodeOptions();
        QTest::addRow("%s: other options", f) << format << base << completionTokens;

        ChatRequest r = base;
        r.tools.clear();
        QTest::addRow("%s: no tools", f) << format << r << Llm::EncodeOptions();
        r = base;
        r.system.clear();
        QTest::addRow("%s: no system", f) << format << r << Llm::EncodeOptions();
        r = base;
        r.staticMessageCount = 0;
        QTest::addRow("%s: nothing static but tools and system", f) << format << r << Llm::EncodeOptions();
        r.tools.clear();
        r.system.clear();
        QTest::addRow("%s: nothing static at all", f) << format << r << Llm::EncodeOptions();
        r = base;
        r.staticMessageCount = r.messages.size();
        QTest::addRow("%s: everything static", f) << format << r << Llm::EncodeOptions();
        r = base;
        r.messages.append({Role::Assistant, QStringLiteral("Done.")});
        r.messages.append({Role::User, QStringLiteral("再短一点。")});
        r.temperature = 0.25;
        r.seed = 7;
        QTest::addRow("%s: conversation after the document", f) << format << r << Llm::EncodeOptions();
        r = base;
        r.messages.prepend({Role::System, QStringLiteral("House style: short.")});
        r.staticMessageCount = 2;
        QTest::addRow("%s: static system message", f) << format << r << Llm::EncodeOptions();
        r = base;
        r.stream = false;
        QTest::addRow("%s: not streamed", f) << format << r << Llm::EncodeOptions();
        r = base;
        r.messages = {{Role::User, QStringLiteral("doc")},
                      {Role::Assistant, QStringLiteral("ok")},
                      {Role::User, QStringLiteral("q")}};
        r.staticMessageCount = 2;
        QTest::addRow("%s: assistant turn static", f) << format << r << Llm::EncodeOptions();
    }
    ChatRequest several = baseRequest(QStringLiteral("q"), 64);
    several.choiceCount = 3;
    several.messages.append({Role::System, QStringLiteral("late instruction")});
    QTest::addRow("openai: n and a dynamic system message") << ApiFormat::OpenAiChat << several << Llm::EncodeOptions();
}

void tst_RequestEncoder::prefixThenTail()
{
    QFETCH(ApiFormat, format);
    QFETCH(ChatRequest, request);
    QFETCH(Llm::EncodeOptions, options);

    const QByteArray whole = encode(format, request, options);
    QVERIFY(!whole.isEmpty());
    QVERIFY(!parse(whole).isEmpty());

    const auto prefix = Llm::encodePrefix(format, request, options, QStringLiteral("Test"));
    QVERIFY(prefix.has_value());
    QCOMPARE(prefix->format(), format);
    QCOMPARE(prefix->staticMessageCount(), request.staticMessageCount);
    QVERIFY(whole.startsWith(prefix->bytes()));
    // Nothing that varies between requests sharing the prefix is in it.
    QVERIFY(!prefix->bytes().contains("max_tokens"));
    QVERIFY(!prefix->bytes().contains("\"stream\""));

    const auto body = Llm::encodeWithPrefix(*prefix, request);
    QVERIFY(body.has_value());
    QCOMPARE(*body, whole);
    // The one-shot form gives the same bytes.
    Llm::EncodedPrefix copy = *prefix;
    const auto moved = Llm::encodeWithPrefix(std::move(copy), request);
    QVERIFY(moved.has_value());
    QCOMPARE(*moved, whole);

    // The static part alone (no dynamic messages) encodes to the same prefix.
    ChatRequest staticOnly = request;
    staticOnly.messages.resize(request.staticMessageCount);
    staticOnly.maxTokens = 99;
    const auto again = Llm::encodePrefix(format, staticOnly, options, QStringLiteral("Test"));
    QVERIFY(again.has_value());
    QCOMPARE(again->bytes(), prefix->bytes());
}

void tst_RequestEncoder::onePrefixManyTails_data()
{
    staticPrefixIsShared_data();
}

void tst_RequestEncoder::onePrefixManyTails()
{
    QFETCH(ApiFormat, format);
    const ChatRequest first = baseRequest(QStringLiteral("Summarise it."), 512);
    const auto prefix = Llm::encodePrefix(format, first);
    QVERIFY(prefix.has_value());
    const QByteArray prefixBytes = prefix->bytes().toByteArray();
    const quint64 encodes = Llm::prefixEncodeCount();

    QList<ChatRequest> tails;
    tails.append(first);
    ChatRequest r = baseRequest(QStringLiteral("把它翻译成英文。"), 2048);
    r.temperature = 0.3;
    tails.append(r);
    r = baseRequest(QStringLiteral("Explain the second paragraph."), 64);
    r.messages.append({Role::Assistant, QStringLiteral("It is about caching.")});
    r.messages.append({Role::User, QStringLiteral("And the first?")});
    tails.append(r);
    r = baseRequest(QString(), 1);
    r.messages.removeLast(); // a warm-up
    tails.append(r);

    for (const ChatRequest &tail : std::as_const(tails)) {
        const auto body = Llm::encodeWithPrefix(*prefix, tail);
        QVERIFY(body.has_value());
        QCOMPARE(*body, encode(format, tail));
        QVERIFY(body->startsWith(prefixBytes));
    }
    // The prefix itself was neither changed nor encoded again by the tails (the encode() calls
    // above made their own, hence the count of them).
    QCOMPARE(prefix->bytes(), QByteArrayView(prefixBytes));
    QCOMPARE(Llm::prefixEncodeCount(), encodes + quint64(tails.size()));
}

void tst_RequestEncoder::warmUpHasNoDynamicPart_data()
{
    staticPrefixIsShared_data();
}

void tst_RequestEncoder::warmUpHasNoDynamicPart()
{
    QFETCH(ApiFormat, format);
    ChatRequest warmUp = baseRequest(QString(), 1);
    warmUp.messages.removeLast();
    QCOMPARE(warmUp.staticMessageCount, warmUp.messages.size());
    const auto prefix = Llm::encodePrefix(format, warmUp);
    QVERIFY(prefix.has_value());
    const auto body = Llm::encodeWithPrefix(*prefix, warmUp);
    QVERIFY(body.has_value());

    const QJsonObject root = parse(*body);
    QCOMPARE(root.value(QLatin1String("max_tokens")).toInt(), 1);
    const QJsonArray messages = root.value(QLatin1String("messages")).toArray();
    const QJsonValue last = messages.last().toObject().value(QLatin1String("content"));
    const QString lastText = last.isArray() ? last.toArray().at(0).toObject().value(QLatin1String("text")).toString()
                                            : last.toString();
    QCOMPARE(lastText, Document); // the document is the last message
    // Same bytes as a real request up to and including the document.
    const QByteArray real = encode(format, baseRequest(QStringLiteral("Summarise it."), 512));
    QVERIFY(real.startsWith(prefix->bytes()));
    QVERIFY(commonPrefix(real, *body).contains(escapedDocument()));
}

void tst_RequestEncoder::staticPartIsNotReadAgain()
{
    // The tail encoder trusts that the request's static part is the prefix's: a changed document
    // is not looked at (that is what makes rendering cheap). Callers keep them together.
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        const ChatRequest original = baseRequest(QStringLiteral("q"), 10);
        const auto prefix = Llm::encodePrefix(format, original);
        QVERIFY(prefix.has_value());
        ChatRequest edited = original;
        edited.messages[0].content = QStringLiteral("another document");
        const quint64 encodes = Llm::prefixEncodeCount();
        const auto body = Llm::encodeWithPrefix(*prefix, edited);
        QVERIFY(body.has_value());
        QCOMPARE(Llm::prefixEncodeCount(), encodes);
        QVERIFY(body->contains(escapedDocument()));
        QVERIFY(!body->contains("another document"));
    }
}

void tst_RequestEncoder::prefixMismatchRefused()
{
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        const ChatRequest r = baseRequest(QStringLiteral("q"), 10);
        const auto prefix = Llm::encodePrefix(format, r, {}, QStringLiteral("P"));
        QVERIFY(prefix.has_value());
        QCOMPARE(prefix->providerName(), QStringLiteral("P"));

        ChatRequest otherModel = r;
        otherModel.model = QStringLiteral("other-model");
        ChatRequest otherSplit = r;
        otherSplit.staticMessageCount = 0;
        ChatRequest tooShort = r;
        tooShort.messages.clear();
        for (const ChatRequest &bad : {otherModel, otherSplit, tooShort}) {
            const auto result = Llm::encodeWithPrefix(*prefix, bad);
            QVERIFY(!result);
            QCOMPARE(result.error().code(), Llm::Error::Code::InvalidRequest);
            QCOMPARE(result.error().provider(), QStringLiteral("P"));
        }
        const auto none = Llm::encodeWithPrefix(Llm::EncodedPrefix(), r);
        QVERIFY(!none);
        QCOMPARE(none.error().code(), Llm::Error::Code::InvalidRequest);
    }
}

void tst_RequestEncoder::tailErrors()
{
    // Problems of the dynamic part surface from the tail, with the prefix's provider name.
    ChatRequest r = baseRequest(QStringLiteral("q"), 10);
    r.messages.append({Role::System, QStringLiteral("late instruction")});
    const auto anthropic = Llm::encodePrefix(ApiFormat::AnthropicMessages, r, {}, QStringLiteral("Anthropic"));
    QVERIFY(anthropic.has_value());
    auto result = Llm::encodeWithPrefix(*anthropic, r);
    QVERIFY(!result);
    QVERIFY(result.error().detail().contains(QStringLiteral("system")));
    QCOMPARE(result.error().provider(), QStringLiteral("Anthropic"));

    ChatRequest bare;
    bare.model = QStringLiteral("m");
    bare.tools = r.tools;
    for (ApiFormat format : {ApiFormat::OpenAiChat, ApiFormat::AnthropicMessages}) {
        // Tools alone are a valid prefix but no request: the tail must bring a message.
        const auto prefix = Llm::encodePrefix(format, bare);
        QVERIFY(prefix.has_value());
        QVERIFY(!Llm::encodeWithPrefix(*prefix, bare));
        ChatRequest withMessage = bare;
        withMessage.messages = {{Role::User, QStringLiteral("hi")}};
        result = Llm::encodeWithPrefix(*prefix, withMessage);
        QVERIFY(result.has_value());
        QCOMPARE(*result, encode(format, withMessage));
        withMessage.maxTokens = 0;
        QVERIFY(!Llm::encodeWithPrefix(*prefix, withMessage));
    }
}

void tst_RequestEncoder::continuationForms_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addColumn<Llm::ContinuationStyle>("style");
    QTest::addColumn<QString>("marker");     // the member the last message carries, if any
    QTest::addColumn<bool>("continueFinal"); // vLLM's flags beside the messages
    using S = Llm::ContinuationStyle;
    QTest::addRow("openai, prefill") << ApiFormat::OpenAiChat << S::AssistantPrefill << QString() << false;
    QTest::addRow("openai, DeepSeek prefix")
        << ApiFormat::OpenAiChat << S::PrefixFlag << QStringLiteral("prefix") << false;
    QTest::addRow("openai, Qwen partial")
        << ApiFormat::OpenAiChat << S::PartialFlag << QStringLiteral("partial") << false;
    QTest::addRow("openai, vLLM") << ApiFormat::OpenAiChat << S::ContinueFinalMessage << QString() << true;
    QTest::addRow("anthropic, prefill") << ApiFormat::AnthropicMessages << S::AssistantPrefill << QString() << false;
}

void tst_RequestEncoder::continuationForms()
{
    QFETCH(ApiFormat, format);
    QFETCH(Llm::ContinuationStyle, style);
    QFETCH(QString, marker);
    QFETCH(bool, continueFinal);
    Llm::EncodeOptions options;
    options.continuation = style;
    ChatRequest r = baseRequest(QStringLiteral("Summarise it."), 200);
    const QByteArray plain = encode(format, r, options);
    r.continuation = QStringLiteral("The release keeps \"the first\" 4 096 tokens, 中文");
    const QByteArray continued = encode(format, r, options);
    QVERIFY(!plain.isEmpty() && !continued.isEmpty());
    // The static prefix and the question are the same bytes: the continuation reads the cache.
    const qsizetype shared = commonPrefix(plain, continued).size();
    QVERIFY(plain.indexOf("Summarise it.") < shared);

    const QJsonObject body = parse(continued);
    const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
    const QJsonObject last = messages.last().toObject();
    QCOMPARE(last.value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
    QCOMPARE(last.value(QStringLiteral("content")).toString(), r.continuation);
    QCOMPARE(messages.at(messages.size() - 2).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("Summarise it."));
    const QStringList expectedKeys = marker.isEmpty()
                                         ? QStringList{QStringLiteral("content"), QStringLiteral("role")}
                                         : QStringList{QStringLiteral("content"), marker, QStringLiteral("role")};
    QCOMPARE(last.keys(), expectedKeys);
    if (!marker.isEmpty())
        QCOMPARE(last.value(marker).toBool(), true);
    QCOMPARE(body.contains(QStringLiteral("continue_final_message")), continueFinal);
    QCOMPARE(body.contains(QStringLiteral("add_generation_prompt")), continueFinal);
    if (continueFinal) {
        QCOMPARE(body.value(QStringLiteral("continue_final_message")).toBool(), true);
        QCOMPARE(body.value(QStringLiteral("add_generation_prompt")).toBool(), false);
    }
    QCOMPARE(body.value(QStringLiteral("max_tokens")).toInt(), 200);
}

void tst_RequestEncoder::continuationRefusals()
{
    ChatRequest r = baseRequest(QStringLiteral("Summarise it."), 200);
    r.continuation = QStringLiteral("An answer");
    // OpenAI chat completions has no way to continue an answer.
    auto none = Llm::encodeRequest(ApiFormat::OpenAiChat, r, {}, QStringLiteral("Test"));
    QVERIFY(!none);
    QCOMPARE(none.error().code(), Llm::Error::Code::InvalidRequest);
    Llm::EncodeOptions options;
    options.continuation = Llm::ContinuationStyle::AssistantPrefill;
    QVERIFY(Llm::encodeRequest(ApiFormat::AnthropicMessages, r, options));
    // Anthropic (and so everyone, here) refuses a beginning that ends in white space.
    for (const QString &ending : {QStringLiteral(" "), QStringLiteral("\n"), QStringLiteral("\t")}) {
        r.continuation = QStringLiteral("An answer") + ending;
        QVERIFY(!Llm::encodeRequest(ApiFormat::AnthropicMessages, r, options));
        QVERIFY(!Llm::encodeRequest(ApiFormat::OpenAiChat, r, options));
    }
    r.continuation = QStringLiteral("An answer");
    r.choiceCount = 2;
    QVERIFY(!Llm::encodeRequest(ApiFormat::OpenAiChat, r, options));
}

void tst_RequestEncoder::historyBreakpointMovesWithTheConversation()
{
    // Turn 2 of a conversation: the document, one earlier exchange, the new question. The
    // earlier answer carries the fourth breakpoint; turn 3 sends the same bytes up to and
    // including that answer's text, and marks its own last answer instead.
    ChatRequest turn2 = baseRequest(QStringLiteral("And the second point?"), 100);
    turn2.messages = {{Role::User, Document},
                      {Role::User, QStringLiteral("What is the first point?")},
                      {Role::Assistant, QStringLiteral("The cache keeps 4 096 tokens.")},
                      {Role::User, QStringLiteral("And the second point?")}};
    turn2.cacheBreakpoint = 2;
    const QByteArray body2 = encode(ApiFormat::AnthropicMessages, turn2);
    QCOMPARE(body2.count("cache_control"), 4); // tools, system, document, history: Anthropic's limit
    const QJsonArray messages = parse(body2).value(u"messages").toArray();
    QCOMPARE(messages.size(), 4);
    const QJsonValue answerBlocks = messages.at(2).toObject().value(u"content");
    QVERIFY2(answerBlocks.isArray(), body2.constData());
    QCOMPARE(answerBlocks.toArray().at(0).toObject().value(u"cache_control").toObject().value(u"type").toString(),
             QStringLiteral("ephemeral"));
    QVERIFY(messages.at(3).toObject().value(u"content").isString()); // the new question: plain

    ChatRequest turn3 = turn2;
    turn3.messages.append({Role::Assistant, QStringLiteral("It is refreshed on every read.")});
    turn3.messages.append({Role::User, QStringLiteral("Thanks; and the third?")});
    turn3.cacheBreakpoint = 4;
    const QByteArray body3 = encode(ApiFormat::AnthropicMessages, turn3);
    QCOMPARE(body3.count("cache_control"), 4);
    // The bytes are the same through the document; after it the earlier answer is written as a
    // plain string again, the same text: Anthropic's cache compares the content up to a
    // breakpoint, not the JSON around it, so turn 3 reads all of turn 2's from the cache.
    QVERIFY(commonPrefix(body2, body3).contains(escapedDocument()));
    const QJsonArray messages3 = parse(body3).value(u"messages").toArray();
    QCOMPARE(messages3.at(2).toObject().value(u"content").toString(), QStringLiteral("The cache keeps 4 096 tokens."));
    QCOMPARE(messages3.at(4).toObject().value(u"content").toArray().at(0).toObject().value(u"text").toString(),
             QStringLiteral("It is refreshed on every read."));

    // Without a breakpoint, or with one on a static message, nothing more is marked; OpenAI
    // bodies never carry one.
    turn2.cacheBreakpoint = -1;
    QCOMPARE(encode(ApiFormat::AnthropicMessages, turn2).count("cache_control"), 3);
    turn2.cacheBreakpoint = 0;
    QCOMPARE(encode(ApiFormat::AnthropicMessages, turn2).count("cache_control"), 3);
    turn2.cacheBreakpoint = 2;
    QCOMPARE(encode(ApiFormat::OpenAiChat, turn2).count("cache_control"), 0);
}

void tst_RequestEncoder::oneHourCacheLifetime()
{
    ChatRequest r = baseRequest(QStringLiteral("Summarize."), 50);
    Llm::EncodeOptions longLived;
    longLived.longCacheLifetime = true;
    const QByteArray body = encode(ApiFormat::AnthropicMessages, r, longLived);
    QCOMPARE(body.count("cache_control"), 3);
    QCOMPARE(body.count(R"("cache_control":{"type":"ephemeral","ttl":"1h"})"), 3);
    QVERIFY(!encode(ApiFormat::AnthropicMessages, r).contains("ttl"));
    // Only Anthropic has breakpoints; the OpenAI body is the same with or without the option.
    QCOMPARE(encode(ApiFormat::OpenAiChat, r, longLived), encode(ApiFormat::OpenAiChat, r));
}

void tst_RequestEncoder::promptCacheKeyOnlyWhereUsed()
{
    ChatRequest r = baseRequest(QStringLiteral("Summarize."), 50);
    r.cacheKey = QStringLiteral("hs-0123abcd");
    Llm::EncodeOptions keyed;
    keyed.promptCacheKey = true;
    const QJsonObject body = parse(encode(ApiFormat::OpenAiChat, r, keyed));
    QCOMPARE(body.value(u"prompt_cache_key").toString(), QStringLiteral("hs-0123abcd"));
    // Not used by the profile, or no key: not sent (DeepSeek and Qwen reject unknown fields
    // nowhere, but a field they do not document is not ours to send). Anthropic has none.
    QVERIFY(!parse(encode(ApiFormat::OpenAiChat, r)).contains(u"prompt_cache_key"));
    QVERIFY(!encode(ApiFormat::AnthropicMessages, r, keyed).contains("prompt_cache_key"));
    r.cacheKey.clear();
    QVERIFY(!parse(encode(ApiFormat::OpenAiChat, r, keyed)).contains(u"prompt_cache_key"));
    // The key is in the tail: the static prefix of keyed and unkeyed requests is the same bytes.
    r.cacheKey = QStringLiteral("hs-0123abcd");
    const QByteArray withKey = encode(ApiFormat::OpenAiChat, r, keyed);
    const QByteArray without = encode(ApiFormat::OpenAiChat, r);
    QVERIFY(commonPrefix(withKey, without).contains(escapedDocument()));
}

QTEST_GUILESS_MAIN(tst_RequestEncoder)
#include "tst_requestencoder.moc"
