#pragma once

#include "faultspec.h"
#include "wireformat.h"

#include <QObject>

namespace LocalProvider {

class HttpConnection;
class ServerState;

// The `flood=KIND` fault: a response that never ends, written as fast as the client reads it
// (docs/localprovider.md, "Faults"). What a hostile or broken server does to a client that trusts
// it: endless answer text, ever new choices or tool calls, keep-alive comments without end, or
// an error body that never closes. The bytes go out only while the socket's queue is short, so
// the server's own memory stays flat whatever the client does. A child of its connection; ends
// when the client closes it. Server thread only.
class Flood : public QObject
{
    Q_OBJECT

public:
    Flood(HttpConnection *connection, ServerState &state, FaultSpec::Flood kind, Api api, const QString &model);

    void start();

private:
    void fill();
    QByteArray nextEvent();

    HttpConnection *m_connection;
    ServerState &m_state; // counts the bytes written (Stats::floodBytes)
    FaultSpec::Flood m_kind;
    Api m_api;
    QString m_model;
    qint64 m_serial = 0;
};

} // namespace LocalProvider
