// The local demo engine's answers have the shape of the action asked for and are made of the
// user's material only, never of our prompts: the app's own requests (prefetch/actionprompts)
// sent to the real local provider over loopback, in both wire formats.
#include "support/localproviderfixture.h"

#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"

#include <QNetworkAccessManager>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Prefetch;

Q_DECLARE_METATYPE(Llm::ApiFormat)

namespace {

// Markdown with a heading, a list and prose: the sentences a summary may pick from.
const QString Document = QStringLiteral(
    "# Harbor notes\n"
    "\n"
    "The harbor protects the fishing boats from the winter storms. Its stone walls break the waves before they "
    "reach the boats. The old walls were built of stone from the hills above the town.\n"
    "Every autumn the harbor master checks the walls for cracks. A cracked wall lets the waves through, and the "
    "boats knock against each other in the harbor. The town pays for the repairs of the walls.\n"
    "\n"
    "- Fishermen tie their boats twice before a storm.\n"
    "- Children watch the waves from the market square.\n"
    "\n"
    "In spring the boats leave the harbor early in the morning. They come back with fish for the market in the "
    "afternoon. Bread, fish and voices fill the square by the water. The market closes when the boats go out "
    "again. Visitors often ask why the walls are so high, and the harbor master shows them the marks of old "
    "storms on the stone.");

const QString ChineseDocument = QStringLiteral(
    "西湖的春天很美。湖边的柳树发芽了，游客很多，空气也很清新。早上的湖面很安静，只有几条小船。"
    "中午的时候，人们在湖边散步，孩子们在草地上玩。晚上的西湖灯光明亮，游客们在桥上看风景。");

QStringList wordsOf(const QString &text)
{
    static const QRegularExpression word(QStringLiteral("[\\p{L}\\p{N}]+(?:['’-][\\p{L}\\p{N}]+)*"));
    QStringList words;
    for (auto it = word.globalMatch(text); it.hasNext();)
        words.append(it.next().captured().toLower());
    return words;
}

QSet<QString> wordSet(const QString &text)
{
    const QStringList words = wordsOf(text);
    return QSet<QString>(words.cbegin(), words.cend());
}

// The answer's sentences: split after ".", "!" or "?" and a space.
QStringList sentencesOf(const QString &text)
{
    static const QRegularExpression end(QStringLiteral("(?<=[.!?])\\s+"));
    return text.split(end, Qt::SkipEmptyParts);
}

qsizetype countHan(const QString &text)
{
    qsizetype n = 0;
    for (const QChar c : text)
        n += c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF ? 1 : 0;
    return n;
}

// "missing" when every word of `answer` is one of `allowed`, else the first that is not.
QString firstForeignWord(const QString &answer, const QSet<QString> &allowed)
{
    for (const QString &w : wordsOf(answer)) {
        if (!allowed.contains(w))
            return w;
    }
    return {};
}

} // namespace

class tst_DemoAnswers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void summaryIsTheDocumentsCentralSentences_data();
    void summaryIsTheDocumentsCentralSentences();
    void summaryIsDeterministicAndCutsAsAPrefix();
    void continuationUsesTheDocumentsWords();
    void rewriteReworksTheSelection();
    void explanationUsesTheSelectionAndItsNeighbours();
    void translateGoesToTheOtherLanguage_data();
    void translateGoesToTheOtherLanguage();
    void wizardOutlineIsAList();
    void wizardIntroductionIsAParagraph();
    void wizardTitlesAreShortLines();
    void chatUsesTheMessagesWords();

private:
    Llm::ProviderProfile profile(Llm::ApiFormat format = Llm::ApiFormat::OpenAiChat) const;
    QString answer(DocumentAction action, const QString &document, const QString &selection = {},
                   const QString &language = {}, Llm::ApiFormat format = Llm::ApiFormat::OpenAiChat);
    QString wizardAnswer(int step, const QVariantMap &data);

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
};

void tst_DemoAnswers::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

Llm::ProviderProfile tst_DemoAnswers::profile(Llm::ApiFormat format) const
{
    Llm::ProviderProfile p = m_local.profile();
    p.format = format;
    return p;
}

