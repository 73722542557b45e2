#include "terminaltext.h"

namespace Cli {

namespace {

constexpr char16_t Esc = 0x1b;
constexpr char16_t Bel = 0x07;

} // namespace

QString TerminalText::filter(QStringView piece)
{
    QString out;
    out.reserve(piece.size());
    for (const QChar qc : piece) {
        const char16_t c = qc.unicode();
        switch (m_state) {
        case State::Text:
            if (c == Esc) {
                m_state = State::Escape;
            } else if (c == 0x9b) { // 8-bit CSI
                m_state = State::Csi;
            } else if (c == 0x90 || c == 0x98 || c == 0x9d || c == 0x9e || c == 0x9f) { // DCS SOS OSC PM APC
                m_state = State::String;
            } else if (c == u'\n' || c == u'\t' || (c >= 0x20 && c != 0x7f && (c < 0x80 || c > 0x9f))) {
                out += qc;
            }
            break;
        case State::Escape:
            if (c == u'[')
                m_state = State::Csi;
            else if (c == u']' || c == u'P' || c == u'X' || c == u'^' || c == u'_')
                m_state = State::String;
            else if (c >= 0x20 && c <= 0x2f)
                ; // intermediate bytes of an nF sequence: the final byte ends it
            else
                m_state = State::Text; // a two-character sequence (ESC c, ESC 7, …) ends here
            break;
        case State::Csi:
            // Parameters and intermediates (0x20-0x3f) until the final byte (0x40-0x7e).
            if (c >= 0x40 && c <= 0x7e)
                m_state = State::Text;
            else if (c < 0x20 || c > 0x7e)
                m_state = c == Esc ? State::Escape : State::Text; // cut short: drop it
            break;
        case State::String:
            // Until BEL, ST (ESC \) or 8-bit ST; its text is never shown.
            if (c == Bel || c == 0x9c)
                m_state = State::Text;
            else if (c == Esc)
                m_state = State::StringEscape;
            break;
        case State::StringEscape: m_state = c == u'\\' ? State::Text : State::String; break;
        }
    }
    return out;
}

} // namespace Cli
