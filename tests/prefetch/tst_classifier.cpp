// Draft completeness for debounce prefetch: the heuristic's calibration table, normalisation,
// similarity (checked against a plain dynamic-programming Levenshtein), parsing a small model's
// answer, and the asynchronous classifier contract.
#include "prefetch/strategies/classifier.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>

#include <memory>
#include <vector>

using namespace Prefetch;

namespace {

// The textbook O(n·m) distance the fast one must agree with.
qsizetype referenceLevenshtein(QStringView a, QStringView b)
{
    std::vector<qsizetype> row(size_t(b.size()) + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        row[size_t(j)] = j;
    for (qsizetype i = 1; i <= a.size(); ++i) {
        qsizetype diagonal = row[0];
        row[0] = i;
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const qsizetype up = row[size_t(j)];
            row[size_t(j)] = std::min({up + 1, row[size_t(j - 1)] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[size_t(b.size())];
}

double referenceSimilarity(QStringView a, QStringView b)
{
    const qsizetype longer = std::max(a.size(), b.size());
    return longer == 0 ? 1.0 : 1.0 - double(referenceLevenshtein(a, b)) / double(longer);
}

QString randomText(QRandomGenerator &rng, qsizetype length, QStringView alphabet)
{
    QString s;
    s.reserve(length);
    for (qsizetype i = 0; i < length; ++i)
        s += alphabet[rng.bounded(alphabet.size())];
    return s;
}

// A few random insertions, deletions and substitutions.
QString mutate(QRandomGenerator &rng, QString s, int edits, QStringView alphabet)
{
    for (int e = 0; e < edits; ++e) {
        const qsizetype at = s.isEmpty() ? 0 : rng.bounded(s.size());
        switch (rng.bounded(3)) {
        case 0: s.insert(at, alphabet[rng.bounded(alphabet.size())]); break;
        case 1:
            if (!s.isEmpty())
                s.remove(at, 1);
            break;
        default:
            if (!s.isEmpty())
                s[at] = alphabet[rng.bounded(alphabet.size())];
            break;
        }
    }
    return s;
}

} // namespace

class tst_Classifier : public QObject
{
    Q_OBJECT

private slots:
    void calibration_data();
    void calibration();
    void longerAndWellFormedEndsHigher();
    void followUpsAfterAnAnswer_data();
    void followUpsAfterAnAnswer();
    void normalize_data();
    void normalize();
    void endsSentence();
    void similaritySanity();
    void similarityMatchesReference_data();
    void similarityMatchesReference();
    void similarityOfLongTextsIsBounded();
    void longSimilarityNeverOverstates_data();
    void longSimilarityNeverOverstates();
    void parseConfidence_data();
    void parseConfidence();
    void heuristicClassifierAnswersLater();
    void heuristicClassifierDropsAnswerForDeadContext();
};

void tst_Classifier::calibration_data()
{
    QTest::addColumn<QString>("draft");
    QTest::addColumn<double>("atLeast");
    QTest::addColumn<double>("below");

    // The table of the brief: the engine's default threshold is 0.72.
    QTest::addRow("question with ?") << "How do I reset my password?" << 0.9 << 1.01;
    QTest::addRow("request with .") << "Summarize the document in three bullet points." << 0.8 << 1.01;
    QTest::addRow("request, no punctuation") << "Explain the difference between TCP and UDP" << 0.72 << 1.01;
    QTest::addRow("a space after the last word") << "Explain the difference between TCP and UDP " << 0.0 << 0.72;
    QTest::addRow("a space after the question mark") << "How do I reset my password? " << 0.9 << 1.01;
    QTest::addRow("trailing article") << "Can you tell me about the" << 0.0 << 0.3;
    QTest::addRow("trailing conjunction") << "I want to write an email and" << 0.0 << 0.3;
    QTest::addRow("zh question with ？") << QStringLiteral("这段话是什么意思？") << 0.9 << 1.01;
    QTest::addRow("zh request, no punctuation") << QStringLiteral("帮我总结一下这篇文章") << 0.72 << 1.01;
    QTest::addRow("zh trailing preposition") << QStringLiteral("我想问一下关于") << 0.0 << 0.4;
    QTest::addRow("one word") << "hello" << 0.0 << 0.72;
    QTest::addRow("trailing colon") << "Check this:" << 0.0 << 0.5;
    QTest::addRow("open code fence") << "Why does this fail?\n```cpp\nint main() {\n    return 0;\n}" << 0.0 << 0.4;

    // Further cases the weights were checked against.
    QTest::addRow("empty") << "" << 0.0 << 0.01;
    QTest::addRow("white space") << " \t\n " << 0.0 << 0.01;
    QTest::addRow("question, no punctuation") << "What is the capital of France" << 0.72 << 1.01;
    QTest::addRow("closed code fence") << "Why does this fail?\n```\nint main() { return 0 }\n```\nPlease explain."
                                       << 0.72 << 1.01;
    QTest::addRow("quoted question") << "\"Is it safe to delete the cache folder?\"" << 0.9 << 1.01;
    QTest::addRow("open bracket") << "Explain what the function does (the one in utils" << 0.0 << 0.72;
    QTest::addRow("open inline code") << "Why does `parse_args return nothing" << 0.0 << 0.72;
    QTest::addRow("trailing off") << "I was thinking maybe we could..." << 0.0 << 0.72;
    QTest::addRow("trailing comma") << "Write a poem about the sea," << 0.0 << 0.5;
    QTest::addRow("two words") << "What is" << 0.0 << 0.72;
    QTest::addRow("zh question particle") << QStringLiteral("你能帮我看看这个错误吗") << 0.72 << 1.01;
    QTest::addRow("zh request with 。") << QStringLiteral("请把这段话翻译成英文。") << 0.8 << 1.01;
    QTest::addRow("zh trailing 的") << QStringLiteral("这个问题是我昨天遇到的") << 0.0 << 0.3;
    QTest::addRow("zh open 「") << QStringLiteral("解释一下「量子纠缠") << 0.0 << 0.72;
}

void tst_Classifier::calibration()
{
    QFETCH(QString, draft);
    QFETCH(double, atLeast);
    QFETCH(double, below);
    const double c = heuristicCompleteness(draft);
    QVERIFY2(c >= atLeast && c < below, qPrintable(QString::number(c)));
    QVERIFY(c >= 0.0 && c <= 1.0);
}

void tst_Classifier::longerAndWellFormedEndsHigher()
{
    QVERIFY(heuristicCompleteness(u"Explain TCP")
            < heuristicCompleteness(u"Explain the difference between TCP and UDP"));
    QVERIFY(heuristicCompleteness(u"Explain the difference between TCP and UDP")
            < heuristicCompleteness(u"Explain the difference between TCP and UDP."));
    QVERIFY(heuristicCompleteness(u"the weather is") < heuristicCompleteness(u"What is the weather like today?"));
}

void tst_Classifier::followUpsAfterAnAnswer_data()
{
    QTest::addColumn<QString>("draft");
    QTest::addColumn<bool>("completeAfterAnswer");

    // Replies to the answer just read: complete in a word or two.
    QTest::addRow("why?") << "why?" << true;
    QTest::addRow("shorter") << "shorter" << true;
    QTest::addRow("make it shorter") << "make it shorter" << true;
    QTest::addRow("tell me more") << "tell me more" << true;
    QTest::addRow("an example?") << "an example?" << true;
    QTest::addRow("example please") << "example please" << true;
    QTest::addRow("in French?") << "in French?" << true;
    QTest::addRow("thanks!") << "thanks!" << true;
    QTest::addRow("zh why") << QStringLiteral("为什么？") << true;
    QTest::addRow("zh shorter") << QStringLiteral("再短一点") << true;
    QTest::addRow("zh an example") << QStringLiteral("举个例子") << true;
    QTest::addRow("zh go on") << QStringLiteral("继续") << true;
    // Still being typed, answer or not.
    QTest::addRow("why, no ?") << "why" << false;
    QTest::addRow("why and a space") << "why " << false;
    QTest::addRow("shorter and a space") << "shorter " << false;
    QTest::addRow("hello") << "hello" << false;
    QTest::addRow("more about the") << "more about the" << false;
    QTest::addRow("give me an") << "give me an" << false;
    QTest::addRow("zh and") << QStringLiteral("还有和") << false;
    // Five words and more get no follow-up bonus; a connector caps any draft.
    QTest::addRow("long, ends in a connector") << "can you make it shorter and" << false;
}

void tst_Classifier::followUpsAfterAnAnswer()
{
    QFETCH(QString, draft);
    QFETCH(bool, completeAfterAnswer);
    const double threshold = 0.72; // the engine's default minConfidence
    const double after = heuristicCompleteness(draft, {.afterAnswer = true});
    QVERIFY2((after >= threshold) == completeAfterAnswer, qPrintable(QString::number(after)));
    // The context only ever helps: without it no draft scores higher.
    const double alone = heuristicCompleteness(draft);
    QVERIFY2(alone <= after, qPrintable(QStringLiteral("%1 alone, %2 after an answer").arg(alone).arg(after)));
    if (completeAfterAnswer && draft.trimmed().size() >= 10)
        QVERIFY2(alone < threshold || draft.endsWith(QLatin1Char('?')), qPrintable(QString::number(alone)));
}

void tst_Classifier::normalize_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("normalized");

    QTest::addRow("trim and collapse") << "  Hello   world  "
                                       << "Hello world";
    QTest::addRow("mixed white space") << "Tabs\tand\nnew lines\r\n  here"
                                       << "Tabs and new lines here";
    QTest::addRow("no-break and ideographic space")
        << QStringLiteral("Hello\u00a0world\u3000again") << "Hello world again";
    QTest::addRow("question mark") << "How are you?"
                                   << "How are you";
    QTest::addRow("several marks") << "Really?!"
                                   << "Really";
    QTest::addRow("spaced marks") << "Question ? ! "
                                  << "Question";
    QTest::addRow("ascii ellipsis") << "Wait..."
                                    << "Wait";
    QTest::addRow("ellipsis character") << QStringLiteral("Wait\u2026") << "Wait";
    QTest::addRow("cjk question") << QStringLiteral("这段话是什么意思？") << QStringLiteral("这段话是什么意思");
    QTest::addRow("cjk full stop and space") << QStringLiteral("好的 。 ") << QStringLiteral("好的");
    QTest::addRow("cjk mixed marks") << QStringLiteral("真的吗？！") << QStringLiteral("真的吗");
    QTest::addRow("cjk ellipsis") << QStringLiteral("等等……") << QStringLiteral("等等");
    QTest::addRow("full-width exclamation") << QStringLiteral("太好了！") << QStringLiteral("太好了");
    QTest::addRow("inner dots kept") << "Version 3.14 is out."
                                     << "Version 3.14 is out";
    QTest::addRow("commas kept") << "First, second,"
                                 << "First, second,";
    QTest::addRow("case kept") << "MiXeD CaSe."
                               << "MiXeD CaSe";
    QTest::addRow("symbols kept") << "Use C++."
                                  << "Use C++";
    QTest::addRow("empty") << ""
                           << "";
    QTest::addRow("only punctuation") << "  ?!  "
                                      << "";
    QTest::addRow("surrogate pair kept") << QStringLiteral("𠀋 is a character.") << QStringLiteral("𠀋 is a character");
}

void tst_Classifier::normalize()
{
    QFETCH(QString, text);
    QFETCH(QString, normalized);
    QCOMPARE(normalizeDraft(text), normalized);
    QCOMPARE(normalizeDraft(normalized), normalized); // idempotent
}

void tst_Classifier::endsSentence()
{
    QVERIFY(Prefetch::endsSentence(u"How do I reset my password?"));
    QVERIFY(Prefetch::endsSentence(u"Summarize it."));
    QVERIFY(Prefetch::endsSentence(u"总结一下。"));
    QVERIFY(Prefetch::endsSentence(u"这是什么？"));
    QVERIFY(!Prefetch::endsSentence(u"How do I reset my password? ")); // going on
    QVERIFY(!Prefetch::endsSentence(u"I was thinking..."));
    QVERIFY(!Prefetch::endsSentence(u"I was thinking…"));
    QVERIFY(!Prefetch::endsSentence(u"Explain TCP"));
    QVERIFY(!Prefetch::endsSentence(u""));
}

void tst_Classifier::similaritySanity()
{
    QCOMPARE(draftSimilarity(u"", u""), 1.0);
    QCOMPARE(draftSimilarity(u"same text", u"same text"), 1.0);
    QCOMPARE(draftSimilarity(u"", u"abc"), 0.0);
    QCOMPARE(draftSimilarity(u"abc", u""), 0.0);
    QCOMPARE(draftSimilarity(u"kitten", u"sitting"), 1.0 - 3.0 / 7.0);
    QCOMPARE(draftSimilarity(u"abc", u"xyz"), 0.0);
    QCOMPARE(draftSimilarity(u"How do I reset my password", u"How do I reset my pasword"), 1.0 - 1.0 / 26.0);
    QCOMPARE(draftSimilarity(u"这段话是什么意思", u"这句话是什么意思"), 1.0 - 1.0 / 8.0);
    QCOMPARE(draftSimilarity(u"Explain TCP", u"explain TCP"), 1.0 - 1.0 / 11.0); // case counts

    const double ab = draftSimilarity(u"Summarize the document", u"Summarise this document please");
    QCOMPARE(ab, draftSimilarity(u"Summarise this document please", u"Summarize the document"));
    QVERIFY(ab > 0.5 && ab < 0.9);
    QVERIFY(draftSimilarity(u"Write a haiku about autumn", u"Book me a flight to Tokyo") < 0.4);
}

void tst_Classifier::similarityMatchesReference_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("edits");
    QTest::addColumn<QString>("alphabet");

    // Lengths around the 64-bit word boundaries of the bit-parallel algorithm.
    for (int length : {1, 5, 63, 64, 65, 127, 128, 129, 200, 700}) {
        for (int edits : {1, 4, 30}) {
            QTest::addRow("len %d edits %d ab", length, edits) << length << edits << "ab";
            QTest::addRow("len %d edits %d text", length, edits) << length << edits << "abcdefgh ijklmnop";
            QTest::addRow("len %d edits %d cjk", length, edits)
                << length << edits << QStringLiteral("的一是不了人我在有他这为之大来以个中上们");
        }
    }
    QTest::addRow("a few thousand chars") << 3000 << 200 << "abcdefghijklmnopqrstuvwxyz ";
}

void tst_Classifier::similarityMatchesReference()
{
    QFETCH(int, length);
    QFETCH(int, edits);
    QFETCH(QString, alphabet);

    QRandomGenerator rng(quint32(length * 131 + edits)); // fixed seeds: reproducible
    for (int round = 0; round < 8; ++round) {
        const QString a = randomText(rng, length, alphabet);
        // Half the rounds compare near copies, half unrelated texts of another length.
        const QString b = round % 2 == 0 ? mutate(rng, a, edits, alphabet)
                                         : randomText(rng, std::max(1, length + edits - 2 * round), alphabet);
        const double expected = referenceSimilarity(a, b);
        const double got = draftSimilarity(a, b);
        if (qAbs(got - expected) > 1e-12)
            QFAIL(qPrintable(QStringLiteral("round %1: got %2, expected %3").arg(round).arg(got).arg(expected)));
        QCOMPARE(draftSimilarity(b, a), got);
    }
}

void tst_Classifier::similarityOfLongTextsIsBounded()
{
    // Beyond the exact budget the distance comes from an anchored alignment, in linear time:
    // near copies stay close to 1, unrelated texts over the same letters fall to about 0.
    QRandomGenerator rng(7);
    const QString alphabet = QStringLiteral("abcdefghijklmnopqrstuvwxyz       ");
    const QString a = randomText(rng, 200'000, alphabet);
    QString b = a;
    for (int i = 0; i < 20; ++i)
        b[rng.bounded(b.size())] = QLatin1Char('#'); // scattered edits: one long remainder
    const QString unrelated = randomText(rng, 200'000, alphabet);

    QElapsedTimer timer;
    timer.start();
    const double near = draftSimilarity(a, b);
    const double far = draftSimilarity(a, unrelated);
    const double shortVsLong = draftSimilarity(u"a short draft", a); // exact: the work is small
    qInfo("three comparisons with 200 000-character texts: %lld ms", qint64(timer.elapsed()));
    QVERIFY2(near >= 1.0 - 20.0 / 200'000 - 1e-9 && near > 0.9998, qPrintable(QString::number(near, 'g', 10)));
    QVERIFY2(far < 0.05, qPrintable(QString::number(far)));
    QCOMPARE(shortVsLong, referenceSimilarity(u"a short draft", a));
}

void tst_Classifier::longSimilarityNeverOverstates_data()
{
    QTest::addColumn<int>("edits");
    QTest::addRow("near copy") << 40;
    QTest::addRow("heavily edited") << 3000;
    QTest::addRow("unrelated") << -1;
}

void tst_Classifier::longSimilarityNeverOverstates()
{
    // 9000-unit texts are past the exact budget, yet small enough to check against the
    // reference: the bound may understate the similarity, never overstate it.
    QFETCH(int, edits);
    QRandomGenerator rng(quint32(11 + edits));
    const QString alphabet = QStringLiteral("etaoinshrdlu  ");
    const QString a = randomText(rng, 9000, alphabet);
    const QString b = edits < 0 ? randomText(rng, 9000, alphabet) : mutate(rng, a, edits, alphabet);
    const double expected = referenceSimilarity(a, b);
    const double got = draftSimilarity(a, b);
    QVERIFY2(got <= expected + 1e-12, qPrintable(QStringLiteral("%1 > %2").arg(got).arg(expected)));
    if (edits == 40)
        QVERIFY2(got > expected - 0.002, qPrintable(QStringLiteral("%1 vs %2").arg(got).arg(expected)));
}

void tst_Classifier::parseConfidence_data()
{
    QTest::addColumn<QString>("reply");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("value");

    QTest::addRow("plain json") << R"({"confidence": 0.85})" << true << 0.85;
    QTest::addRow("compact") << R"({"confidence":1})" << true << 1.0;
    QTest::addRow("zero") << R"({"confidence": 0})" << true << 0.0;
    QTest::addRow("code fence") << "```json\n{\n  \"confidence\": 0.9\n}\n```" << true << 0.9;
    QTest::addRow("prose around") << "Sure! Here is my estimate: {\"confidence\": 0.3}. Hope that helps." << true
                                  << 0.3;
    QTest::addRow("single quotes, leading dot") << "{'confidence': .75}" << true << 0.75;
    QTest::addRow("capitalised key, quoted number") << R"({"Confidence": "0.6"})" << true << 0.6;
    QTest::addRow("bare key") << "confidence: 0.42" << true << 0.42;
    QTest::addRow("exponent") << R"({"confidence": 5e-1})" << true << 0.5;
    QTest::addRow("percentage") << R"({"confidence": "85%"})" << true << 0.85;
    QTest::addRow("other keys first") << R"({"complete": true, "confidence": 0.7, "reason": "ends with ?"})" << true
                                      << 0.7;
    QTest::addRow("above one") << R"({"confidence": 1.5})" << false << 0.0;
    QTest::addRow("negative") << R"({"confidence": -0.2})" << false << 0.0;
    QTest::addRow("words") << R"({"confidence": "high"})" << false << 0.0;
    QTest::addRow("no key") << "I think the message is complete." << false << 0.0;
    QTest::addRow("other key") << R"({"score": 0.8})" << false << 0.0;
    QTest::addRow("longer word") << R"({"overconfidence": 0.4})" << false << 0.0;
    QTest::addRow("empty") << "" << false << 0.0;
}

void tst_Classifier::parseConfidence()
{
    QFETCH(QString, reply);
    QFETCH(bool, valid);
    QFETCH(double, value);
    const std::optional<double> parsed = parseConfidenceReply(reply);
    QCOMPARE(parsed.has_value(), valid);
    if (valid)
        QCOMPARE(*parsed, value);
}

void tst_Classifier::heuristicClassifierAnswersLater()
{
    std::unique_ptr<CompletenessClassifier> classifier = std::make_unique<HeuristicClassifier>();
    const QString draft = QStringLiteral("How do I reset my password?");
    int calls = 0;
    double confidence = -1;
    classifier->classify(draft, {}, this, [&](double c) {
        ++calls;
        confidence = c;
    });
    QCOMPARE(calls, 0); // never from inside classify()
    QTRY_COMPARE_WITH_TIMEOUT(calls, 1, 5000);
    QCOMPARE(confidence, heuristicCompleteness(draft));
    QCoreApplication::processEvents();
    QCOMPARE(calls, 1); // exactly once
}

void tst_Classifier::heuristicClassifierDropsAnswerForDeadContext()
{
    HeuristicClassifier classifier;
    bool deadCalled = false;
    bool liveCalled = false;
    {
        QObject context;
        classifier.classify(QStringLiteral("hello"), {}, &context, [&](double) { deadCalled = true; });
    }
    // Queued after the first: once this one arrived, the first had its chance.
    classifier.classify(QStringLiteral("hello"), {}, this, [&](double) { liveCalled = true; });
    QTRY_VERIFY_WITH_TIMEOUT(liveCalled, 5000);
    QVERIFY(!deadCalled);
}

QTEST_GUILESS_MAIN(tst_Classifier)
#include "tst_classifier.moc"