QString tst_DemoAnswers::answer(DocumentAction action, const QString &document, const QString &selection,
                                const QString &language, Llm::ApiFormat format)
{
    const Llm::ProviderProfile p = profile(format);
    Llm::ChatRequest request = buildActionRequest(action, document, selection, p.model, language);
    request.maxTokens = 1024;
    return TestSupport::freshText(&m_network, p, request);
}

QString tst_DemoAnswers::wizardAnswer(int step, const QVariantMap &data)
{
    const Llm::ProviderProfile p = profile();
    const auto compiled = compileWizard(p);
    if (!compiled)
        return QStringLiteral("<no wizard prompt>");
    GenerationParams params;
    params.maxTokens = wizardMaxTokens(step);
    const auto rendered = compiled->render({{QStringLiteral("prompt"), wizardStepPrompt(step, data)}}, params);
    if (!rendered)
        return QStringLiteral("<not rendered>");
    return TestSupport::freshText(&m_network, p, *rendered);
}

void tst_DemoAnswers::summaryIsTheDocumentsCentralSentences_data()
{
    QTest::addColumn<Llm::ApiFormat>("format");
    QTest::addRow("openai") << Llm::ApiFormat::OpenAiChat;
    QTest::addRow("anthropic") << Llm::ApiFormat::AnthropicMessages;
}

void tst_DemoAnswers::summaryIsTheDocumentsCentralSentences()
{
    QFETCH(Llm::ApiFormat, format);
    const QString text = answer(DocumentAction::Summarize, Document, {}, {}, format);
    const QStringList sentences = sentencesOf(text);
    QVERIFY2(sentences.size() >= 2 && sentences.size() <= 6, qPrintable(text));
    const QString flat = Document.simplified();
    qsizetype last = -1;
    for (const QString &s : sentences) {
        const qsizetype at = flat.indexOf(s);
        QVERIFY2(at >= 0, qPrintable(s));      // a sentence of the document, as it is
        QVERIFY2(at > last, qPrintable(text)); // in document order
        last = at;
    }
    // The heading is no sentence, and the sentence sharing the most words with the rest wins a place.
    QVERIFY(!text.contains(QLatin1String("Harbor notes")));
    QVERIFY2(text.contains(QLatin1String("harbor master checks the walls")) || text.contains(QLatin1String("protects")),
             qPrintable(text));
    // Not one word of our prompts that the document does not have.
    const QSet<QString> documentWords = wordSet(Document);
    const QString instructions = systemPrompt() + u' ' + actionInstruction(DocumentAction::Summarize, false).source();
    for (const QString &w : wordsOf(instructions)) {
        if (!documentWords.contains(w))
            QVERIFY2(!wordSet(text).contains(w), qPrintable(w));
    }
}

void tst_DemoAnswers::summaryIsDeterministicAndCutsAsAPrefix()
{
    const Llm::ProviderProfile p = profile();
    const Llm::ChatRequest request = buildActionRequest(DocumentAction::Summarize, Document, {}, p.model);
    const QString first = TestSupport::freshText(&m_network, p, request);
    QCOMPARE(TestSupport::freshText(&m_network, p, request).toUtf8(), first.toUtf8());
    Llm::ChatRequest shorter = request;
    shorter.maxTokens = 9;
    const QString cut = TestSupport::freshText(&m_network, p, shorter);
    QVERIFY2(!cut.isEmpty() && cut.size() < first.size() && first.startsWith(cut), qPrintable(cut));
}

void tst_DemoAnswers::continuationUsesTheDocumentsWords()
{
    const QString text = answer(DocumentAction::ContinueWriting, Document);
    QVERIFY(!text.isEmpty());
    const QString foreign = firstForeignWord(text, wordSet(Document));
    QVERIFY2(foreign.isEmpty(), qPrintable(foreign + QStringLiteral(" in ") + text));
}

void tst_DemoAnswers::rewriteReworksTheSelection()
{
    const QString selection = QStringLiteral("Every autumn the harbor master checks the walls for cracks. A cracked "
                                             "wall lets the waves through, and the boats knock against each other in "
                                             "the harbor. The town pays for the repairs of the walls.");
    const QString text = answer(DocumentAction::RewriteSelection, Document, selection);
    QVERIFY2(text != selection, qPrintable(text));
    // The selection's own words, each as often as there: reordered, not invented.
    QStringList mine = wordsOf(text);
    QStringList theirs = wordsOf(selection);
    std::sort(mine.begin(), mine.end());
    std::sort(theirs.begin(), theirs.end());
    QCOMPARE(mine, theirs);
    QCOMPARE(sentencesOf(text).size(), 3);
}

