// The chat's retrieval from the library, on a real index: a final text with the same query terms
// as the draft retrieved at the pause (a "?" or "？" added, other case, more spaces) is given the
// draft's passages without a second search, so Enter costs no query; a text with other terms is
// searched; after the library changed (forget()) the same text is searched again. A failed
// search is not kept.
#include "knowledge/library.h"
#include "knowledge/libraryretrieval.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

class tst_LibraryRetrieval : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sameTermsAreNotSearchedAgain();
    void otherTermsAndAChangedLibraryAreSearched();
    void theMessageNumbersThePassages();
    void thePassagesPartStartsEveryMessageWithThem();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Knowledge::Library> m_library;
};

void tst_LibraryRetrieval::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString notes = m_dir.filePath(QStringLiteral("notes"));
    QVERIFY(QDir().mkpath(notes));
    const auto write = [&](const QString &name, const QString &text) {
        QFile file(notes + u'/' + name);
        return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) > 0;
    };
    QVERIFY(write(QStringLiteral("tea.md"),
                  QStringLiteral("# 龙井\n\n龙井茶产于杭州西湖一带。\n\n# 普洱\n\n普洱茶产于云南。\n")));
    QVERIFY(write(QStringLiteral("harbour.md"),
                  QStringLiteral("# Harbour\n\nThe quay crane costs ninety guilders a month.\n\n"
                                 "## Keeper\n\nThe keeper climbs the tower at dusk.\n")));
    Knowledge::Library::Options options;
    options.databasePath = m_dir.filePath(QStringLiteral("index.sqlite"));
    m_library = std::make_unique<Knowledge::Library>(options);
    QSignalSpy indexed(m_library.get(), &Knowledge::Library::indexingFinished);
    m_library->setFolders({notes});
    QVERIFY(indexed.wait(20000));
}

void tst_LibraryRetrieval::sameTermsAreNotSearchedAgain()
{
    Knowledge::LibraryRetrieval retrieval(m_library.get());
    const QList<Knowledge::Passage> draft = retrieval.passagesFor(QStringLiteral("龙井茶产于哪里"));
    QCOMPARE(retrieval.queriesRun(), 1);
    QVERIFY(!draft.isEmpty());
    QVERIFY2(draft.first().text.contains(QStringLiteral("杭州西湖")), qPrintable(draft.first().text));

    // The final text at Enter: the same terms, so the same passages, kept.
    const QList<Knowledge::Passage> final = retrieval.passagesFor(QStringLiteral("龙井茶产于哪里？"));
    QCOMPARE(retrieval.queriesRun(), 1);
    QCOMPARE(final.size(), draft.size());
    for (qsizetype i = 0; i < final.size(); ++i) {
        QCOMPARE(final.at(i).path, draft.at(i).path);
        QCOMPARE(final.at(i).start, draft.at(i).start);
    }

    retrieval.passagesFor(QStringLiteral("How much does the quay crane cost"));
    QCOMPARE(retrieval.queriesRun(), 2);
    retrieval.passagesFor(QStringLiteral("how much  does the QUAY crane cost?"));
    QCOMPARE(retrieval.queriesRun(), 2);
}

void tst_LibraryRetrieval::otherTermsAndAChangedLibraryAreSearched()
{
    Knowledge::LibraryRetrieval retrieval(m_library.get());
    const auto crane = retrieval.passagesFor(QStringLiteral("How much does the quay crane cost?"));
    QVERIFY(!crane.isEmpty());
    QVERIFY(crane.first().text.contains(QLatin1String("ninety guilders")));
    // One word more is another query, with its own answer.
    const auto keeper = retrieval.passagesFor(QStringLiteral("When does the keeper climb the tower?"));
    QCOMPARE(retrieval.queriesRun(), 2);
    QVERIFY(!keeper.isEmpty());
    QVERIFY(keeper.first().text.contains(QLatin1String("at dusk")));
    // The library changed: what was kept may be wrong now.
    retrieval.forget();
    retrieval.passagesFor(QStringLiteral("How much does the quay crane cost?"));
    QCOMPARE(retrieval.queriesRun(), 3);

    // No library (it was closed): no passages, and nothing kept to answer from later.
    Knowledge::LibraryRetrieval none(nullptr);
    QVERIFY(none.passagesFor(QStringLiteral("crane")).isEmpty());
    QCOMPARE(none.queriesRun(), 0);
}

void tst_LibraryRetrieval::theMessageNumbersThePassages()
{
    Knowledge::LibraryRetrieval retrieval(m_library.get());
    const QString question = QStringLiteral("How much does the quay crane cost?");
    const auto passages = retrieval.passagesFor(question);
    const QString message = Knowledge::LibraryRetrieval::messageWithPassages(passages, question);
    QVERIFY(message.startsWith(QLatin1String("Passages from my library:\n\n[1] ")));
    QVERIFY(message.contains(QLatin1String("ninety guilders")));
    QVERIFY(message.endsWith(QStringLiteral("Question: ") + question));
    // The same passages, the same bytes: the request a prefetch made is the one sent.
    QCOMPARE(Knowledge::LibraryRetrieval::messageWithPassages(retrieval.passagesFor(question), question), message);
    QVERIFY(Knowledge::LibraryRetrieval::messageWithPassages({}, question).startsWith(QLatin1String("No passage")));
}

void tst_LibraryRetrieval::thePassagesPartStartsEveryMessageWithThem()
{
    // What a pause warms: the message up to its question, so that any question with these
    // passages (the draft's, the final text's) starts with exactly these bytes.
    Knowledge::LibraryRetrieval retrieval(m_library.get());
    const QString draft = QStringLiteral("the quay crane cost");
    const QString part = retrieval.passagesPartFor(draft);
    QVERIFY(part.contains(QLatin1String("ninety guilders")));
    QVERIFY(part.endsWith(QLatin1String("Question: ")));
    QVERIFY(retrieval.messageFor(draft + u'?').startsWith(part));
    QCOMPARE(retrieval.queriesRun(), 1); // the final text's terms were the draft's
    // No passage matches: nothing worth warming (the message is only the question).
    QVERIFY(retrieval.passagesPartFor(QStringLiteral("zyxxy qwerty")).isEmpty());
}

QTEST_GUILESS_MAIN(tst_LibraryRetrieval)
#include "tst_libraryretrieval.moc"
