#include "documents.h"

#include "localprovider/stablehash.h"

#include <array>

namespace Bench {

namespace {

const std::array<const char *, 64> EnglishWords =
    {"the",     "prompt",  "cache",    "holds",     "a",        "document", "while",   "users",
     "read",    "and",     "write",    "every",     "answer",   "starts",   "before",  "click",
     "latency", "budget",  "stream",   "token",     "model",    "provider", "section", "draft",
     "outline", "reader",  "sentence", "measure",   "first",    "waits",    "quickly", "costs",
     "guess",   "cancel",  "prefetch", "warm",      "lane",     "request",  "context", "edit",
     "summary", "chapter", "argument", "evidence",  "figure",   "result",   "method",  "team",
     "product", "release", "plan",     "review",    "feedback", "question", "because", "which",
     "often",   "rarely",  "clearly",  "carefully", "now",      "later",    "again",   "together"};

const QString ChineseCharacters = QStringLiteral(
    "文档缓存模型回答用户阅读写作延迟预算请求令牌开始之前点击取消预取上下文章节大纲读者句子测量首次等待快速成本猜测编辑"
    "总结论证证据图表结果方法团队产品发布计划审查反馈问题因为经常很少清楚仔细现在以后再次一起");

} // namespace

QString makeDocument(int tokens, quint64 seed, const QString &language)
{
    LocalProvider::Rng rng(seed * 0x2545f4914f6cdd1dULL + 1);
    const bool chinese = language == QLatin1String("zh");
    QString text;
    text.reserve(chinese ? tokens + tokens / 20 : tokens * 4 + tokens / 5);
    const qsizetype target = chinese ? tokens : qsizetype(tokens) * 4;
    int sentencesInParagraph = 0;
    while (text.size() < target) {
        const int words = 6 + rng.bounded(14);
        QString sentence;
        for (int w = 0; w < words; ++w) {
            if (chinese) {
                sentence += ChineseCharacters.at(rng.bounded(int(ChineseCharacters.size())));
                sentence += ChineseCharacters.at(rng.bounded(int(ChineseCharacters.size())));
            } else {
                QString word = QString::fromLatin1(EnglishWords[size_t(rng.bounded(int(EnglishWords.size())))]);
                if (w == 0)
                    word[0] = word[0].toUpper();
                sentence += (w ? QStringLiteral(" ") : QString()) + word;
            }
        }
        text += sentence + (chinese ? QStringLiteral("。") : QStringLiteral(". "));
        if (++sentencesInParagraph >= 3 + rng.bounded(4)) {
            text = text.trimmed() + QStringLiteral("\n\n");
            sentencesInParagraph = 0;
        }
    }
    return text.trimmed();
}

QStringList paragraphs(const QString &document)
{
    return document.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts);
}

} // namespace Bench
