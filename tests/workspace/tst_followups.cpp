// FollowUps: which replies a chat offers after an answer (workspace/chat/followups.h).
#include "workspace/chat/followups.h"

#include <QTest>

using namespace Gui;

class tst_FollowUps : public QObject
{
    Q_OBJECT

private slots:
    void shortReplies_data();
    void shortReplies();
    void builtInOnesInTheConversationsLanguage();
    void repliesSentTwiceComeFirst();
    void theSameWordsAreOneSuggestion();
    void longRepliesAreNotOffered();
};

void tst_FollowUps::shortReplies_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("isShort");
    QTest::newRow("a word") << QStringLiteral("why?") << true;
    QTest::newRow("eight words") << QStringLiteral("one two three four five six seven eight") << true;
    QTest::newRow("nine words") << QStringLiteral("one two three four five six seven eight nine") << false;
    QTest::newRow("Chinese") << QStringLiteral("再简短一点。") << true;
    QTest::newRow("a Chinese paragraph") << QStringLiteral("请把上面的回答改写成一段更正式的文字，适合放进年度报告里面")
                                         << false;
    QTest::newRow("two lines") << QStringLiteral("why\nnot") << false;
    QTest::newRow("blank") << QStringLiteral("   ") << false;
}

void tst_FollowUps::shortReplies()
{
    QFETCH(QString, text);
    QFETCH(bool, isShort);
    QCOMPARE(FollowUps::isShortReply(text), isShort);
}

void tst_FollowUps::builtInOnesInTheConversationsLanguage()
{
    const QStringList english = FollowUps::suggest({}, false);
    QCOMPARE(english, FollowUps::builtIn(false));
    QCOMPARE(english.size(), 3);
    const QStringList chinese = FollowUps::suggest({}, true);
    QCOMPARE(chinese, FollowUps::builtIn(true));
    QVERIFY(chinese.constFirst() != english.constFirst());
    QCOMPARE(FollowUps::suggest({}, false, 2), english.mid(0, 2));
}

void tst_FollowUps::repliesSentTwiceComeFirst()
{
    // Newest first: "in a table" twice, "more formal" three times, "thanks" once.
    const QStringList replies = {QStringLiteral("in a table"), QStringLiteral("more formal"),
                                 QStringLiteral("thanks"),     QStringLiteral("more formal"),
                                 QStringLiteral("in a table"), QStringLiteral("more formal")};
    const QStringList offered = FollowUps::suggest(replies, false);
    QCOMPARE(offered.size(), 3);
    QCOMPARE(offered.at(0), QStringLiteral("more formal"));
    QCOMPARE(offered.at(1), QStringLiteral("in a table"));
    // Once is not a habit: the likeliest built-in one fills the rest.
    QCOMPARE(offered.at(2), FollowUps::builtIn(false).constFirst());
    QVERIFY(!offered.contains(QStringLiteral("thanks")));

    // At equal counts, the one sent most recently first.
    const QStringList tied = {QStringLiteral("b"), QStringLiteral("a"), QStringLiteral("a"), QStringLiteral("b")};
    QCOMPARE(FollowUps::suggest(tied, false, 2), (QStringList{QStringLiteral("b"), QStringLiteral("a")}));
}

void tst_FollowUps::theSameWordsAreOneSuggestion()
{
    // Case, spacing and the final punctuation do not make another reply; the newest spelling is
    // the one offered, and a built-in one with the same words is not offered twice.
    const QString builtIn = FollowUps::builtIn(false).constFirst();
    const QStringList replies = {builtIn.toUpper(), QStringLiteral("  ") + builtIn.chopped(1)};
    const QStringList offered = FollowUps::suggest(replies, false);
    QCOMPARE(offered.constFirst(), builtIn.toUpper());
    QCOMPARE(offered.size(), 3);
    for (const QString &text : offered.mid(1))
        QVERIFY(text.compare(builtIn, Qt::CaseInsensitive) != 0);
}

void tst_FollowUps::longRepliesAreNotOffered()
{
    const QString paragraph = QStringLiteral(
        "Could you rewrite the second paragraph so that it reads more like a letter?");
    const QStringList offered = FollowUps::suggest({paragraph, paragraph, paragraph}, false);
    QVERIFY(!offered.contains(paragraph));
    QCOMPARE(offered, FollowUps::builtIn(false));
}

QTEST_GUILESS_MAIN(tst_FollowUps)
#include "tst_followups.moc"
