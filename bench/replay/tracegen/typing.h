#pragma once

#include "random.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace Bench::Gen {

class Session;

// Key-by-key timing; sources in bench/README.md ("Typing cadence").
struct TypingCadence {
    Lognormal withinWord;       // the next letter of the same word
    Lognormal wordStart;        // the first letter after a space: choosing the next word
    Lognormal afterPunctuation; // the first letter after ", " or ". ": a new phrase
    double thinkingPauseChance; // per word start, a pause to think on top of it
    Lognormal thinkingPause;
    Lognormal backspace; // one key held or tapped repeatedly: faster than typing
};

extern const TypingCadence DhakalTyping; // ~52 WPM, the average of Dhakal et al.'s 168,000 typists
extern const TypingCadence FastTyping;   // ~90 WPM, their faster users

bool endsPhrase(QChar c);
// Keys typed with Shift held on a US layout: capitals and the shifted punctuation.
bool needsShift(QChar c);

// The time between the last key of `before` and the next key, × `pace` (a user's own speed).
qint64 keyGap(Random &rng, const TypingCadence &c, const QString &before, double pace = 1);

// How long typing `text` takes, from its first key to its last, when only the result is in the
// trace (form fields, document edits).
qint64 typingTime(Random &rng, const TypingCadence &c, const QString &text, double pace = 1);

// When modifier keys go down and up around the key they modify.
struct ModifierTiming {
    Lognormal lead;                // the first modifier down → the key
    Lognormal between;             // the first modifier down → the next one
    Lognormal release;             // the key → the modifiers up
    double staggeredReleaseChance; // released one after the other rather than together
    Lognormal stagger;
};

extern const ModifierTiming ShortcutModifiers; // Ctrl+Alt+S and the like
extern const ModifierTiming ShiftModifier;     // Shift for a capital while typing

// A chord: `keys` go down one after the other from s.t, the key itself comes `lead` later and
// runs `atKey` with s.t at the key's time, then the modifiers go up. s.t ends after the release.
void chord(Session &s, const ModifierTiming &timing, const QStringList &keys, const std::function<void()> &atKey);

// Shift while typing text key by key: down before a key that needs it, up after the last one.
class ShiftKey
{
public:
    ShiftKey(Session &s, const ModifierTiming &timing)
        : m_session(s)
        , m_timing(timing)
    {
    }
    // Call before writing the key at s.t (s.t is the key's time; the previous key was written).
    void beforeKey(QChar c, qint64 previousKeyAt);
    // Call after writing a key.
    void afterKey();
    // Releases a held Shift before `before` (the next event that is not a key).
    void release(qint64 before);

private:
    Session &m_session;
    const ModifierTiming &m_timing;
    bool m_held = false;
    qint64 m_releaseAt = -1;
};

} // namespace Bench::Gen
