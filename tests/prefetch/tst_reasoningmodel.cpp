// Reasoning models: which model names think before they answer (ProviderProfile::thinksFirst),
// and the local provider's reasoning model, headstart-local-reasoner, read through the real
// decoders in both wire formats: its thinking comes first (DeepSeek's reasoning_content, an
// Anthropic thinking block), is billed as output, and leaves the answer exactly what it is
// without thinking; a continuation does not think again.
#include "support/localproviderfixture.h"
#include "llm/providerrequest.h"
#include "prefetch/engine.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

Q_DECLARE_METATYPE(Llm::ApiFormat)

namespace {

const QString Reasoner = QStringLiteral("headstart-local-reasoner");

Llm::ChatRequest question(const QString &model)
{
    Llm::ChatRequest r;
    r.model = model;
    r.system = QStringLiteral("You answer questions about gardens.");
    r.messages = {{Llm::Role::User, QStringLiteral("Which vegetables grow well on a small balcony in the shade?")}};
    r.maxTokens = 80;
    return r;
}

} // namespace

class tst_ReasoningModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void thinksFirst_data();
    void thinksFirst();
    void anthropicThinkingBudgetThinks();

    void thinkingComesFirstAndLeavesTheAnswer_data();
    void thinkingComesFirstAndLeavesTheAnswer();
    void continuationDoesNotThinkAgain();

private:
    Llm::ProviderProfile profile(Llm::ApiFormat format, const QByteArray &latency) const;
    // Streams `request` to the end; the events in order.
    QList<Llm::StreamEvent> stream(const Llm::ProviderProfile &profile, const Llm::ChatRequest &request,
                                   Llm::Usage *usage = nullptr);

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
};

void tst_ReasoningModel::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_ReasoningModel::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

Llm::ProviderProfile tst_ReasoningModel::profile(Llm::ApiFormat format, const QByteArray &latency) const
{
    Llm::ProviderProfile p = m_local.profile(latency);
    p.format = format;
    if (format == Llm::ApiFormat::AnthropicMessages)
        p.encodeOptions.continuation = Llm::ContinuationStyle::AssistantPrefill;
    return p;
}

QList<Llm::StreamEvent> tst_ReasoningModel::stream(const Llm::ProviderProfile &profile, const Llm::ChatRequest &request,
                                                   Llm::Usage *usage)
{
    Llm::ProviderRequest s(&m_network, profile, request);
    QList<Llm::StreamEvent> events;
    connect(&s, &Llm::ProviderRequest::eventReceived, this, [&events](const Llm::StreamEvent &e) { events.append(e); });
    QSignalSpy finished(&s, &Llm::ProviderRequest::finished);
    QSignalSpy failed(&s, &Llm::ProviderRequest::failed);
    s.start();
    if (!s.isDone())
        [&] { QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, 15000); }();
    if (!failed.isEmpty())
        qWarning("failed: %s", qPrintable(failed.first().first().value<Llm::Error>().message()));
    if (usage)
        *usage = s.usage();
    return finished.isEmpty() ? QList<Llm::StreamEvent>() : events;
}

void tst_ReasoningModel::thinksFirst_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("thinks");
    for (const char *name :
         {"deepseek-reasoner", "deepseek-r1", "deepseek/deepseek-r1", "deepseek-r1:7b", "deepseek-r1-distill-qwen-32b",
          "qwq-plus", "qwq:32b", "qwen3-235b-a22b-thinking-2507", "o1", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini",
          "gpt-oss-120b", "gpt-oss:20b", "magistral-medium-latest", "headstart-local-reasoner"})
        QTest::addRow("%s", name) << QString::fromLatin1(name) << true;
    for (const char *name : {"deepseek-chat", "qwen-turbo", "qwen-max", "gpt-4o", "gpt-4o-mini", "gpt-5-chat-latest",
                             "claude-sonnet-4-5", "claude-haiku-4-5", "llama3.1:8b", "headstart-local",
                             "headstart-local-small", "o", "pro1", "mistral-large-latest"})
        QTest::addRow("%s", name) << QString::fromLatin1(name) << false;
}

void tst_ReasoningModel::thinksFirst()
{
    QFETCH(QString, model);
    QFETCH(bool, thinks);
    Llm::ProviderProfile p = Llm::builtinProfile(u"local");
    QCOMPARE(p.thinksFirst(model), thinks);
    p.model = model;
    QCOMPARE(p.thinksFirst(), thinks); // the main model when none is named
}

