// Continuations at the local provider, over real loopback sockets: a prefill in each form
// (Anthropic's, DeepSeek's prefix, Qwen's partial, vLLM's continue_final_message, a plain last
// assistant message as llama.cpp takes it) goes on exactly where the fresh answer would, byte
// for byte; the flags that decide whether it continues; Anthropic's refusal of trailing
// whitespace; and the cache a continuation reads.

#include "support/localprovidersuite.h"
#include "support/localproviderwire.h"

#include "localprovider/serverthread.h"
#include "localprovider/tokenizer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTest>

#include <memory>
#include <utility>

using namespace LocalProvider;
using namespace TestSupport::Wire;
using namespace Qt::StringLiterals;

class tst_LocalProviderContinuation : public QObject, private TestSupport::LocalProviderSuite
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void continuation_data();
    void continuation();
    void continuationOfOtherText();
    void anthropicTrailingWhitespace_data();
    void anthropicTrailingWhitespace();
    void continuationFlags_data();
    void continuationFlags();
    void continuationReadsCache();
    void anthropicContinuationCache();
};

void tst_LocalProviderContinuation::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_LocalProviderContinuation::continuation_data()
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

void tst_LocalProviderContinuation::continuation()
{
    QFETCH(int, form);
    QFETCH(bool, stream);
    const Form f = Form(form);
    const QString path = pathFor(f);
    const QString system = u"You write short notes about harbors, bridges and markets."_s;
    const QString user =
        u"Write a note about the harbor at dawn, with boats, nets and gulls. Tag %1 %2."_s.arg(form).arg(stream);
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

void tst_LocalProviderContinuation::continuationOfOtherText()
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

void tst_LocalProviderContinuation::anthropicTrailingWhitespace_data()
{
    QTest::addColumn<QJsonValue>("content");
    QTest::addRow("space") << QJsonValue(u"The harbor at dawn is "_s);
    QTest::addRow("newline") << QJsonValue(u"The harbor\n"_s);
    QTest::addRow("blocks") << QJsonValue(QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"The"_s}},
                                                     QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u" harbor "_s}}});
}

void tst_LocalProviderContinuation::anthropicTrailingWhitespace()
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
    chat.append(
        QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"The harbor at dawn is "_s}, {u"prefix"_s, true}});
    openAi[u"messages"] = chat;
    QCOMPARE(post(u"v1/chat/completions"_s, QJsonDocument(openAi).toJson(QJsonDocument::Compact)).status, 200);
}

void tst_LocalProviderContinuation::continuationFlags_data()
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

void tst_LocalProviderContinuation::continuationFlags()
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

void tst_LocalProviderContinuation::continuationReadsCache()
{
    const QString system = document(u"continuation-cache"_s, 700);
    // Questions whose fresh answers are long enough to cut; found on the suite's own server, so
    // that the one under test has cached nothing yet (the text is the same on every server).
    QStringList questions;
    for (int i = 0; i < 40 && questions.size() < 2; ++i) {
        const QString q = u"What does the document say about harbor number %1?"_s.arg(i);
        if (answerOf(post(u"v1/chat/completions"_s, continuationBody(Form::Prefix, system, q, {}, true))).deltas.size()
            >= 220)
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
             qPrintable(u"cached %1 of %2, prompt alone %3"_s.arg(rest.cachedTokens)
                            .arg(rest.promptTokens)
                            .arg(prefix.promptTokens)));
    QCOMPARE(rest.cachedTokens, rest.promptTokens / 64 * 64);
    const BilledTokens foreground = server.stats().billedByPurpose.value(u"foreground"_s);
    QCOMPARE(foreground.cacheRead, rest.cachedTokens);
    QCOMPARE(foreground.inputUncached, rest.promptTokens - rest.cachedTokens);

    // A cancelled request leaves what it had generated in the cache too.
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "decode=100");
    std::unique_ptr<QNetworkReply> reply(
        m_nam.post(req, continuationBody(Form::Prefix, system, questions[1], {}, true)));
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

void tst_LocalProviderContinuation::anthropicContinuationCache()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const QString doc = document(u"anthropic-continuation"_s, 1400);
    const auto ask = [&](const QString &prefill, int maxTokens) {
        QJsonObject o = json(
            messagesBody(QJsonArray{cached(doc)}, u"Summarize the document."_s, {{u"max_tokens"_s, maxTokens}}));
        if (!prefill.isNull()) {
            QJsonArray messages = o[u"messages"].toArray();
            messages.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, prefill}});
            o[u"messages"] = messages;
        }
        return request(server.url(), "POST", u"v1/messages"_s, QJsonDocument(o).toJson(QJsonDocument::Compact))
            .object();
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

QTEST_GUILESS_MAIN(tst_LocalProviderContinuation)
#include "tst_localprovidercontinuation.moc"
