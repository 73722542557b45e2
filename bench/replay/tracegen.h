#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <expected>

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
// What `--kind all` plays: the nine kinds issue 10's pooled figures were measured on, every kind
// but repeat-user. Those figures are about prefetch; a trace made of repeated questions is the
// response cache's benchmark and would move their pools without any change to prefetch.
QStringList pooledKinds();

// The trace's JSON Lines text (a "meta" line first, "end" last). The error names an unknown kind
// and the known ones.
std::expected<QByteArray, QString> generateTrace(const QString &kind, quint64 seed);

} // namespace Bench
