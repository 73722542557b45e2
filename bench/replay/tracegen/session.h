#pragma once

#include "bench/replay/tracegen.h"
#include "random.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <initializer_list>

namespace Bench::Gen {

struct Rect;

// One "key":value pair, the value already JSON. Fields keep the order they are written in (a
// QJsonObject would sort them), so lines read "t", "event", then the event's own fields.
struct Field {
    QByteArray json;
};

QByteArray jsonString(const QString &text);
Field num(const char *key, qint64 value);
Field unsignedNum(const char *key, quint64 value);
Field str(const char *key, const QString &value);
Field object(const char *key, std::initializer_list<Field> fields);
Field object(const char *key, const QList<Field> &fields);
Field rect(const char *key, const Rect &r); // [x, y, w, h]
Field strings(const char *key, const QStringList &values);

// The trace being written, the user's clock (ms since the trace started) and what the keyboard
// holds: focus and modifiers, written only when they change. Lines are written in time order.
class Session
{
public:
    // `attempt` > 0: the seed's earlier traces fell outside 2–4 minutes (see generateTrace()).
    Session(const char *kind, quint64 seed, quint64 attempt, const char *description);

    void write(const char *event, std::initializer_list<Field> fields = {}) { writeAt(t, event, fields); }
    void writeAt(qint64 at, const char *event, std::initializer_list<Field> fields = {});

    // Keyboard focus moved (Tab or a click): "document", "chat_input", an action or "other".
    void focus(const QString &target);
    QString focused() const { return m_focus; }
    // The modifiers held now, in the order they went down.
    void modifiers(const QStringList &keys);
    QStringList held() const { return m_modifiers; }

    // The last line, late enough for the last answer to stream and be read.
    QByteArray finish();
    qint64 durationMs() const { return m_lastT; }
    qint64 lastWritten() const { return m_lastT; }

    Random rng;
    qint64 t = 0;
    TraceKnobs knobs; // what a sweep varies; the kinds read what applies to them

private:
    // An answer of ~400 tokens at ~40 tokens/s after ~750 ms to the first token, and a second.
    static constexpr qint64 AnswerRoomMs = 12000;

    QByteArray m_text;
    qint64 m_lastT = 0;
    qint64 m_lastActivation = -AnswerRoomMs;
    QString m_focus;
    QStringList m_modifiers;
};

} // namespace Bench::Gen
