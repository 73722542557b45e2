// DraftCompleter: how a chat draft may go on, from this user's messages, the follow-ups offered
// and the words of the conversation and the document (workspace/chat/draftcompleter.h).
#include "workspace/chat/draftcompleter.h"
#include "workspace/conversations/conversationstore.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Gui;

class tst_DraftCompleter : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void aMessageSentBeforeCompletesTheDraft();
    void theOneSentMostOftenWins();
    void fromItsThirdCharacterOrSecondChineseOne();
    void offeredFollowUpsComeAfterTheUsersOwn();
    void aWordOfTheConversationOrDocument();
    void wordsNeedThreeLettersAndAGain();
    void whatWasReadIsReadAgainAfterInvalidate();
    void nothingForAnEmptyDraft();

private:
    void sent(const QStringList &messages);
    DraftCompletion complete(const QString &draft, const QStringList &offered = {});

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ConversationStore> m_store;
    std::unique_ptr<DraftCompleter> m_completer;
    QStringList m_texts;
};

void tst_DraftCompleter::init()
{
    QStandardPaths::setTestModeEnabled(true);
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<ConversationStore>(m_dir->filePath(QStringLiteral("c.sqlite")));
    m_texts.clear();
    m_completer = std::make_unique<DraftCompleter>(m_store.get(), [this] { return m_texts; });
}

void tst_DraftCompleter::cleanup()
{
    m_completer.reset();
    m_store.reset();
    m_dir.reset();
}

void tst_DraftCompleter::sent(const QStringList &messages)
{
    const qint64 id = *m_store->create(QStringLiteral("Earlier"));
    for (const QString &m : messages) {
        QVERIFY(m_store->appendMessage(id, Llm::Role::User, m));
        QVERIFY(m_store->appendMessage(id, Llm::Role::Assistant, QStringLiteral("An answer.")));
    }
}

DraftCompletion tst_DraftCompleter::complete(const QString &draft, const QStringList &offered)
{
    return m_completer->complete(draft, offered);
}

void tst_DraftCompleter::aMessageSentBeforeCompletesTheDraft()
{
    sent({QStringLiteral("Translate it into French, keeping the tone.")});
    const DraftCompletion c = complete(QStringLiteral("Tra"));
    QCOMPARE(c.rest, QStringLiteral("nslate it into French, keeping the tone."));
    QVERIFY(c.wholeMessage);
    // Whatever the case typed; the rest is as it was sent, after the caret.
    QCOMPARE(complete(QStringLiteral("translate IT")).rest, QStringLiteral(" into French, keeping the tone."));
    // Leading spaces are the user's own.
    QCOMPARE(complete(QStringLiteral("  Transl")).rest, QStringLiteral("ate it into French, keeping the tone."));
    // Another beginning: not that message (and no word to complete either).
    QVERIFY(complete(QStringLiteral("Trb")).isEmpty());
    // The whole message typed: nothing left to add.
    QVERIFY(complete(QStringLiteral("Translate it into French, keeping the tone.")).isEmpty());
}

void tst_DraftCompleter::theOneSentMostOftenWins()
{
    // Newest last in the store: "Shorter please" once (newest), "Show the code" twice.
    sent({QStringLiteral("Show the code"), QStringLiteral("Show the code"), QStringLiteral("Shorter please")});
    QCOMPARE(complete(QStringLiteral("Sho")).rest, QStringLiteral("w the code"));
    // Equally often: the newest.
    sent({QStringLiteral("Shorter please")});
    m_completer->invalidate();
    QCOMPARE(complete(QStringLiteral("Sho")).rest, QStringLiteral("rter please"));
    QCOMPARE(complete(QStringLiteral("Show")).rest, QStringLiteral(" the code"));
}

void tst_DraftCompleter::fromItsThirdCharacterOrSecondChineseOne()
{
    sent({QStringLiteral("Why is that?"), QStringLiteral("请用表格总结")});
    QVERIFY(complete(QStringLiteral("W")).isEmpty());
    QVERIFY(complete(QStringLiteral("Wh")).isEmpty());
    QCOMPARE(complete(QStringLiteral("Why")).rest, QStringLiteral(" is that?"));
    QVERIFY(complete(QStringLiteral("请")).isEmpty());
    const DraftCompletion chinese = complete(QStringLiteral("请用"));
    QCOMPARE(chinese.rest, QStringLiteral("表格总结"));
    QVERIFY(chinese.wholeMessage);
}

