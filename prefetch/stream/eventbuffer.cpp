#include "eventbuffer.h"

#include <limits>

namespace Prefetch {

void EventBuffer::append(const Llm::StreamEvent &event)
{
    using T = Llm::StreamEvent::Type;
    if (event.isContent())
        ++m_tokens;
    const bool compact = (event.type == T::TextDelta || event.type == T::ReasoningDelta
                          || event.type == T::RefusalDelta)
                         && event.choice >= 0 && event.choice < 255
                         && event.text.size() <= std::numeric_limits<quint16>::max()
                         && m_text.size() + event.text.size() <= std::numeric_limits<quint32>::max();
    if (compact) {
        m_entries.append(
            {quint8(event.type), quint8(event.choice), quint16(event.text.size()), quint32(m_text.size())});
        m_text += event.text;
        return;
    }
    m_entries.append({Whole, 0, 0, quint32(m_whole.size())});
    m_whole.append(event);
}

Llm::StreamEvent EventBuffer::at(qsizetype index) const
{
    const Entry &e = m_entries.at(index);
    if (e.type == Whole)
        return m_whole.at(e.offset);
    Llm::StreamEvent event;
    event.type = Llm::StreamEvent::Type(e.type);
    event.choice = e.choice;
    event.text = m_text.mid(e.offset, e.length);
    return event;
}

void EventBuffer::clear()
{
    m_entries.clear();
    m_text.clear();
    m_whole.clear();
    m_tokens = 0;
}

qsizetype EventBuffer::memoryBytes() const
{
    qsizetype bytes = m_entries.capacity() * qsizetype(sizeof(Entry)) + m_text.capacity() * qsizetype(sizeof(QChar))
                      + m_whole.capacity() * qsizetype(sizeof(Llm::StreamEvent));
    for (const Llm::StreamEvent &e : m_whole)
        bytes += (e.text.capacity() + e.toolId.capacity() + e.toolName.capacity() + e.errorType.capacity())
                 * qsizetype(sizeof(QChar));
    return bytes;
}

} // namespace Prefetch
