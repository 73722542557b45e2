#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

#include <optional>

namespace Llm {

struct SseEvent {
    QByteArray type; // the `event` field; empty means the default type, "message"
    QByteArray data; // `data` lines joined with '\n', raw UTF-8 bytes
    QByteArray id;   // the last event id in force when this event was dispatched

    friend bool operator==(const SseEvent &, const SseEvent &) = default;
};

// Incremental parser for the WHATWG "text/event-stream" format.
//
// Feed it bytes in any chunking: the events it dispatches are the same for every split of the
// same bytes (a CR at the end of one read and an LF at the start of the next are one line end).
// Memory is bounded: a line longer than maxLineBytes, or an event whose data grows past
// maxEventBytes, puts the parser into an error state instead of buffering forever.
// Pure value, no Qt object; use from one thread at a time.
class SseParser
{
public:
    static constexpr qsizetype DefaultMaxLineBytes = 4 * 1024 * 1024;
    static constexpr qsizetype DefaultMaxEventBytes = 16 * 1024 * 1024;

    explicit SseParser(qsizetype maxLineBytes = DefaultMaxLineBytes, qsizetype maxEventBytes = DefaultMaxEventBytes);

    // Parses `bytes`, appending every event completed by them to `out`. Returns false once the
    // parser is in the error state (then it ignores further input).
    bool feed(QByteArrayView bytes, QList<SseEvent> &out);

    // End of stream: an event not terminated by a blank line is discarded, as the spec says.
    // Returns true when such an unterminated tail was discarded (callers may report it).
    bool finish();

    bool hasError() const { return !m_error.isEmpty(); }
    QByteArray errorString() const { return m_error; }

    QByteArray lastEventId() const { return m_lastEventId; }
    std::optional<int> retryMs() const { return m_retryMs; }
    qsizetype bufferedBytes() const { return m_line.size() + m_data.size(); }

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);
    void dispatch(QList<SseEvent> &out);
    void releaseLine();
    void fail(const QByteArray &reason);

    qsizetype m_maxLineBytes;
    qsizetype m_maxEventBytes;
    QByteArray m_line; // the current, incomplete line
    QByteArray m_data; // data buffer of the event being built
    QByteArray m_type;
    QByteArray m_lastEventId;
    QByteArray m_error;
    std::optional<int> m_retryMs;
    bool m_bomChecked = false;
    bool m_lastWasCr = false; // the previous chunk ended in CR: a leading LF now belongs to it
};

} // namespace Llm