void tst_ReasoningModel::anthropicThinkingBudgetThinks()
{
    Llm::ProviderProfile p = Llm::builtinProfile(u"anthropic");
    QVERIFY(!p.thinksFirst());
    p.encodeOptions.thinkingBudgetTokens = 2048;
    QVERIFY(p.thinksFirst());
    // The fast model is asked without thinking: the budget goes with the main model's requests.
    QVERIFY(!p.fastModel.isEmpty());
    QVERIFY(!p.thinksFirst(p.fastModel));
}

void tst_ReasoningModel::thinkingComesFirstAndLeavesTheAnswer_data()
{
    QTest::addColumn<Llm::ApiFormat>("format");
    QTest::addRow("openai") << Llm::ApiFormat::OpenAiChat;
    QTest::addRow("anthropic") << Llm::ApiFormat::AnthropicMessages;
}

void tst_ReasoningModel::thinkingComesFirstAndLeavesTheAnswer()
{
    QFETCH(Llm::ApiFormat, format);
    Llm::Usage usage;
    const QList<Llm::StreamEvent> events = stream(profile(format, "think=30"), question(Reasoner), &usage);
    QVERIFY(!events.isEmpty());
    QString reasoning, text;
    qsizetype firstText = -1, lastReasoning = -1;
    for (qsizetype i = 0; i < events.size(); ++i) {
        const Llm::StreamEvent &e = events.at(i);
        if (e.type == Llm::StreamEvent::Type::ReasoningDelta) {
            reasoning += e.text;
            lastReasoning = i;
        } else if (e.type == Llm::StreamEvent::Type::TextDelta) {
            text += e.text;
            if (firstText < 0)
                firstText = i;
        }
    }
    QVERIFY2(!reasoning.trimmed().isEmpty(), "no reasoning");
    QVERIFY2(!text.trimmed().isEmpty(), "no answer");
    QVERIFY2(lastReasoning < firstText, "the reasoning must all come before the answer");
    // Billed as output: the 30 tokens of thinking on top of the answer's.
    const QList<Llm::StreamEvent> plainEvents = stream(profile(format, "think=0"), question(Reasoner));
    QString plain;
    qsizetype plainReasoning = 0;
    for (const Llm::StreamEvent &e : plainEvents) {
        if (e.type == Llm::StreamEvent::Type::TextDelta)
            plain += e.text;
        plainReasoning += e.type == Llm::StreamEvent::Type::ReasoningDelta;
    }
    QCOMPARE(plainReasoning, 0);
    QCOMPARE(text, plain); // thinking does not change the answer
    Llm::Usage plainUsage;
    stream(profile(format, "think=0"), question(Reasoner), &plainUsage);
    QCOMPARE(usage.outputTokens, plainUsage.outputTokens + 30);
    if (format == Llm::ApiFormat::OpenAiChat)
        QCOMPARE(usage.reasoningTokens, 30);
}

void tst_ReasoningModel::continuationDoesNotThinkAgain()
{
    const Llm::ProviderProfile p = profile(Llm::ApiFormat::OpenAiChat, "think=30");
    Llm::ChatRequest whole = question(Reasoner);
    whole.maxTokens = 1024; // to its natural end, both times
    const QList<Llm::StreamEvent> fresh = stream(p, whole);
    QString answer;
    for (const Llm::StreamEvent &e : fresh) {
        if (e.type == Llm::StreamEvent::Type::TextDelta)
            answer += e.text;
    }
    QVERIFY(answer.size() > 20);
    Llm::ChatRequest continued = whole;
    // Cut before a space: a continuation never ends in white space (providers refuse it).
    const qsizetype cut = answer.indexOf(u' ', answer.size() / 2);
    QVERIFY(cut > 0);
    continued.continuation = answer.first(cut);
    QString rest;
    qsizetype reasoningEvents = 0;
    for (const Llm::StreamEvent &e : stream(p, continued)) {
        if (e.type == Llm::StreamEvent::Type::TextDelta)
            rest += e.text;
        reasoningEvents += e.type == Llm::StreamEvent::Type::ReasoningDelta;
    }
    QCOMPARE(reasoningEvents, 0);
    QCOMPARE(continued.continuation + rest, answer);
}

QTEST_MAIN(tst_ReasoningModel)
#include "tst_reasoningmodel.moc"
