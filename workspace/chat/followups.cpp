#include "followups.h"

#include "base/text.h"
#include "prefetch/strategies/classifier.h"

#include <QHash>

#include <algorithm>

namespace Gui::FollowUps {

namespace {

// What makes two replies the same suggestion: the words, not their case, spacing or final
// punctuation ("Why?" and "why").
QString key(QStringView text)
{
    return Prefetch::normalizeDraft(text).toCaseFolded();
}

} // namespace

bool isShortReply(QStringView text)
{
    const QStringView t = text.trimmed();
    if (t.isEmpty() || t.size() > 80 || t.contains(QLatin1Char('\n')))
        return false;
    qsizetype cjk = 0;
    qsizetype words = 0;
    bool inWord = false;
    for (const QChar c : t) {
        if (Base::isCjkLetter(c.unicode())) {
            ++cjk;
            inWord = false;
        } else if (c.isSpace()) {
            inWord = false;
        } else if (!inWord) {
            inWord = true;
            ++words;
        }
    }
    return cjk <= 20 && words <= 8;
}

bool isSame(QStringView a, QStringView b)
{
    return key(a) == key(b);
}

QStringList builtIn(bool chinese)
{
    // Written for the product, as a writer asks things of an answer: have it shorter, see it
    // applied, know why. Not taken from any trace.
    if (chinese)
        return {QStringLiteral("再简短一点。"), QStringLiteral("举个例子。"), QStringLiteral("为什么？")};
    return {QStringLiteral("Make it shorter."), QStringLiteral("Give an example."), QStringLiteral("Why?")};
}

QStringList suggest(const QStringList &pastReplies, bool chinese, int count)
{
    struct Seen {
        QString text; // the newest spelling
        int times = 0;
        qsizetype newest = 0; // index in pastReplies
    };
    QHash<QString, Seen> seen;
    for (qsizetype i = 0; i < pastReplies.size(); ++i) {
        const QString &reply = pastReplies.at(i);
        if (!isShortReply(reply))
            continue;
        Seen &s = seen[key(reply)];
        if (s.times++ == 0) {
            s.text = reply.trimmed();
            s.newest = i;
        }
    }
    QList<Seen> own;
    for (const Seen &s : std::as_const(seen)) {
        if (s.times >= 2) // once is not a habit: a built-in one is likelier
            own.append(s);
    }
    std::sort(own.begin(), own.end(), [](const Seen &a, const Seen &b) {
        return a.times != b.times ? a.times > b.times : a.newest < b.newest;
    });
    QStringList out;
    QStringList keys;
    const auto add = [&](const QString &text) {
        const QString k = key(text);
        if (out.size() < count && !keys.contains(k)) {
            out.append(text);
            keys.append(k);
        }
    };
    for (const Seen &s : std::as_const(own))
        add(s.text);
    for (const QString &text : builtIn(chinese))
        add(text);
    return out;
}

} // namespace Gui::FollowUps
