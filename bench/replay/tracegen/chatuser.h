#pragma once

#include "pointer.h"
#include "repetition.h"
#include "typing.h"

namespace Bench::Gen {

class Session;

// Chinese through a pinyin IME: the letters go into the pre-edit, which is not part of the draft
// (QInputMethodEvent's preedit does not change QPlainTextEdit::toPlainText()); choosing a
// candidate commits one or more characters at once, and only then does the draft change.
struct ImeParams {
    IntRange pinyinLetters;      // per character, full pinyin or abbreviated
    double joinChance;           // the next word goes into the same pre-edit (one commit for both)
    Lognormal candidateChoice;   // the pre-edit typed → the candidate committed (Space or a digit)
    double wrongCandidateChance; // per commit: a wrong candidate, noticed and deleted with Backspace
    Lognormal noticeWrong;
};

extern const ImeParams PinyinIme;

// A library the user chats about instead of a document: generated notes with
// Bench::ReplayLibraryPlanted planted facts (Bench::LibraryCorpus), whose questions the user asks.
struct LibraryParams {
    int docs; // notes in the library
};

// A writer who goes back into a message before sending it: typed to its end, reread, then a phrase
// inserted in its middle, key by key (the reviser's).
struct RevisionParams {
    double chance;      // per message of four words or more
    Lognormal reread;   // the message typed → the caret moved back into it
    Lognormal moveBack; // a click in the text or the arrow keys
};

// Text brought from elsewhere: an instruction typed, a new line (Shift+Enter), then a paragraph
// copied in another window pasted at once (the paster's).
struct PasteParams {
    double chance;       // per message
    Lognormal fetch;     // the instruction typed → the paste (switching away to copy, and back)
    IntRange paragraphs; // how much is pasted, in paragraphs of a generated English document
};

// A chat user: chat-session, fast-typist, ime-user, library-chat, repeat-user, follow-up-user,
// reviser and paster are instances (their values in chatuser.cpp).
struct ChatSessionParams {
    const char *description;
    const PointerParams *pointer;
    IntRange docTokens; // the document the first conversation is about
    const char *docLanguage;
    Lognormal firstRead;             // opening the document → opening the chat
    double secondConversationChance; // a free-mode conversation follows the document one
    IntRange messages;
    double firstConversationShareMin; // of the messages, when there are two conversations
    double firstConversationShareMax;
    Lognormal focusInput;         // chat_open → first key (the click into the input on the way)
    Lognormal readAfterSend;      // Enter → first key of the next message
    Lognormal reviewBeforeSend;   // last key → Enter
    double transcriptClickChance; // while reading, a click into the transcript takes the focus
    double correctionChance;      // per message: a word typed, then deleted and replaced
    Lognormal noticePause;        // the pause before the Backspaces
    double dropQuestionMarkChance;
    double dropFullStopChance;
    TypingCadence typing;
    double paceMin; // per trace, the typist's own speed × the cadence's gaps
    double paceMax;
    const ImeParams *ime;                   // nullptr: English, key by key
    const LibraryParams *library = nullptr; // set: one conversation about this library, no document
    // Set: the repeat-user's new conversations of one question each, some asked before, and a
    // document summarized, closed, reopened unchanged and summarized again (no document chat).
    const RepetitionParams *repetition = nullptr;
    // Per message after a conversation's first: a short reply to the answer just read
    // (englishFollowUps(), chattexts.cpp) instead of a new question or request.
    double followUpChance = 0;
    const RevisionParams *revision = nullptr; // set: some messages revised mid-draft
    const PasteParams *paste = nullptr;       // set: some messages carry pasted text
};

extern const ChatSessionParams ChatSession;
extern const ChatSessionParams FastTypist;
extern const ChatSessionParams ImeUser;
extern const ChatSessionParams LibraryChat;
extern const ChatSessionParams RepeatUser;
extern const ChatSessionParams FollowUpUser;
extern const ChatSessionParams Reviser;
extern const ChatSessionParams Paster;

void playChat(Session &s, const ChatSessionParams &p);

} // namespace Bench::Gen
