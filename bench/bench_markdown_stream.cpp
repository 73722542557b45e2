// Streaming a Markdown answer into the chat's answer view, token by token: Gui::MarkdownView
// (completed blocks rendered once, the open tail as plain text) against the naive way, calling
// setMarkdown() with the whole text so far for every token. Each token is its own frame here
// (render, lay out, paint), the worst case; in the app StreamFollower hands the view one piece a
// frame, all the tokens that arrived in it. The view renders each piece when it is given, so two
// more rows show four tokens a frame: given as one piece (what the follower does) and given one
// by one (what a caller that does not batch would cost).
//
//   bench_markdown_stream [tokens=2000] [rounds=1]
//
// Runs offscreen unless QT_QPA_PLATFORM says otherwise. Prints total and per-frame times
// (mean, p50, p99, max) for each and the ratio of the naive total to the view's, best of `rounds`.
#include "gui/answer/markdownview.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QTextDocument>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

// A typical long answer: headings, paragraphs, both kinds of list, code, a table, a quote.
QString section(int n)
{
    return QStringLiteral(
               "## Part %1: how the cache behaves\n\n"
               "Prefetching starts the answer **before** the user commits, so the first token is already "
               "there when they press Enter. The prompt prefix stays byte-identical between the warm-up, the "
               "prefetch and the real request, which is what lets the provider's cache hit.\n\n"
               "Things to check:\n\n"
               "- the system prompt comes first and never changes;\n"
               "- the document follows it, unchanged between requests;\n"
               "  - a nested note about revisions and their fingerprints;\n"
               "- the user's text comes last.\n\n"
               "1. Open the document.\n2. Wait for the warm-up.\n3. Ask your question.\n\n"
               "```cpp\nauto compiled = chatTemplate(true).compile(profile, documentValues(text));\n"
               "auto request = compiled->render({{\"message\", question}});\nengine.request(request);\n```\n\n"
               "| strategy | hit rate | extra cost |\n|---|---|---|\n| hover | 55-70 % | 30-45 % |\n"
               "| debounce | 40-65 % | 35-60 % |\n\n"
               "> A wrong guess costs real tokens, so every miss is cancelled at once.\n\n")
        .arg(n);
}

QStringList tokens(int count)
{
    QString text;
    for (int n = 1; text.size() < count * 8; ++n)
        text += section(n);
    // Words with the white space after them, long words in pieces: about four characters per
    // token, as BPE tokenizers give for English prose.
    static const QRegularExpression word(QStringLiteral("\\S+\\s*|\\s+"));
    QStringList out;
    for (auto it = word.globalMatch(text); it.hasNext() && out.size() < count;) {
        QString piece = it.next().captured();
        while (piece.size() > 6 && out.size() < count) {
            out << piece.left(4);
            piece.remove(0, 4);
        }
        if (out.size() < count)
            out << piece;
    }
    return out;
}

// The pieces a frame at a time, `perFrame` tokens each: as one piece (joined) or each apart.
QList<QStringList> frames(const QStringList &pieces, int perFrame, bool joined)
{
    QList<QStringList> out;
    for (qsizetype i = 0; i < pieces.size(); i += perFrame) {
        const QStringList frame = pieces.mid(i, perFrame);
        out << (joined ? QStringList{frame.join(QString())} : frame);
    }
    return out;
}

struct Result {
    double totalMs = 0;
    std::vector<double> perFrameUs;
};

// `step` changes the document for each piece of a frame, then layout and paint run as they
// would before the next frame.
Result run(const QList<QStringList> &frames, QWidget *widget, QTextDocument *document,
           const std::function<void(const QString &)> &step)
{
    Result r;
    r.perFrameUs.reserve(size_t(frames.size()));
    QElapsedTimer total;
    total.start();
    for (const QStringList &frame : frames) {
        QElapsedTimer t;
        t.start();
        for (const QString &piece : frame)
            step(piece);
        document->documentLayout()->documentSize(); // the layout the next paint needs
        widget->repaint();
        r.perFrameUs.push_back(double(t.nsecsElapsed()) / 1e3);
    }
    r.totalMs = double(total.nsecsElapsed()) / 1e6;
    return r;
}

// The view fed `frames`, rendered and finished.
Result runView(const QList<QStringList> &frames)
{
    Gui::MarkdownView view;
    view.resize(700, 900);
    view.show();
    const Result r = run(frames, &view, view.document(), [&view](const QString &piece) { view.appendText(piece); });
    view.finish();
    return r;
}

double percentile(std::vector<double> v, double q)
{
    std::sort(v.begin(), v.end());
    const size_t rank = size_t(std::max(1.0, std::ceil(q / 100.0 * double(v.size()))));
    return v[rank - 1];
}

void print(const char *name, const Result &r)
{
    double sum = 0;
    for (double us : r.perFrameUs)
        sum += us;
    std::printf("%-42s total %9.1f ms   per frame: mean %8.1f us  p50 %8.1f us  p99 %8.1f us  max %8.1f us\n", name,
                r.totalMs, sum / double(r.perFrameUs.size()), percentile(r.perFrameUs, 50),
                percentile(r.perFrameUs, 99), *std::max_element(r.perFrameUs.begin(), r.perFrameUs.end()));
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int tokenCount = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 2000;
    const int rounds = argc > 2 ? std::max(1, QString::fromLocal8Bit(argv[2]).toInt()) : 1;
    const QStringList pieces = tokens(tokenCount);
    const QString whole = pieces.join(QString());
    std::printf(
        "Streaming a %lld-token Markdown answer (%lld characters), one frame per token unless said, best of %d:\n",
        qlonglong(pieces.size()), qlonglong(whole.size()), rounds);

    const QList<QStringList> perToken = frames(pieces, 1, true);
    const QList<QStringList> fourJoined = frames(pieces, 4, true);
    const QList<QStringList> fourApart = frames(pieces, 4, false);
    Result bestView;
    Result bestNaive;
    Result bestJoined;
    Result bestApart;
    auto keepBest = [](Result &best, const Result &r, int round) {
        if (round == 0 || r.totalMs < best.totalMs)
            best = r;
    };
    for (int round = 0; round < rounds; ++round) {
        keepBest(bestView, runView(perToken), round);
        keepBest(bestJoined, runView(fourJoined), round);
        keepBest(bestApart, runView(fourApart), round);
        QTextBrowser browser;
        browser.resize(700, 900);
        browser.document()->setUndoRedoEnabled(false);
        browser.show();
        QString text;
        keepBest(bestNaive,
                 run(perToken, &browser, browser.document(),
                     [&browser, &text](const QString &piece) {
                         text += piece;
                         browser.document()->setMarkdown(text, QTextDocument::MarkdownDialectGitHub);
                     }),
                 round);
    }
    print("MarkdownView (incremental)", bestView);
    print("setMarkdown(whole text) per token", bestNaive);
    std::printf("ratio (setMarkdown / MarkdownView, totals): %.1fx\n", bestNaive.totalMs / bestView.totalMs);
    print("MarkdownView, 4 tokens a frame as one piece", bestJoined);
    print("MarkdownView, 4 tokens a frame one by one", bestApart);
    std::printf("one by one / as one piece, totals: %.2fx\n", bestApart.totalMs / bestJoined.totalMs);
    return 0;
}
