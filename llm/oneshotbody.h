#pragma once

#include <QByteArray>
#include <QIODevice>

namespace Llm {

// A request body Qt can read once and never again. Qt 6.4's HTTP/1.1 layer sends a POST again
// by itself, up to three times, when the connection closes before any response (it takes that
// for a kept-alive connection the server had just closed); it can do so only by rewinding the
// body. This body refuses to rewind, so the resend fails (QNetworkReply::ContentReSendError)
// instead of reaching the server again. Used for requests that must not repeat behind the
// app's back: a guess or a warm-up is never sent twice (docs/reliability.md, "Bounds").
// Sequential, read-only; must be sent with DoNotBufferUploadDataAttribute and a Content-Length.
class OneShotBody : public QIODevice
{
public:
    explicit OneShotBody(QByteArray bytes, QObject *parent = nullptr);

    bool isSequential() const override { return true; }
    bool reset() override { return false; }
    qint64 bytesAvailable() const override;

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_bytes;
    qint64 m_read = 0;
};

} // namespace Llm
