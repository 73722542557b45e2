#include "tracegen.h"

#include "tracegen/chatuser.h"
#include "tracegen/documentuser.h"
#include "tracegen/session.h"
#include "tracegen/wizarduser.h"

#include <array>
#include <cmath>

// The kinds and the 2–4 minute rule. The users themselves are in tracegen/: documentuser (the
// writers, the hesitant and the keyboard user), chatuser (chat, fast typist, IME), wizarduser;
// the mouse in pointer, the keyboard in typing, the window in layout, the JSON in session.

namespace Bench {

namespace {

using namespace Gen;

struct Kind {
    const char *name;
    const char *description;
    void (*play)(Session &);
    bool documents = false; // a DocumentUser: it selects, TraceKnobs::selectionAction applies
};

// Made on first use: the descriptions are read from parameter objects in other files, whose own
// initialisation (they copy the shared pointer and typing parameters) may not have run yet when
// this file's namespace-scope objects are initialised.
const std::array<Kind, 13> &kinds()
{
    static const std::array<Kind, 13> all = {{
        {"writer-long-doc", WriterLongDoc.description, [](Session &s) { playDocumentUser(s, WriterLongDoc); }, true},
        {"chat-session", ChatSession.description, [](Session &s) { playChat(s, ChatSession); }},
        {"wizard-session", WizardSession.description, [](Session &s) { playWizard(s, WizardSession); }},
        {"hesitant-user", HesitantUser.description, [](Session &s) { playDocumentUser(s, HesitantUser); }, true},
        {"decisive-writer", DecisiveWriter.description, [](Session &s) { playDocumentUser(s, DecisiveWriter); }, true},
        {"keyboard-user", KeyboardUser.description, [](Session &s) { playDocumentUser(s, KeyboardUser); }, true},
        {"fast-typist", FastTypist.description, [](Session &s) { playChat(s, FastTypist); }},
        {"ime-user", ImeUser.description, [](Session &s) { playChat(s, ImeUser); }},
        {"library-chat", LibraryChat.description, [](Session &s) { playChat(s, LibraryChat); }},
        {"repeat-user", RepeatUser.description, [](Session &s) { playChat(s, RepeatUser); }},
        {"follow-up-user", FollowUpUser.description, [](Session &s) { playChat(s, FollowUpUser); }},
        {"reviser", Reviser.description, [](Session &s) { playChat(s, Reviser); }},
        {"paster", Paster.description, [](Session &s) { playChat(s, Paster); }},
    }};
    return all;
}

// Every trace lasts 2–4 minutes: long enough for a kind's behaviour to show, short enough for a
// benchmark of several traces, profiles and modes. A seed whose trace falls outside is played
// again with the next attempt's random numbers (rarely more than once; deterministic all the same).
constexpr qint64 MinDurationMs = 120000;
constexpr qint64 MaxDurationMs = 240000;
constexpr int MaxAttempts = 100;

} // namespace

QStringList traceKinds()
{
    QStringList names;
    for (const Kind &kind : kinds())
        names.append(QLatin1String(kind.name));
    return names;
}

QStringList documentKinds()
{
    QStringList names;
    for (const Kind &kind : kinds()) {
        if (kind.documents)
            names.append(QLatin1String(kind.name));
    }
    return names;
}

QStringList pooledKinds()
{
    QStringList names = traceKinds();
    // Asked for by name: the cache's own kind, and issue 39's chat users, so that the pooled
    // figures of issue 10 keep their meaning.
    names.removeAll(QStringLiteral("repeat-user"));
    names.removeAll(QStringLiteral("follow-up-user"));
    names.removeAll(QStringLiteral("reviser"));
    names.removeAll(QStringLiteral("paster"));
    return names;
}

namespace {
const QString SelectionSuffix = QStringLiteral("@sel");
}

QString TraceKnobs::suffix() const
{
    return isDefault() ? QString()
                       : SelectionSuffix + QString::number(std::lround(std::max(0.0, selectionAction) * 100));
}

std::pair<QString, TraceKnobs> TraceKnobs::split(const QString &name)
{
    const qsizetype at = name.lastIndexOf(SelectionSuffix);
    if (at < 0)
        return {name, TraceKnobs{}};
    return {name.left(at), TraceKnobs{name.mid(at + SelectionSuffix.size()).toInt() / 100.0}};
}

std::expected<QByteArray, QString> generateTrace(const QString &kind, quint64 seed, const TraceKnobs &knobs)
{
    for (const Kind &k : kinds()) {
        if (kind != QLatin1String(k.name))
            continue;
        QByteArray text;
        for (int attempt = 0; attempt < MaxAttempts; ++attempt) {
            Session session(k.name, seed, quint64(attempt), k.description);
            session.knobs = knobs;
            k.play(session);
            text = session.finish();
            const bool longEnough = session.durationMs() >= MinDurationMs;
            if (longEnough && (session.durationMs() <= MaxDurationMs || !knobs.isDefault()))
                break;
        }
        return text;
    }
    return std::unexpected(
        QStringLiteral("unknown trace kind \"%1\" (known: %2)").arg(kind, traceKinds().join(QStringLiteral(", "))));
}

std::expected<Trace, QString> generatedTrace(const QString &kind, quint64 seed, const TraceKnobs &knobs)
{
    const auto text = generateTrace(kind, seed, knobs);
    if (!text)
        return std::unexpected(text.error());
    const QString name = QStringLiteral("%1#%2%3").arg(kind).arg(seed).arg(knobs.suffix());
    auto trace = Trace::parse(*text, name);
    if (!trace)
        return std::unexpected(trace.error());
    trace->name = name;
    if (!knobs.isDefault())
        trace->meta.insert(QStringLiteral("name"), kind + knobs.suffix());
    return trace;
}

} // namespace Bench
