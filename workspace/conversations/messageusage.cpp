#include "workspace/conversations/messageusage.h"

#include "workspace/settings/money.h"

#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace Gui {

namespace {

constexpr double NsPerMs = 1e6;

QString count(qint64 n)
{
    return QLocale().toString(n);
}

QString seconds(double ms)
{
    return ms < 1000
               ? QCoreApplication::translate("Gui::MessageUsage", "%1 ms").arg(QLocale().toString(ms, 'f', 0))
               : QCoreApplication::translate("Gui::MessageUsage", "%1 s").arg(QLocale().toString(ms / 1000, 'f', 2));
}

QString rate(double perSecond)
{
    return QCoreApplication::translate("Gui::MessageUsage", "%1 tok/s")
        .arg(QLocale().toString(perSecond, 'f', perSecond < 10 ? 1 : 0));
}

QString money(const MessageUsage &usage)
{
    return usage.cost == 0 ? QCoreApplication::translate("Gui::MessageUsage", "free")
                           : formatMoney(usage.cost, usage.currency);
}

} // namespace

MessageUsage measureUsage(const Prefetch::AnswerReader &stream, const Llm::Prices &prices)
{
    MessageUsage out;
    const Prefetch::AnswerFetch *answer = stream.answer();
    out.tokens = answer ? answer->usage() : stream.usage();
    if (answer) {
        out.model = answer->request().request.model;
        out.openingModel = answer->openingModel();
        out.openingChars = answer->openingLength();
    }
    if (answer && answer->startedNs() >= 0 && answer->firstTokenNs() >= answer->startedNs()) {
        out.firstTokenMs = double(answer->firstTokenNs() - answer->startedNs()) / NsPerMs;
        const qint64 end = answer->finishedNs();
        // Under a few ms of streaming (a whole answer in one read) a rate says nothing.
        if (end > answer->firstTokenNs() + 5 * qint64(NsPerMs) && out.tokens.outputTokens > 0)
            out.tokensPerSecond = double(out.tokens.outputTokens) * 1e9 / double(end - answer->firstTokenNs());
    }
    if (!out.tokens.isEmpty()) {
        // Each model's share at its own prices (the fast opening is the fast model's). The demo
        // engine bills nothing: its prices (DeepSeek's) are for the metrics, not for the
        // answer's line, which says "free" as the user guide does.
        const bool demo = answer && answer->profile().isLocalDemo;
        out.cost = demo ? 0 : answer ? answer->costOf(out.tokens, answer->profile()) : prices.cost(out.tokens);
        out.currency = prices.currency;
    }
    return out;
}

QString usageLine(const MessageUsage &usage)
{
    QStringList parts;
    const Llm::Usage &t = usage.tokens;
    if (t.inputTokens >= 0) {
        QString in = QCoreApplication::translate("Gui::MessageUsage", "%1 in").arg(count(t.inputTokens));
        if (t.cacheReadTokens > 0)
            in = QCoreApplication::translate("Gui::MessageUsage", "%1 (%2 cached)").arg(in, count(t.cacheReadTokens));
        parts << in;
    }
    if (t.outputTokens >= 0)
        parts << QCoreApplication::translate("Gui::MessageUsage", "%1 out").arg(count(t.outputTokens));
    if (usage.firstTokenMs >= 0)
        parts << seconds(usage.firstTokenMs);
    if (usage.tokensPerSecond > 0)
        parts << rate(usage.tokensPerSecond);
    if (usage.cost >= 0)
        parts << money(usage);
    return parts.join(QStringLiteral(" · "));
}

QString usageDetails(const MessageUsage &usage)
{
    const Llm::Usage &t = usage.tokens;
    const QString unknown = QCoreApplication::translate("Gui::MessageUsage", "not reported");
    auto tokens = [&](qint64 n) { return n >= 0 ? count(n) : unknown; };
    QStringList lines;
    lines << QCoreApplication::translate("Gui::MessageUsage", "Input tokens: %1").arg(tokens(t.inputTokens))
          << QCoreApplication::translate("Gui::MessageUsage", "Cached input (read from the provider's cache): %1")
                 .arg(tokens(t.cacheReadTokens))
          << QCoreApplication::translate("Gui::MessageUsage", "Cache write (input stored in the cache): %1")
                 .arg(tokens(t.cacheWriteTokens))
          << QCoreApplication::translate("Gui::MessageUsage", "Output tokens: %1").arg(tokens(t.outputTokens));
    if (t.reasoningTokens >= 0)
        lines
            << QCoreApplication::translate("Gui::MessageUsage", "Of which reasoning: %1").arg(count(t.reasoningTokens));
    lines << QCoreApplication::translate("Gui::MessageUsage", "Time to first token (provider): %1")
                 .arg(usage.firstTokenMs >= 0 ? seconds(usage.firstTokenMs) : unknown)
          << QCoreApplication::translate("Gui::MessageUsage", "Output speed: %1")
                 .arg(usage.tokensPerSecond > 0 ? rate(usage.tokensPerSecond) : unknown)
          << QCoreApplication::translate("Gui::MessageUsage", "Cost, as the provider bills it: %1")
                 .arg(usage.cost >= 0 ? money(usage) : unknown);
    if (!usage.openingModel.isEmpty())
        lines << QCoreApplication::translate("Gui::MessageUsage", "First words (%n characters) by %1, the rest by %2",
                                             nullptr, int(usage.openingChars))
                     .arg(usage.openingModel, usage.model);
    return lines.join(u'\n');
}

} // namespace Gui