void tst_DraftCompleter::offeredFollowUpsComeAfterTheUsersOwn()
{
    const QStringList offered = {QStringLiteral("Give an example."), QStringLiteral("Why?")};
    QCOMPARE(complete(QStringLiteral("Giv"), offered).rest, QStringLiteral("e an example."));
    QVERIFY(complete(QStringLiteral("Giv"), offered).wholeMessage);
    sent({QStringLiteral("Give me three titles")});
    m_completer->invalidate();
    QCOMPARE(complete(QStringLiteral("Giv"), offered).rest, QStringLiteral("e me three titles"));
    QCOMPARE(complete(QStringLiteral("Give a"), offered).rest, QStringLiteral("n example."));
}

void tst_DraftCompleter::aWordOfTheConversationOrDocument()
{
    m_texts = {QStringLiteral("The transformer keeps a cache. Transformers and transformer blocks."),
               QStringLiteral("Each transformer layer; a transition.")};
    const DraftCompletion c = complete(QStringLiteral("What does the tra"));
    QCOMPARE(c.rest, QStringLiteral("nsformer")); // the most frequent word that begins so
    QVERIFY(!c.wholeMessage);
    // As the user typed it: the rest continues their capitals as the text has them.
    QCOMPARE(complete(QStringLiteral("Ask about Tran")).rest, QStringLiteral("sformer"));
    QCOMPARE(complete(QStringLiteral("a transi")).rest, QStringLiteral("tion"));
    // Not after a space or a full stop: the word is finished.
    QVERIFY(complete(QStringLiteral("the tra ")).isEmpty());
    QVERIFY(complete(QStringLiteral("the transformer.")).isEmpty());
    // A message sent before comes first.
    sent({QStringLiteral("What does the training data look like?")});
    m_completer->invalidate();
    QCOMPARE(complete(QStringLiteral("What does the tra")).rest, QStringLiteral("ining data look like?"));
}

void tst_DraftCompleter::wordsNeedThreeLettersAndAGain()
{
    m_texts = {QStringLiteral("caching caching caching cached cache 缓存缓存缓存 cat")};
    QVERIFY(complete(QStringLiteral("a ca")).isEmpty()); // two letters
    QCOMPARE(complete(QStringLiteral("a cac")).rest, QStringLiteral("hing"));
    QCOMPARE(complete(QStringLiteral("a cachi")).rest, QStringLiteral("ng"));
    // "cached" would add one letter: not worth the reading.
    QVERIFY(complete(QStringLiteral("a cache")).isEmpty());
    // No words in scripts without spaces.
    QVERIFY(complete(QStringLiteral("缓")).isEmpty());
    QVERIFY(complete(QStringLiteral("一个缓存")).isEmpty());
}

void tst_DraftCompleter::whatWasReadIsReadAgainAfterInvalidate()
{
    QVERIFY(complete(QStringLiteral("Summarise")).isEmpty());
    sent({QStringLiteral("Summarise the document in five bullets")});
    // Read once: the new message is not seen until invalidate().
    QVERIFY(complete(QStringLiteral("Summarise")).isEmpty());
    m_completer->invalidate();
    QCOMPARE(complete(QStringLiteral("Summarise")).rest, QStringLiteral(" the document in five bullets"));
    m_texts = {QStringLiteral("prefetching")};
    QVERIFY(complete(QStringLiteral("pre")).isEmpty());
    m_completer->invalidate();
    QCOMPARE(complete(QStringLiteral("pre")).rest, QStringLiteral("fetching"));
}

void tst_DraftCompleter::nothingForAnEmptyDraft()
{
    sent({QStringLiteral("   "), QStringLiteral("Hello there")});
    QVERIFY(complete({}).isEmpty());
    QVERIFY(complete(QStringLiteral("   ")).isEmpty());
}

QTEST_GUILESS_MAIN(tst_DraftCompleter)
#include "tst_draftcompleter.moc"
