#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <expected>

namespace Bench {

// One line of a behaviour trace: `t` ms after the trace starts, the event's name and its fields.
// The format is documented in bench/README.md.
struct TraceEvent {
    qint64 t = 0;
    QString event;
    QJsonObject fields;
    int line = 0; // for error messages
};

struct Trace {
    QString name;
    QJsonObject meta;
    QList<TraceEvent> events;
    qint64 durationMs() const { return events.isEmpty() ? 0 : events.constLast().t; }

    // Reads a JSON Lines trace. The error names the file and line: a bad line, an unknown event,
    // a missing field, time going backwards.
    static std::expected<Trace, QString> load(const QString &path);
    static std::expected<Trace, QString> parse(const QByteArray &jsonLines, const QString &name);
};

} // namespace Bench
