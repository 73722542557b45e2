#include "sseparser.h"

#include <cstring>
#include <limits>

namespace Llm {

namespace {

constexpr char Bom[] = "\xEF\xBB\xBF";
constexpr qsizetype BomSize = 3;

// Next occurrence of `c` at or after `from`, or `end`. The previous answer is reused while it
// still lies ahead: looking for LF and CR separately with memchr would otherwise rescan the
// rest of the buffer for every line of a stream that uses only the other line ending.
inline const char *findFrom(const char *from, const char *end, char c, const char *&cache)
{
    if (!cache || cache < from) {
        const void *hit = std::memchr(from, c, size_t(end - from));
        cache = hit ? static_cast<const char *>(hit) : end;
    }
    return cache;
}

bool isAllAsciiDigits(QByteArrayView v)
{
    if (v.isEmpty())
        return false;
    for (char c : v) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

} // namespace

SseParser::SseParser(qsizetype maxLineBytes, qsizetype maxEventBytes)
    : m_maxLineBytes(maxLineBytes)
    , m_maxEventBytes(maxEventBytes)
{
}

bool SseParser::feed(QByteArrayView bytes, QList<SseEvent> &out)
{
    if (hasError())
        return false;

    if (!m_bomChecked) {
        // Only the stream's first three bytes can be a BOM, and a read may end inside them:
        // hold a partial match in m_line until it is decided. A failed match leaves those
        // bytes in m_line, where they simply begin the first line.
        const qsizetype have = m_line.size();
        qsizetype i = 0;
        while (have + i < BomSize && i < bytes.size() && bytes[i] == Bom[have + i])
            ++i;
        if (have + i == BomSize) {
            m_line.resize(0);
            bytes = bytes.sliced(i);
            m_bomChecked = true;
        } else if (i == bytes.size()) {
            m_line.append(bytes.data(), bytes.size());
            return true;
        } else {
            m_bomChecked = true;
        }
    }

    const char *p = bytes.data();
    const char *const end = p + bytes.size();
    if (m_lastWasCr && p < end) {
        // The previous read ended in CR and its line was processed then; this LF is the
        // second half of that CRLF, not an empty line.
        m_lastWasCr = false;
        if (*p == '\n')
            ++p;
    }

    const char *nextLf = nullptr;
    const char *nextCr = nullptr;
    while (p < end) {
        const char *lf = findFrom(p, end, '\n', nextLf);
        const char *cr = findFrom(p, end, '\r', nextCr);
        const char *eol = lf < cr ? lf : cr;
        const qsizetype segment = eol - p;

        if (m_line.size() + segment > m_maxLineBytes) {
            fail("event-stream line longer than " + QByteArray::number(m_maxLineBytes) + " bytes");
            return false;
        }
        if (eol == end) {
            m_line.append(p, segment);
            break;
        }

        if (m_line.isEmpty()) {
            // The common case: the whole line is in this read, parse it in place.
            processLine(QByteArrayView(p, segment), out);
        } else {
            m_line.append(p, segment);
            processLine(m_line, out);
            releaseLine();
        }
        if (hasError())
            return false;

        p = eol + 1;
        if (*eol == '\r') {
            if (p == end)
                m_lastWasCr = true;
            else if (*p == '\n')
                ++p;
        }
    }
    return true;
}

bool SseParser::finish()
{
    // Bytes of an unfinished line, or fields of an event whose blank line never came: the spec
    // drops them, and a caller may want to know that it did. A pending CR already ended its line.
    const bool discarded = !m_line.isEmpty() || !m_data.isEmpty() || !m_type.isEmpty();
    m_line.clear();
    m_data.clear();
    m_type.clear();
    m_lastWasCr = false;
    return discarded;
}

void SseParser::processLine(QByteArrayView line, QList<SseEvent> &out)
{
    if (line.isEmpty()) {
        dispatch(out);
        return;
    }
    if (line.front() == ':')
        return; // comment: keep-alives and padding

    QByteArrayView field = line;
    QByteArrayView value;
    if (const void *colon = std::memchr(line.data(), ':', size_t(line.size()))) {
        const qsizetype at = static_cast<const char *>(colon) - line.data();
        field = line.first(at);
        value = line.sliced(at + 1);
        if (!value.isEmpty() && value.front() == ' ')
            value = value.sliced(1);
    }

    if (field == "data") {
        // The buffer keeps one LF per line; the last is stripped at dispatch, so the event's
        // data is the buffer minus one byte and that is what the cap applies to.
        if (m_data.size() + value.size() > m_maxEventBytes) {
            fail("event-stream event data larger than " + QByteArray::number(m_maxEventBytes) + " bytes");
            return;
        }
        if (m_data.isEmpty())
            m_data.reserve(value.size() + 1); // one allocation; dispatch() moves it out whole
        m_data.append(value.data(), value.size());
        m_data.append('\n');
    } else if (field == "event") {
        m_type = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastEventId = value.toByteArray();
    } else if (field == "retry") {
        if (isAllAsciiDigits(value)) {
            // The spec has no upper bound; saturate rather than wrap on absurd values.
            qint64 ms = 0;
            for (char c : value) {
                ms = ms * 10 + (c - '0');
                if (ms > std::numeric_limits<int>::max()) {
                    ms = std::numeric_limits<int>::max();
                    break;
                }
            }
            m_retryMs = int(ms);
        }
    }
    // Any other field name is ignored, as the spec requires (forward compatibility).
}

void SseParser::fail(const QByteArray &reason)
{
    // Nothing more will be parsed, so nothing buffered is worth keeping.
    m_error = reason;
    m_line = QByteArray();
    m_data = QByteArray();
    m_type = QByteArray();
}

void SseParser::releaseLine()
{
    // Lines that span reads are common (every read boundary makes one), so the buffer is kept
    // for the next one, unless an unusually long line made it big.
    if (m_line.capacity() > 64 * 1024)
        m_line = QByteArray();
    else
        m_line.resize(0);
}

void SseParser::dispatch(QList<SseEvent> &out)
{
    if (m_data.isEmpty()) {
        // A blank line after only `event:`/`id:`/comments: nothing to deliver.
        m_type.clear();
        return;
    }
    SseEvent event;
    event.data = std::move(m_data);
    event.data.chop(1); // the LF appended after the last data line
    event.type = std::move(m_type);
    event.id = m_lastEventId;
    m_data = QByteArray();
    m_type = QByteArray();
    out.append(std::move(event));
}

} // namespace Llm
