#pragma once

#include "trace.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <expected>
#include <utility>

namespace Bench {

// Behaviour traces for the replay benchmark, made from a seed: what a user does in the app
// (hover, press, click, type, send, wizard steps, documents) and when, with the signals before
// those actions (the window's layout, the pointer's path, keyboard focus, modifier keys, a
// selection being made), as JSON Lines that Trace::parse() reads. Every timing comes from a
// parameter struct per kind or concern in tracegen/, each value with its source (PREFETCH.md's
// figures about people, published studies) or marked as an assumption; bench/README.md lists them.
//
// The same kind and seed give the same bytes on every platform and compiler: the generator
// has its own random numbers (splitmix64) and its own log/exp, and rounds times and pixels to
// integers.

// "writer-long-doc", "chat-session", "wizard-session", "hesitant-user", "decisive-writer",
// "keyboard-user", "fast-typist", "ime-user", "library-chat", "repeat-user".
QStringList traceKinds();
// The kinds that work on documents (and select in them): what TraceKnobs::selectionAction applies to.
QStringList documentKinds();
// What `--kind all` plays: the nine kinds issue 10's pooled figures were measured on, every kind
// but repeat-user. Those figures are about prefetch; a trace made of repeated questions is the
// response cache's benchmark and would move their pools without any change to prefetch.
QStringList pooledKinds();

// What a sensitivity sweep varies (issue 40): behaviour the strategies depend on, away from what
// the kinds were written with. The defaults leave every trace as it always was, byte for byte.
struct TraceKnobs {
    // The share of a document user's selections that lead to an action. 1: every one, as the
    // kinds were written (a paragraph is selected only to rewrite or explain it). Below 1, stray
    // selections are added, made to copy a paragraph, type over it or delete it: (1 - p) / p of
    // them, on average, before each selection that does lead to one. 0: a user who never runs an
    // action on a selection (no Rewrite or Explain) and selects ~1.5 times per action anyway.
    // Chat and wizard kinds make no selections and ignore it.
    double selectionAction = 1.0;

    bool isDefault() const { return selectionAction >= 1.0; }
    // What a trace's name gets: "" by default, "@sel20" for selectionAction 0.2.
    QString suffix() const;
    // A kind name with its suffix taken apart ("writer-long-doc@sel20": the kind and 0.2; no
    // suffix: the name itself and the defaults).
    static std::pair<QString, TraceKnobs> split(const QString &name);
};

// The trace's JSON Lines text (a "meta" line first, "end" last). The error names an unknown kind
// and the known ones. A trace with knobs is not held to 2–4 minutes: stray selections take the
// user's time.
std::expected<QByteArray, QString> generateTrace(const QString &kind, quint64 seed, const TraceKnobs &knobs = {});
// The same, parsed: named "kind#seed" (with the knobs' suffix), its meta "name" (the kind the
// report's figures are pooled by) the kind with the suffix, so that each sweep point is a kind
// of its own there.
std::expected<Trace, QString> generatedTrace(const QString &kind, quint64 seed, const TraceKnobs &knobs = {});

} // namespace Bench
