#pragma once

#include "random.h"

#include <QByteArray>
#include <QString>

#include <initializer_list>

namespace Bench::Gen {

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

// The trace being written and the user's clock, in ms since the trace started. Lines are written
// in time order.
class Session
{
public:
    // `attempt` > 0: the seed's earlier traces fell outside 2–4 minutes (see generateTrace()).
    Session(const char *kind, quint64 seed, quint64 attempt, const char *description);

    void write(const char *event, std::initializer_list<Field> fields = {}) { writeAt(t, event, fields); }
    void writeAt(qint64 at, const char *event, std::initializer_list<Field> fields = {});

    // The last line, late enough for the last answer to stream and be read.
    QByteArray finish();
    qint64 durationMs() const { return m_lastT; }
    qint64 lastWritten() const { return m_lastT; }

    Random rng;
    qint64 t = 0;

private:
    // An answer of ~400 tokens at ~40 tokens/s after ~750 ms to the first token, and a second.
    static constexpr qint64 AnswerRoomMs = 12000;

    QByteArray m_text;
    qint64 m_lastT = 0;
    qint64 m_lastActivation = -AnswerRoomMs;
};

} // namespace Bench::Gen
