#include "oneshotbody.h"

#include <cstring>

namespace Llm {

OneShotBody::OneShotBody(QByteArray bytes, QObject *parent)
    : QIODevice(parent)
    , m_bytes(std::move(bytes))
{
    open(QIODevice::ReadOnly);
}

qint64 OneShotBody::bytesAvailable() const
{
    return m_bytes.size() - m_read + QIODevice::bytesAvailable();
}

qint64 OneShotBody::readData(char *data, qint64 maxSize)
{
    const qint64 n = std::min(maxSize, qint64(m_bytes.size()) - m_read);
    if (n <= 0)
        return m_read >= m_bytes.size() ? -1 : 0;
    std::memcpy(data, m_bytes.constData() + m_read, size_t(n));
    m_read += n;
    return n;
}

} // namespace Llm