void tst_DemoAnswers::explanationUsesTheSelectionAndItsNeighbours()
{
    const QString selection = QStringLiteral("Its stone walls break the waves before they reach the boats.");
    const QString text = answer(DocumentAction::ExplainSelection, Document, selection);
    QVERIFY2(text.startsWith(selection), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("The harbor protects the fishing boats from the winter storms.")),
             qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("The old walls were built of stone")), qPrintable(text));
    QVERIFY2(firstForeignWord(text, wordSet(Document)).isEmpty(), qPrintable(text));
}

void tst_DemoAnswers::translateGoesToTheOtherLanguage_data()
{
    QTest::addColumn<QString>("document");
    QTest::addColumn<QString>("selection");
    QTest::addColumn<QString>("language"); // as the user chose it; empty: automatic
    QTest::addColumn<QString>("instructed");
    QTest::addColumn<bool>("chinese"); // the answer is mostly Han

    QTest::addRow("English document, automatic") << Document << QString() << QString() << "Simplified Chinese" << true;
    QTest::addRow("English selection, automatic")
        << Document << QStringLiteral("The harbor protects the fishing boats from the winter storms.") << QString()
        << "Simplified Chinese" << true;
    QTest::addRow("Chinese document, automatic") << ChineseDocument << QString() << QString() << "English" << false;
    QTest::addRow("Chinese selection in an English document")
        << Document << QStringLiteral("西湖的春天很美。") << QString() << "English" << false;
    QTest::addRow("English chosen") << Document << QString() << QStringLiteral("English") << "English" << false;
    QTest::addRow("Chinese chosen") << ChineseDocument << QString() << QStringLiteral("Simplified Chinese")
                                    << "Simplified Chinese" << true;
}

void tst_DemoAnswers::translateGoesToTheOtherLanguage()
{
    QFETCH(QString, document);
    QFETCH(QString, selection);
    QFETCH(QString, language);
    QFETCH(QString, instructed);
    QFETCH(bool, chinese);
    const Llm::ChatRequest request = buildActionRequest(DocumentAction::Translate, document, selection, {}, language);
    QVERIFY2(request.messages.constLast().content.contains(QStringLiteral(" into ") + instructed),
             qPrintable(request.messages.constLast().content));

    const QString text = answer(DocumentAction::Translate, document, selection, language);
    QVERIFY(!text.isEmpty());
    const qsizetype han = countHan(text);
    const qsizetype latin = wordsOf(text).join(QString()).size() - han;
    if (chinese)
        QVERIFY2(han > latin && han >= 5, qPrintable(text));
    else
        QVERIFY2(latin > han * 4 && latin >= 20, qPrintable(text));
    // Labelled as the stand-in it is.
    QVERIFY2(text.contains(chinese ? QStringLiteral("演示引擎") : QStringLiteral("Demo engine")), qPrintable(text));
}

void tst_DemoAnswers::wizardOutlineIsAList()
{
    using namespace WizardKeys;
    const QVariantMap data{{TopicKey, QStringLiteral("Growing tomatoes on a small balcony")},
                           {AudienceKey, QStringLiteral("city gardeners")},
                           {ToneKey, QStringLiteral("friendly")},
                           {LengthKey, QStringLiteral("short")}};
    const QString text = wizardAnswer(WizardOutlineStep, data);
    const QStringList lines = text.split(u'\n');
    QVERIFY2(lines.size() >= 3, qPrintable(text));
    QCOMPARE(lines.first(), QStringLiteral("1. Growing tomatoes on a small balcony"));
    static const QRegularExpression item(QStringLiteral("^(?:\\d\\. |   - )\\S"));
    int sections = 0;
    for (const QString &line : lines) {
        QVERIFY2(item.match(line).hasMatch(), qPrintable(line));
        sections += line.front().isDigit() ? 1 : 0;
        QVERIFY2(line.size() < 60, qPrintable(line)); // a heading, not a sentence
    }
    QVERIFY2(sections >= 3 && sections <= 5, qPrintable(text));
    const QSet<QString> mine = wordSet(data.value(TopicKey).toString() + u' ' + data.value(AudienceKey).toString()
                                       + u' ' + data.value(ToneKey).toString());
    const QString foreign = firstForeignWord(
        text.split(u'\n').replaceInStrings(QRegularExpression(QStringLiteral("^\\d\\. ")), QString()).join(u'\n'),
        mine);
    QVERIFY2(foreign.isEmpty(), qPrintable(foreign + QStringLiteral(" in ") + text));
}

