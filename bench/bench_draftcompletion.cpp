// What completing the chat draft costs on the GUI thread (issue 39): DraftCompleter reading what
// it completes from (the user's last 500 messages from the conversation store, and the words of
// the conversation and of a large document, of which it reads the first 200,000 characters) at
// the first key after a change, and completing at every other key. Prints the median and p95 of
// each, in microseconds.
//
//   bench_draftcompletion [document MB] [runs]
#include "percentile.h"

#include "workspace/chat/draftcompleter.h"
#include "workspace/conversations/conversationstore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const double megabytes = argc > 1 ? std::atof(argv[1]) : 2.0;
    const int runs = argc > 2 ? std::atoi(argv[2]) : 50;

    QTemporaryDir dir;
    Gui::ConversationStore store(dir.filePath(QStringLiteral("conversations.sqlite")));
    // 500 questions in 50 conversations, as a user who has chatted for a while.
    for (int c = 0; c < 50; ++c) {
        const qint64 id = *store.create(QStringLiteral("Conversation %1").arg(c));
        for (int m = 0; m < 10; ++m) {
            store.appendMessage(
                id, Llm::Role::User,
                QStringLiteral("Question %1 about section %2 of the report, please keep it short").arg(m).arg(c));
            store.appendMessage(id, Llm::Role::Assistant, QStringLiteral("An answer of a few words."));
        }
    }
    const QString paragraph = QStringLiteral("Provider prompt caches keep the exact prefix of a request, so the "
                                             "system prompt and the document come first; speculative requests "
                                             "share those bytes with the ones the user asks for.\n\n");
    QString document;
    while (document.size() < qsizetype(megabytes * 1024 * 1024))
        document += paragraph;

    Gui::DraftCompleter completer(&store, [&document] { return QStringList{document}; });
    const QStringList offered = {QStringLiteral("Make it shorter."), QStringLiteral("Give an example.")};
    std::vector<double> firstKey;
    std::vector<double> nextKeys;
    QElapsedTimer timer;
    for (int r = 0; r < runs; ++r) {
        completer.invalidate();
        timer.start();
        completer.complete(QStringLiteral("Que"), offered);
        firstKey.push_back(double(timer.nsecsElapsed()) / 1e3);
        for (const QString &draft : {QStringLiteral("Ques"), QStringLiteral("What about the spec"),
                                     QStringLiteral("What about the speculative req")}) {
            timer.start();
            completer.complete(draft, offered);
            nextKeys.push_back(double(timer.nsecsElapsed()) / 1e3);
        }
    }
    std::printf("document %.1f MB (%lld characters read), 500 messages, %d runs\n", megabytes,
                qlonglong(std::min<qsizetype>(document.size(), Gui::DraftCompleter::DocumentChars)), runs);
    std::printf("first key after a change (reads): median %.0f us, p95 %.0f us\n", Bench::percentile(firstKey, 0.5),
                Bench::percentile(firstKey, 0.95));
    std::printf("any other key: median %.1f us, p95 %.1f us\n", Bench::percentile(nextKeys, 0.5),
                Bench::percentile(nextKeys, 0.95));
    return 0;
}
