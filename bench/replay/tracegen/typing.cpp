#include "typing.h"

#include "session.h"

namespace Bench::Gen {

// Source: Dhakal et al., "Observations on typing from 136 million keystrokes" (CHI 2018): 52 WPM
// on average over 168,000 people, i.e. about 230 ms between keys, with wide spread (under 20 to
// over 120 WPM) and longer pauses between words and phrases (PREFETCH.md). How that mean splits
// into in-word keys, word starts and phrase starts is an assumption, set so that the whole mix
// averages about 230–240 ms between keys (median about 190 ms, as a lognormal's median sits below
// its mean).
const TypingCadence DhakalTyping{
    .withinWord = {165, 0.45, 40, 1500},
    .wordStart = {290, 0.5, 70, 3000},
    .afterPunctuation = {600, 0.5, 150, 5000},
    // Assumption: about one word in fifteen starts after a pause of 0.5–6 s (looking back at the
    // text, choosing a phrase); these are the mid-message pauses longer than a debounce.
    .thinkingPauseChance = 0.07,
    .thinkingPause = {1200, 0.6, 400, 6000},
    // Assumption: repeated Backspace runs near key-repeat speed, ~8 keys/s.
    .backspace = {120, 0.35, 50, 600},
};

// Dhakal et al.'s faster users type 80–100 WPM and more, 120–150 ms between keys on average; the
// split is scaled from DhakalTyping (assumption), with word starts relatively shorter (fast typists
// plan the next word while typing the last: their rollover) and fewer long pauses.
const TypingCadence FastTyping{
    .withinWord = {100, 0.4, 25, 900},
    .wordStart = {150, 0.45, 40, 2000},
    .afterPunctuation = {380, 0.5, 100, 4000},
    .thinkingPauseChance = 0.04,
    .thinkingPause = {1000, 0.6, 350, 5000},
    .backspace = {90, 0.3, 40, 400},
};

// Assumption: shortcuts are chorded with the modifiers a quarter of a second before the letter
// (the brief's 100–400 ms), the second modifier a moment after the first, all released soon
// after the letter.
const ModifierTiming ShortcutModifiers{
    .lead = {220, 0.35, 100, 400},
    .between = {60, 0.5, 15, 150},
    .release = {120, 0.5, 40, 400},
    .staggeredReleaseChance = 0.5,
    .stagger = {40, 0.5, 10, 120},
};

// Assumption: Shift goes down a little before the capital, up soon after it.
const ModifierTiming ShiftModifier{
    .lead = {90, 0.4, 30, 250},
    .between = {0, 0, 0, 0},
    .release = {70, 0.4, 20, 200},
    .staggeredReleaseChance = 0,
    .stagger = {0, 0, 0, 0},
};

bool endsPhrase(QChar c)
{
    return c == u',' || c == u'.' || c == u';' || c == u':' || c == u'!' || c == u'?' || c == u'，' || c == u'。'
           || c == u'？' || c == u'！';
}

bool needsShift(QChar c)
{
    return c.isUpper() || QStringView(u"?:!\"()&%$#@*+<>{}|~^_？！：").contains(c);
}

qint64 keyGap(Random &rng, const TypingCadence &c, const QString &before, double pace)
{
    qint64 gap = 0;
    if (before.isEmpty() || !before.back().isSpace()) {
        gap = rng.draw(c.withinWord);
    } else {
        const bool phrase = before.size() >= 2 && endsPhrase(before.at(before.size() - 2));
        gap = rng.draw(phrase ? c.afterPunctuation : c.wordStart);
        if (rng.chance(c.thinkingPauseChance))
            gap += rng.draw(c.thinkingPause);
    }
    return pace == 1 ? gap : std::max<qint64>(20, std::llround(double(gap) * pace));
}

qint64 typingTime(Random &rng, const TypingCadence &c, const QString &text, double pace)
{
    qint64 total = 0;
    for (qsizetype i = 1; i < text.size(); ++i)
        total += keyGap(rng, c, text.left(i), pace);
    return total;
}

void chord(Session &s, const ModifierTiming &timing, const QStringList &keys, const std::function<void()> &atKey)
{
    Random &rng = s.rng;
    const qint64 keyAt = s.t + rng.draw(timing.lead);
    QStringList held;
    for (qsizetype i = 0; i < keys.size(); ++i) {
        if (i > 0)
            s.t = std::min(s.t + rng.draw(timing.between), keyAt - 10 * (keys.size() - i));
        held.append(keys.at(i));
        s.modifiers(held);
    }
    s.t = keyAt;
    atKey();
    s.t += rng.draw(timing.release);
    if (held.size() > 1 && rng.chance(timing.staggeredReleaseChance)) {
        held.removeLast();
        s.modifiers(held);
        s.t += rng.draw(timing.stagger);
    }
    s.modifiers({});
}

void ShiftKey::beforeKey(QChar c, qint64 previousKeyAt)
{
    const qint64 keyAt = m_session.t;
    const bool shift = needsShift(c);
    if (m_held && !shift) {
        m_session.t = std::clamp(m_releaseAt, previousKeyAt, keyAt);
        m_session.modifiers({});
        m_held = false;
    } else if (!m_held && shift) {
        m_session.t = std::max(m_session.lastWritten(), keyAt - m_session.rng.draw(m_timing.lead));
        m_session.modifiers({QStringLiteral("shift")});
        m_held = true;
    }
    m_session.t = keyAt;
}

void ShiftKey::afterKey()
{
    if (m_held)
        m_releaseAt = m_session.t + m_session.rng.draw(m_timing.release);
}

void ShiftKey::release(qint64 before)
{
    if (!m_held)
        return;
    const qint64 now = m_session.t;
    m_session.t = std::clamp(m_releaseAt, m_session.lastWritten(), std::max(m_session.lastWritten(), before));
    m_session.modifiers({});
    m_held = false;
    m_session.t = std::max(now, m_session.t);
}

} // namespace Bench::Gen
