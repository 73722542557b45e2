// The local provider's wire formats over real loopback sockets: the tokenizer, health, the model
// list and malformed requests, deterministic answers (seed, temperature), max_tokens, Chinese,
// our system prompt never in the answer, OpenAI's chunks, usage and interleaved choices. Its
// other suites: tst_localproviderlatency (the latency and cache model), tst_localproviderfaults,
// tst_localproviderhttp (framing, robustness, the executable), tst_localproviderbilling and
// tst_localprovidercontinuation. Requests are built and replies read by
// tests/support/localproviderwire.h, never with llm/.

#include "support/localprovidersuite.h"
#include "support/localproviderwire.h"

#include "localprovider/serverthread.h"
#include "localprovider/tokenizer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace LocalProvider;
using namespace TestSupport::Wire;
using namespace Qt::StringLiterals;

class tst_LocalProvider : public QObject, private TestSupport::LocalProviderSuite
{
    Q_OBJECT

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
};

void tst_LocalProvider::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
    QCOMPARE(m_local.server().url().scheme(), u"http"_s);
    QCOMPARE(m_local.server().url().path(), u"/"_s);
}

void tst_LocalProvider::tokenizer_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("tokens");
    QTest::addRow("words") << u"The quick brown fox."_s
                           << QStringList{u"The"_s, u" quick"_s, u" brown"_s, u" fox"_s, u"."_s};
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
    QTest::addRow("n too large") << u"v1/chat/completions"_s << chatBody(u"x"_s, {{u"n"_s, 9}});
    QTest::addRow("max_tokens 0") << u"v1/chat/completions"_s << chatBody(u"x"_s, {{u"max_tokens"_s, 0}});
    QTest::addRow("bad role") << u"v1/chat/completions"_s
                              << QByteArray(
                                     R"({"model":"headstart-local","messages":[{"role":"robot","content":"x"}]})");
    QTest::addRow("stream_options without stream")
        << u"v1/chat/completions"_s
        << chatBody(u"x"_s, {{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}});
    QTest::addRow("anthropic max_tokens missing")
        << u"v1/messages"_s << QByteArray(R"({"model":"headstart-local","messages":[{"role":"user","content":"x"}]})");
    QTest::addRow("anthropic temperature") << u"v1/messages"_s << messagesBody({}, u"x"_s, {{u"temperature"_s, 1.5}});
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
    QCOMPARE(json(cutStream.events().at(cutStream.events().size() - 2).data)[u"choices"][0][u"finish_reason"]
                 .toString(),
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
    const int tokens = usageChunk(
                           post(u"v1/chat/completions"_s,
                                streamBody(prompt, {{u"stream_options"_s,
                                                     QJsonObject{{u"include_usage"_s, true}}}})))[u"prompt_tokens"]
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
        const QString anthropic = textOf(
            post(u"v1/messages"_s, messagesBody(system, user, {{u"seed"_s, seed}, {u"max_tokens"_s, 400}})));
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

    const Reply plain = post(u"v1/chat/completions"_s,
                             chatBody(u"Two ideas for a garden path made of stone."_s, {{u"n"_s, 2}}));
    QCOMPARE(plain.object()[u"choices"].toArray().size(), 2);
    QCOMPARE(plain.object()[u"choices"][1][u"message"][u"content"].toString(), textOf(r, 1));
}

QTEST_GUILESS_MAIN(tst_LocalProvider)
#include "tst_localprovider.moc"