void tst_DemoAnswers::wizardIntroductionIsAParagraph()
{
    using namespace WizardKeys;
    const QVariantMap data{{TopicKey, QStringLiteral("Growing tomatoes on a small balcony")},
                           {AudienceKey, QStringLiteral("city gardeners")},
                           {ToneKey, QStringLiteral("friendly")},
                           {LengthKey, QStringLiteral("short")},
                           {OutlineKey, QStringLiteral("1. Pots and soil\n   - Drainage\n2. Watering\n3. Harvest")}};
    const QString text = wizardAnswer(WizardIntroductionStep, data);
    QVERIFY2(!text.contains(u'\n') && sentencesOf(text).size() >= 3, qPrintable(text));
    QVERIFY2(text.startsWith(QLatin1String("Growing tomatoes on a small balcony")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("Pots and soil")) && text.contains(QLatin1String("Harvest")),
             qPrintable(text));
    for (const QString &w : wordsOf(QStringLiteral("step introduction document paragraphs audience covers matters")))
        QVERIFY2(!wordSet(text).contains(w), qPrintable(w));
}

void tst_DemoAnswers::wizardTitlesAreShortLines()
{
    using namespace WizardKeys;
    const QVariantMap data{{TopicKey, QStringLiteral("Growing tomatoes on a small balcony")},
                           {AudienceKey, QStringLiteral("city gardeners")},
                           {ToneKey, QStringLiteral("friendly")},
                           {OutlineKey, QStringLiteral("1. Pots and soil\n2. Watering")},
                           {IntroductionKey, QStringLiteral("Tomatoes grow well in pots.")}};
    const QString text = wizardAnswer(WizardTitleStep, data);
    const QStringList lines = text.split(u'\n');
    QVERIFY2(lines.size() >= 3 && lines.size() <= 5, qPrintable(text));
    const QSet<QString> mine = wordSet(data.value(TopicKey).toString() + u' ' + data.value(AudienceKey).toString());
    for (const QString &line : lines) {
        QVERIFY2(!line.trimmed().isEmpty() && wordsOf(line).size() <= 8, qPrintable(line));
        QVERIFY2(!line.endsWith(u'.'), qPrintable(line));
        QVERIFY2(firstForeignWord(line, mine).isEmpty(), qPrintable(line));
    }
    QCOMPARE(QSet<QString>(lines.cbegin(), lines.cend()).size(), lines.size()); // no title twice
}

void tst_DemoAnswers::chatUsesTheMessagesWords()
{
    const QString message = QStringLiteral(
        "Tell me about the lighthouse on the northern cape. The keeper climbs the tower every evening and lights "
        "the lamp. Ships far out at sea see the beam and steer away from the rocks. In fog the keeper sounds the "
        "horn. The lighthouse was painted red and white so sailors can see it by day. Storms broke its windows "
        "twice, and the villagers carried new glass up the narrow stairs.");
    const Llm::ProviderProfile p = profile();
    const auto chat = chatTemplate(false).compile(p, {});
    QVERIFY(chat);
    const RenderedRequest plain = renderChatMessage(*chat, {}, p.model, message);
    const QString text = TestSupport::freshText(&m_network, p, plain);
    QVERIFY(!text.isEmpty());
    const QString foreign = firstForeignWord(text, wordSet(message));
    QVERIFY2(foreign.isEmpty(),
             qPrintable(foreign + QStringLiteral(" in ") + text)); // not "helpful", "concise", "assistant"

    // About a document: its words and the message's.
    const auto withDocument = chatTemplate(true).compile(p, documentValues(Document));
    QVERIFY(withDocument);
    const QString about = TestSupport::freshText(&m_network, p, renderChatMessage(*withDocument, {}, p.model, message));
    QVERIFY(!about.isEmpty());
    QVERIFY2(firstForeignWord(about, wordSet(message + u' ' + Document)).isEmpty(), qPrintable(about));
}

QTEST_GUILESS_MAIN(tst_DemoAnswers)
#include "tst_demoanswers.moc"
