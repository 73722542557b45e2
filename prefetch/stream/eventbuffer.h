#pragma once

#include "llm/llmtypes.h"

#include <QList>
#include <QString>

namespace Prefetch {

// The decoded events a prefetch session holds until someone consumes it, stored compactly:
// a text delta (nearly every event) costs 8 bytes plus its characters in one shared string;
// the rare events (usage, finish, tool calls, errors) are kept whole. 200 buffered tokens take
// a few KiB instead of the ~40 KiB a QList<StreamEvent> would. Order and content are exact.
class EventBuffer
{
public:
    void append(const Llm::StreamEvent &event);
    qsizetype size() const { return m_entries.size(); }
    bool isEmpty() const { return m_entries.isEmpty(); }
    Llm::StreamEvent at(qsizetype index) const;
    // Content deltas (text, reasoning, refusal, tool-call fragments): what the cap counts.
    qsizetype tokenCount() const { return m_tokens; }
    void clear();
    // Heap bytes held, for the memory benchmark.
    qsizetype memoryBytes() const;

private:
    struct Entry {
        quint8 type;    // Llm::StreamEvent::Type, or Whole for an event kept in m_whole
        quint8 choice;  // choices beyond 255 are kept whole
        quint16 length; // characters in m_text; longer deltas are kept whole
        quint32 offset; // into m_text, or into m_whole
    };
    static constexpr quint8 Whole = 0xff;

    QList<Entry> m_entries;
    QString m_text;
    QList<Llm::StreamEvent> m_whole;
    qsizetype m_tokens = 0;
};

} // namespace Prefetch
