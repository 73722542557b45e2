// Fast/slow routing's message kinds: greetings and short factual questions go to the fast model
// in English and Chinese; anything asking for work, about the context, or long goes to the main
// model.
#include "prefetch/text/messageroute.h"

#include <QTest>

using Prefetch::MessageKind;

Q_DECLARE_METATYPE(Prefetch::MessageKind)

class tst_MessageRoute : public QObject
{
    Q_OBJECT

private slots:
    void kinds_data();
    void kinds();
    void onlyOtherGoesToTheMainModel();
};

void tst_MessageRoute::kinds_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<MessageKind>("kind");

    QTest::newRow("hi") << "hi" << MessageKind::SmallTalk;
    QTest::newRow("thanks!") << "Thanks!" << MessageKind::SmallTalk;
    QTest::newRow("thank you so much") << "Thank you so much" << MessageKind::SmallTalk;
    QTest::newRow("good morning") << "  Good morning!  " << MessageKind::SmallTalk;
    QTest::newRow("how are you") << "How are you?" << MessageKind::SmallTalk;
    QTest::newRow("curly apostrophe") << "What’s up?" << MessageKind::SmallTalk;
    QTest::newRow("zh hello") << "你好" << MessageKind::SmallTalk;
    QTest::newRow("zh thanks") << "谢谢！" << MessageKind::SmallTalk;
    QTest::newRow("zh ok") << "好的，明白了" << MessageKind::SmallTalk;

    QTest::newRow("capital") << "What is the capital of France?" << MessageKind::SimpleQuestion;
    QTest::newRow("no question mark") << "who wrote hamlet" << MessageKind::SimpleQuestion;
    QTest::newRow("how many") << "How many legs does a spider have?" << MessageKind::SimpleQuestion;
    QTest::newRow("greeting then question") << "Hi! When did the Berlin Wall fall?" << MessageKind::SimpleQuestion;
    QTest::newRow("define") << "Define entropy." << MessageKind::SimpleQuestion;
    QTest::newRow("zh height") << "珠穆朗玛峰有多高？" << MessageKind::SimpleQuestion;
    QTest::newRow("zh what is") << "光合作用是什么" << MessageKind::SimpleQuestion;
    QTest::newRow("zh capital") << "澳大利亚的首都是哪里？" << MessageKind::SimpleQuestion;

    QTest::newRow("explain") << "Explain how a transformer works." << MessageKind::Other;
    QTest::newRow("why") << "Why is the sky blue?" << MessageKind::Other;
    QTest::newRow("write") << "Write a haiku about rain." << MessageKind::Other;
    QTest::newRow("code") << "What is wrong with this code?" << MessageKind::Other;
    QTest::newRow("about the context") << "What is it?" << MessageKind::Other;
    QTest::newRow("advice") << "What is the best way to learn Rust?" << MessageKind::Other;
    QTest::newRow("prefix of a work word") << "What are the steps?" << MessageKind::Other;
    QTest::newRow("thanks then work") << "Thanks, now summarize the article" << MessageKind::Other;
    QTest::newRow("two questions") << "Who wrote Hamlet? And when?" << MessageKind::Other;
    QTest::newRow("two lines") << "What is the capital of France?\nAnd of Spain?" << MessageKind::Other;
    QTest::newRow("code fence") << "What is `x`?" << MessageKind::Other;
    QTest::newRow("long")
        << "What is the name of the river that runs through the city where the first modern Olympic games were held"
        << MessageKind::Other;
    QTest::newRow("plain statement") << "I am planning a trip to Japan next spring." << MessageKind::Other;
    QTest::newRow("zh why") << "为什么天空是蓝色的？" << MessageKind::Other;
    QTest::newRow("zh write") << "帮我写一首关于秋天的诗" << MessageKind::Other;
    QTest::newRow("zh explain what") << "请解释一下什么是量子纠缠" << MessageKind::Other;
    QTest::newRow("empty") << "   " << MessageKind::Other;
    QTest::newRow("punctuation only") << "?!" << MessageKind::Other;
}

void tst_MessageRoute::kinds()
{
    QFETCH(QString, text);
    QFETCH(MessageKind, kind);
    QCOMPARE(Prefetch::messageKindId(Prefetch::messageKind(text)), Prefetch::messageKindId(kind));
}

void tst_MessageRoute::onlyOtherGoesToTheMainModel()
{
    QVERIFY(Prefetch::routesToFastModel(MessageKind::SmallTalk));
    QVERIFY(Prefetch::routesToFastModel(MessageKind::SimpleQuestion));
    QVERIFY(!Prefetch::routesToFastModel(MessageKind::Other));
}

QTEST_APPLESS_MAIN(tst_MessageRoute)
#include "tst_messageroute.moc"
