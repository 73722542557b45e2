#include "chatuser.h"

#include "chattexts.h"
#include "session.h"

#include "../documents.h"
#include "../librarycorpus.h"

namespace Bench::Gen {

// Wang, Zhai & Su, "Chinese input with keyboard and eye-tracking: an anatomical study" (CHI 2001):
// with a pinyin IME, choosing among the homophone candidates (choice reaction) took 36 % of the
// input time. Assumption: full pinyin of 2–4 letters a character (abbreviations included); a word
// typed at the in-word cadence takes about a second, so the choice about 0.55 s; a third of the
// commits hold two words (sentence-level IMEs); one commit in twenty-five is the wrong homophone.
const ImeParams PinyinIme{
    .pinyinLetters = {2, 4},
    .joinChance = 0.35,
    .candidateChoice = {650, 0.5, 200, 3500},
    .wrongCandidateChance = 0.04,
    .noticeWrong = {700, 0.5, 250, 3000},
};

const ChatSessionParams ChatSession{
    .description = "Chat about a 3k-token English document, then (usually) a free conversation: 10 to 12 "
                   "questions and requests about writing, typed key by key at about 52 WPM with pauses "
                   "between words and phrases, some corrected mid-message.",
    .pointer = &MouseUser,
    // The brief: document mode on a ~3k-token document.
    .docTokens = {2600, 3400},
    .docLanguage = "en",
    // Assumption: a look at the document before asking about it.
    .firstRead = {4000, 0.4, 1500, 12000},
    // The brief: one or two conversations.
    .secondConversationChance = 0.75,
    // The brief: ~10–14 messages; 12 at most keeps the trace under 4 minutes.
    .messages = {10, 12},
    // Assumption: the document conversation is the main one.
    .firstConversationShareMin = 0.5,
    .firstConversationShareMax = 0.7,
    // Assumption: a pointing movement into the message field and a click.
    .focusInput = {900, 0.4, 300, 4000},
    // The brief: an answer streams for ~10 s, users read 5–40 s before the next action; the next
    // message is typed after that, so Enter comes 10 s or more after the previous one.
    .readAfterSend = {6000, 0.35, 5000, 40000},
    // Assumption: a glance over the message before Enter.
    .reviewBeforeSend = {450, 0.5, 120, 3000},
    // Assumption: one reading in five ends with a click into the transcript (to select or
    // scroll), so the input must be clicked again before typing.
    .transcriptClickChance = 0.2,
    // Assumption: one message in four has a word replaced after a pause (Dhakal et al. report
    // frequent corrections; the share of whole-word replacements is not published).
    .correctionChance = 0.25,
    .noticePause = {800, 0.5, 360, 4000},
    // Assumption: casual chat often drops the final punctuation.
    .dropQuestionMarkChance = 0.25,
    .dropFullStopChance = 0.4,
    .typing = DhakalTyping,
    .paceMin = 1,
    .paceMax = 1,
    .ime = nullptr,
};

// Fields not set here are chat-session's, with its sources; those set here without a comment
// are this kind's own assumptions.
const ChatSessionParams FastTypist = [] {
    ChatSessionParams p = ChatSession;
    p.description = "A fast typist (80 to 100 WPM) chatting about a 3k-token English document: short pauses, "
                    "Enter a quarter of a second after the last key, the final question mark or full stop "
                    "often left off.";
    // The brief: ~10–14 messages; typing less of the time, a fast typist sends more of them.
    p.messages = {12, 14};
    p.focusInput = {700, 0.4, 250, 3000};
    // The brief: Enter about 250 ms after the last key.
    p.reviewBeforeSend = {250, 0.3, 100, 900};
    // Dhakal et al.: faster typists make fewer errors. Assumption: half the corrections.
    p.correctionChance = 0.12;
    p.noticePause = {600, 0.5, 250, 3000};
    // The brief: often leaves off the final ? or . (assumption: more often than chat-session).
    p.dropQuestionMarkChance = 0.6;
    p.dropFullStopChance = 0.7;
    // Dhakal et al.'s faster users: 80–100 WPM; the pace spreads users over that range.
    p.typing = FastTyping;
    p.paceMin = 0.95;
    p.paceMax = 1.2;
    return p;
}();

// Fields not set here are chat-session's, with its sources; those set here without a comment
// are this kind's own assumptions.
const ChatSessionParams ImeUser = [] {
    ChatSessionParams p = ChatSession;
    p.description = "A Chinese user chatting about a 3k-token Chinese document through a pinyin IME: the draft "
                    "grows a word or two at a time when a candidate is committed, with pauses for choosing "
                    "candidates; messages end with ？ or 。 or nothing.";
    p.docLanguage = "zh";
    // Assumption: Chinese messages take longer to enter; 8–10 fit in 4 minutes.
    p.messages = {8, 10};
    p.correctionChance = 0; // the IME's own: wrong candidates (PinyinIme)
    // The brief: messages end with ？ or 。 or nothing (assumption: as often as chat-session drops
    // them, so its chances). The pinyin letters at the Dhakal et al. cadence (the letters are
    // typed like any others), as chat-session's.
    p.ime = &PinyinIme;
    return p;
}();

// Fields not set here are chat-session's, with its sources; those set here without a comment
// are this kind's own assumptions.
const ChatSessionParams FollowUpUser = [] {
    ChatSessionParams p = ChatSession;
    p.description = "A chat user who often answers an answer in a few words after reading it to its end "
                    "(\"why?\", \"shorter please\", \"in French\", \"ok, thanks!\"): about half of the messages "
                    "after a conversation's first, typed key by key at about 52 WPM.";
    // Assumption (issue 39): half of the later messages are short replies to the answer.
    p.followUpChance = 0.5;
    // A reply to an answer comes after reading it to its end: the answer streams for ~10 s (the
    // brief), and reading a ~200-word answer at 238 words a minute (Brysbaert, "How many words
    // do we read per minute?", J. Memory and Language 109, 2019) takes ~50 s; assumption: a
    // skim, median 14 s after Enter, so the answer has usually ended (chat-session's readers
    // often type while it streams).
    p.readAfterSend = {14000, 0.35, 9000, 45000};
    // The reading takes longer, the replies less: 9 to 11 fit in 4 minutes.
    p.messages = {9, 11};
    return p;
}();

// Assumption: a personal folder of notes, 1,000 of them (~5.7 MB; the knowledge benchmark
// measures 10,000, which takes a minute to index per replay).
const LibraryParams NotesLibrary{
    .docs = 1000,
};

// Fields not set here are chat-session's, with its sources; those set here without a comment
// are this kind's own assumptions.
const ChatSessionParams LibraryChat = [] {
    ChatSessionParams p = ChatSession;
    p.description = "Questions about the user's own notes (a library of 1,000 generated documents with planted "
                    "facts), in the chat's \"About my library\" mode: one conversation of 8 to 10 English "
                    "questions naming an entity and an attribute, typed key by key at about 52 WPM.";
    // The questions are longer than chat-session's (~70 characters): fewer fit in 4 minutes.
    p.messages = {8, 10};
    p.secondConversationChance = 0;
    p.library = &NotesLibrary;
    return p;
}();

// Rereading a message of about ten words at 238 words a minute (Brysbaert 2019, as above) takes
// ~2.5 s; assumption: a skim that stops at what is missing, median 1.8 s. Moving the caret back
// into the text is a pointing movement and a click (Card, Moran & Newell's keystroke-level model:
// P 1.1 s; assumption: often the arrow keys, quicker, so median 0.7 s). That half of the messages
// are revised is an assumption (no published share of chat messages edited mid-draft was found).
const RevisionParams Rereading{
    .chance = 0.5,
    .reread = {1800, 0.5, 600, 8000},
    .moveBack = {700, 0.4, 250, 2500},
};

const ChatSessionParams Reviser = [] {
    ChatSessionParams p = ChatSession;
    p.description = "A writer who rereads before sending: every other message is typed to its end (often looking "
                    "finished), reread, and then a phrase (\"briefly\", \"for a newcomer\") is inserted in its "
                    "middle, key by key, at about 52 WPM.";
    p.revision = &Rereading;
    // The rereading takes time: 9 to 11 fit in 4 minutes.
    p.messages = {9, 11};
    return p;
}();

// Bringing a paragraph from another window, by Card, Moran & Newell's keystroke-level model
// (1980): Alt+Tab (M 1.35 s + 2 K at 0.28 s), a drag over the paragraph (P 1.1 s twice, with the
// button), Ctrl+C (2 K), Alt+Tab back (M + 2 K): ~6.3 s; median 5 s (a practised user), up to
// 20 s (looking for it). Shift+Enter and Ctrl+V are keys. That two messages in five carry pasted
// text, of one or two paragraphs, is an assumption.
const PasteParams Pasting{
    .chance = 0.4,
    .fetch = {5000, 0.4, 2000, 20000},
    .paragraphs = {1, 2},
};

const ChatSessionParams Paster = [] {
    ChatSessionParams p = ChatSession;
    p.description = "A user who brings text from elsewhere: in two messages of five an instruction is typed "
                    "(\"Fix the grammar in this:\"), then, after a new line, a paragraph or two copied in another "
                    "window is pasted at once; the other messages are typed key by key at about 52 WPM.";
    p.paste = &Pasting;
    p.messages = {9, 11};
    return p;
}();

// Fields not set here are chat-session's, with its sources (repetition.cpp has this kind's own).
const ChatSessionParams RepeatUser = [] {
    ChatSessionParams p = ChatSession;
    p.description = "A user who comes back to what they asked: new conversations of one question each, about a third "
                    "of them an earlier question again (word for word, restyled or reworded; some in Chinese through "
                    "a pinyin IME), and a document summarized, closed, reopened unchanged and summarized again.";
    p.secondConversationChance = 0;
    p.repetition = &Repetition;
    return p;
}();

namespace {

bool isHan(QChar c)
{
    return c.unicode() >= 0x3400 && c.unicode() <= 0x9fff;
}

// Casual chat often leaves off the final question mark or full stop (and an IME template's
// commit mark before it).
void maybeDropFinalMark(Random &rng, const ChatSessionParams &p, QString &text, bool chinese)
{
    const QString question = chinese ? QStringLiteral("？") : QStringLiteral("?");
    const QString stop = chinese ? QStringLiteral("。") : QStringLiteral(".");
    const QString separator = chinese ? QStringLiteral("|") : QString();
    if (text.endsWith(question) && rng.chance(p.dropQuestionMarkChance))
        text.chop(question.size() + separator.size());
    else if (text.endsWith(stop) && rng.chance(p.dropFullStopChance))
        text.chop(stop.size() + separator.size());
}

QString chatMessage(Random &rng, const ChatSessionParams &p, bool aboutDocument, bool firstInConversation)
{
    if (!firstInConversation && !p.ime && p.followUpChance > 0 && rng.chance(p.followUpChance)) {
        QString reply = rng.pick(englishFollowUps());
        maybeDropFinalMark(rng, p, reply, false);
        return reply;
    }
    const MessageTexts &texts = p.ime ? chineseMessages() : englishMessages();
    QString text = fillTemplate(rng, rng.pick(aboutDocument ? texts.aboutDocument : texts.free), texts.slotValues);
    maybeDropFinalMark(rng, p, text, p.ime != nullptr);
    return text;
}

class ChatUser
{
public:
    ChatUser(Session &s, const ChatSessionParams &p)
        : m_s(s)
        , m_p(p)
        , m_rng(s.rng)
        , m_layout(drawLayout(s.rng, 1))
        , m_pointer(s, m_layout, *p.pointer)
        , m_pace(s.rng.uniform(p.paceMin, p.paceMax))
    {
    }

    void play();

private:
    void playRepeating(); // the repeat-user (chatrepeat in this file's second half)
    void summarize();
    void newConversation(int index, bool library, bool document);
    QString nextLibraryQuestion();
    void clickInto(const Rect &area, const char *focus);
    // `revised`: reread and a phrase inserted mid-draft (RevisionParams); `pasted`: after a new
    // line, this text pasted at once (PasteParams).
    void typeLatin(const QString &message, bool revised = false, const QString &pasted = {});
    // A paragraph or two of a generated English document, as copied from another window.
    QString copiedText();
    void typeIme(const QString &segmented, const ImeParams &ime);
    void key(QString &draft, const QString &next); // one "type" line with the draft after a key

    Session &m_s;
    const ChatSessionParams &m_p;
    Random &m_rng;
    const Layout m_layout;
    Pointer m_pointer;
    double m_pace;
    QStringList m_questions; // the library's English questions not asked yet
};

// One of the library's planted questions, each asked once; the final "?" dropped as in chat.
QString ChatUser::nextLibraryQuestion()
{
    QString text = m_questions.takeAt(m_rng.below(int(m_questions.size())));
    maybeDropFinalMark(m_rng, m_p, text, false);
    return text;
}

void ChatUser::clickInto(const Rect &area, const char *focus)
{
    m_pointer.acquire(area);
    m_s.t += 40 + m_rng.below(80);
    m_s.focus(QLatin1String(focus)); // on the press
    m_s.t += m_rng.draw({80, 0.25, 40, 150});
}

void ChatUser::key(QString &draft, const QString &next)
{
    draft = next;
    m_s.write("type", {str("text", draft)});
}

QString ChatUser::copiedText()
{
    const QStringList all = paragraphs(makeDocument(900, 1 + m_rng.below(999999), QStringLiteral("en")));
    const int count = std::min<int>(m_rng.between(m_p.paste->paragraphs), int(all.size()));
    const int first = m_rng.below(int(all.size()) - count + 1);
    return all.mid(first, count).join(QStringLiteral("\n\n"));
}

// Types `message` key by key (one "type" event each, with the whole draft) from an empty draft,
// the first key at s.t; Shift goes down for capitals and '?'. Ends at the Enter's time.
void ChatUser::typeLatin(const QString &message, bool revised, const QString &pasted)
{
    ShiftKey shift(m_s, ShiftModifier);
    const QStringList words = message.split(u' ');
    // A word in the middle is first typed as something else, then deleted and retyped.
    const int corrected = words.size() >= 4 && m_rng.chance(m_p.correctionChance)
                              ? 2 + m_rng.below(int(words.size()) - 3)
                              : -1;
    QString draft;
    qint64 previousKey = m_s.t;
    auto press = [&](QChar c) {
        if (!draft.isEmpty())
            m_s.t += keyGap(m_rng, m_p.typing, draft, m_pace);
        shift.beforeKey(c, previousKey);
        key(draft, draft + c);
        previousKey = m_s.t;
        shift.afterKey();
    };
    for (int w = 0; w < words.size(); ++w) {
        if (w > 0)
            press(u' ');
        if (w == corrected) {
            QStringList others = SecondThoughts;
            others.removeAll(words.at(w));
            const QString wrong = m_rng.pick(others);
            for (QChar c : wrong)
                press(c);
            m_s.t += m_rng.draw(m_p.noticePause);
            for (qsizetype k = 0; k < wrong.size(); ++k) {
                if (k > 0)
                    m_s.t += m_rng.draw(m_p.typing.backspace);
                shift.beforeKey(u'\b', previousKey);
                key(draft, draft.chopped(1));
                previousKey = m_s.t;
            }
        }
        for (QChar c : words.at(w))
            press(c);
    }
    if (revised && words.size() >= 4) {
        // Reread, the caret back after a word in the middle, a phrase typed there.
        m_s.t += m_rng.draw(m_p.revision->reread) + m_rng.draw(m_p.revision->moveBack);
        const int after = 1 + m_rng.below(int(words.size()) - 2);
        qsizetype at = 0;
        for (int w = 0; w < after; ++w)
            at += words.at(w).size() + 1;
        at -= 1; // after that word, before its space
        const QString phrase = QLatin1Char(' ') + m_rng.pick(RevisionPhrases);
        for (qsizetype i = 0; i < phrase.size(); ++i) {
            if (i > 0)
                m_s.t += keyGap(m_rng, m_p.typing, draft.left(at), m_pace);
            shift.beforeKey(phrase.at(i), previousKey);
            key(draft, draft.left(at) + phrase.at(i) + draft.mid(at));
            ++at;
            previousKey = m_s.t;
            shift.afterKey();
        }
    }
    if (!pasted.isEmpty()) {
        // Shift+Enter (a new line, not a send; its Shift is not a modifier the replay needs),
        // then the text fetched from elsewhere and pasted with Ctrl+V.
        m_s.t += keyGap(m_rng, m_p.typing, draft, m_pace);
        key(draft, draft + QLatin1Char('\n'));
        m_s.t += m_rng.draw(m_p.paste->fetch);
        key(draft, draft + pasted);
    }
    // A glance over the message, then Enter (Shift is up by then).
    const qint64 enterAt = m_s.t + m_rng.draw(m_p.reviewBeforeSend);
    shift.release(enterAt);
    m_s.t = std::max(enterAt, m_s.lastWritten());
}

// Types a Chinese message through the IME: per commit, the pinyin letters (one "compose" each,
// the pre-edit so far: not text yet), the candidate choice, then one "type" with the committed
// characters added, which ends the composition.
void ChatUser::typeIme(const QString &segmented, const ImeParams &ime)
{
    const QStringList segments = segmented.split(u'|', Qt::SkipEmptyParts);
    ShiftKey shift(m_s, ShiftModifier);
    QString draft;
    qint64 previousKey = m_s.t;
    bool first = true;
    auto gap = [&](const Lognormal &d) {
        if (!first)
            m_s.t += std::llround(double(m_rng.draw(d)) * m_pace);
        first = false;
    };
    for (qsizetype i = 0; i < segments.size(); ++i) {
        QString unit = segments.at(i);
        const bool punctuation = std::none_of(unit.cbegin(), unit.cend(), isHan);
        if (punctuation) {
            // Chinese punctuation is typed straight into the text: one key, no candidates.
            for (QChar c : unit) {
                gap(m_p.typing.withinWord);
                shift.beforeKey(c, previousKey);
                key(draft, draft + c);
                previousKey = m_s.t;
                shift.afterKey();
            }
            continue;
        }
        while (i + 1 < segments.size() && std::any_of(segments.at(i + 1).cbegin(), segments.at(i + 1).cend(), isHan)
               && m_rng.chance(ime.joinChance))
            unit += segments.at(++i);
        const bool afterPhrase = !draft.isEmpty() && endsPhrase(draft.back());
        auto typePinyin = [&] {
            int letters = 0;
            for (QChar c : unit)
                letters += isHan(c) ? m_rng.between(ime.pinyinLetters) : 1;
            gap(afterPhrase ? m_p.typing.afterPunctuation : m_p.typing.wordStart);
            if (m_rng.chance(m_p.typing.thinkingPauseChance))
                m_s.t += m_rng.draw(m_p.typing.thinkingPause);
            shift.beforeKey(u'a', previousKey); // pinyin is lower case
            // Each letter is the input method's pre-edit growing ("compose"); the letters
            // themselves are not modelled, only how many there are.
            QString preedit(1, u'a');
            m_s.write("compose", {str("text", preedit)});
            for (int l = 1; l < letters; ++l) {
                m_s.t += keyGap(m_rng, m_p.typing, QStringLiteral("a"), m_pace);
                preedit += u'a';
                m_s.write("compose", {str("text", preedit)});
            }
            previousKey = m_s.t;
            m_s.t += m_rng.draw(ime.candidateChoice);
        };
        typePinyin();
        if (m_rng.chance(ime.wrongCandidateChance)) {
            // The wrong homophone goes in, is noticed and deleted character by character.
            const QStringList &wrongs = WrongCandidates.at(std::min<qsizetype>(unit.size(), WrongCandidates.size())
                                                           - 1);
            const QString wrong = m_rng.pick(wrongs);
            key(draft, draft + wrong);
            m_s.t += m_rng.draw(ime.noticeWrong);
            for (qsizetype k = 0; k < wrong.size(); ++k) {
                if (k > 0)
                    m_s.t += m_rng.draw(m_p.typing.backspace);
                key(draft, draft.chopped(1));
            }
            typePinyin();
        }
        key(draft, draft + unit); // Space or a digit commits the candidate
        previousKey = m_s.t;
    }
    // A glance over the message, then Enter (Shift is up by then).
    const qint64 enterAt = m_s.t + m_rng.draw(m_p.reviewBeforeSend);
    shift.release(enterAt);
    m_s.t = std::max(enterAt, m_s.lastWritten());
}

void ChatUser::play()
{
    if (m_p.repetition)
        return playRepeating();
    writeLayout(m_s, m_layout);
    m_pointer.place(m_layout.document.shrunk(40).pointIn(m_rng));
    m_s.t = std::max(m_s.t, qint64(200 + m_rng.below(600)));
    if (m_p.library) {
        // The library is indexed already; its questions are the user's.
        const quint64 librarySeed = quint64(1 + m_rng.below(999999));
        m_s.write("open_library", {num("docs", m_p.library->docs), unsignedNum("seed", librarySeed)});
        for (const PlantedQuestion &q : LibraryCorpus(librarySeed).questions(m_p.library->docs, ReplayLibraryPlanted)) {
            if (!q.chinese)
                m_questions.append(q.text);
        }
    } else {
        const int tokens = (m_rng.between(m_p.docTokens) / 100) * 100;
        m_s.write("open_document",
                  {str("doc", QStringLiteral("brief")), num("tokens", tokens), num("seed", 1 + m_rng.below(999999)),
                   str("language", QLatin1String(m_p.docLanguage))});
    }
    m_s.focus(QStringLiteral("document"));
    m_pointer.rest(m_rng.draw(m_p.firstRead));

    const int total = m_rng.between(m_p.messages);
    const bool two = m_rng.chance(m_p.secondConversationChance);
    const int inFirst = two ? int(std::llround(
                            total * m_rng.uniform(m_p.firstConversationShareMin, m_p.firstConversationShareMax)))
                            : total;
    qint64 firstKeyAt = -1;
    for (int m = 0; m < total; ++m) {
        if (m == 0 || m == inFirst) {
            // A click on the conversation list (a new conversation, or back to one), then into the input.
            m_pointer.rest(std::max<qint64>(0, firstKeyAt - 1500 - m_s.t));
            newConversation(m, m_p.library != nullptr, m == 0);
            firstKeyAt = m_s.t + m_rng.draw(m_p.focusInput);
        }
        if (m_s.focused() != QLatin1String("chat_input")) {
            // Back into the message field, a moment before the first key.
            m_pointer.rest(std::max<qint64>(0, firstKeyAt - 900 - m_s.t));
            clickInto(m_layout.chatInput, "chat_input");
        }
        m_pointer.rest(std::max<qint64>(0, firstKeyAt - m_s.t));
        m_s.t = std::max(m_s.t, firstKeyAt);
        const QString message = m_p.library ? nextLibraryQuestion()
                                            : chatMessage(m_rng, m_p, m < inFirst, m == 0 || m == inFirst);
        if (m_p.ime) {
            typeIme(message, *m_p.ime);
        } else if (m_p.paste && m_rng.chance(m_p.paste->chance)) {
            typeLatin(m_rng.pick(PasteInstructions), false, copiedText());
        } else {
            typeLatin(message, m_p.revision && m_rng.chance(m_p.revision->chance));
        }
        m_s.write("send");
        const qint64 sentAt = m_s.t;
        firstKeyAt = sentAt + m_rng.draw(m_p.readAfterSend);
        // Reading the answer: the pointer rests, or goes to the transcript (and clicks there).
        if (m_rng.chance(m_p.transcriptClickChance)) {
            m_pointer.rest(1000 + m_rng.below(3000));
            // A line of the answer, not the pane's middle: Fitts's W is a line's.
            const Point line = m_layout.transcript.shrunk(20).pointIn(m_rng);
            clickInto({int(line.x) - 40, int(line.y) - m_layout.lineHeight / 2, 80, m_layout.lineHeight}, "other");
        }
    }
    m_pointer.rest(std::max<qint64>(0, firstKeyAt - 3000 - m_s.t));
}

// A click on the conversation list (a new conversation, or back to one), then chat_open.
void ChatUser::newConversation(int index, bool library, bool document)
{
    const Rect &list = m_layout.conversations;
    m_pointer.acquire({list.x + 8, list.y + 4 + index * 3 % 4 * (list.h / 5), list.w - 16, list.h / 5 - 4});
    m_s.t += 40 + m_rng.below(80);
    m_s.focus(QStringLiteral("other"));
    m_s.t += m_rng.draw({80, 0.25, 40, 150});
    if (library)
        m_s.write("chat_open", {str("conversation", QStringLiteral("notes")), str("mode", QStringLiteral("library"))});
    else if (m_p.repetition)
        m_s.write("chat_open",
                  {str("conversation", QStringLiteral("c%1").arg(index + 1)), str("mode", QStringLiteral("free"))});
    else
        m_s.write("chat_open", {str("conversation", document ? QStringLiteral("about-brief") : QStringLiteral("free")),
                                str("mode", document ? QStringLiteral("document") : QStringLiteral("free"))});
}

// Summarize by the mouse, as the decisive writer clicks (documentkinds.cpp: the hover decision,
// its lead, the press), then the answer is read with the pointer off the buttons.
void ChatUser::summarize()
{
    const Rect &button = m_layout.buttons[0]; // summarize
    if (m_pointer.hovered() == 0)
        m_pointer.moveTo(m_layout.answer.shrunk(20).pointIn(m_rng), 40);
    m_pointer.acquire(button);
    const qint64 enteredAt = m_pointer.hoveredSince();
    const qint64 lead = 65 + m_rng.draw({100, 0.45, 30, 1500});
    const qint64 pressGap = std::min<qint64>(m_rng.draw({75, 0.25, 40, 150}), lead - 15);
    m_s.t = std::max(enteredAt + lead - pressGap, m_s.t + 40);
    m_s.focus(QStringLiteral("summarize")); // a QPushButton takes the focus on press
    m_s.write("press", {str("action", QStringLiteral("summarize"))});
    m_s.t += pressGap;
    m_s.write("click", {str("action", QStringLiteral("summarize"))});
    m_s.t += m_rng.draw({350, 0.7, 60, 3000});
    m_pointer.moveTo(m_layout.answer.shrunk(20).pointIn(m_rng), 40);
    m_pointer.rest(m_rng.draw(m_p.repetition->readSummary));
}

void ChatUser::playRepeating()
{
    const RepetitionParams &r = *m_p.repetition;
    writeLayout(m_s, m_layout);
    m_pointer.place(m_layout.document.shrunk(40).pointIn(m_rng));
    m_s.t = std::max(m_s.t, qint64(200 + m_rng.below(600)));
    const int tokens = (m_rng.between(r.docTokens) / 100) * 100;
    const int docSeed = 1 + m_rng.below(999999);
    auto openReport = [&] {
        m_s.write("open_document", {str("doc", QStringLiteral("report")), num("tokens", tokens), num("seed", docSeed),
                                    str("language", QStringLiteral("en"))});
        m_s.focus(QStringLiteral("document"));
        m_pointer.rest(m_rng.draw(m_p.firstRead));
        summarize();
    };
    openReport();

    struct Asked {
        QString text; // as typed: IME-segmented for Chinese
        bool chinese;
    };
    QList<Asked> asked;
    const int total = m_rng.between(r.conversations);
    const int reopenBefore = total / 2 + m_rng.below(2);
    for (int m = 0; m < total; ++m) {
        if (m == reopenBefore) {
            // Another document becomes current, the report is closed, and later opened again as it was.
            m_s.write("open_document", {str("doc", QStringLiteral("notes")),
                                        num("tokens", (m_rng.between(r.otherDocTokens) / 100) * 100),
                                        num("seed", 1 + m_rng.below(999999)), str("language", QStringLiteral("en"))});
            m_s.focus(QStringLiteral("document"));
            m_pointer.rest(1000 + m_rng.below(2000));
            m_s.write("close_document", {str("doc", QStringLiteral("report"))});
            m_pointer.rest(m_rng.draw(r.reopenAfter));
            openReport();
        }
        Asked question;
        if (m >= r.freshFirst && m_rng.chance(r.repeatShare)) {
            question = m_rng.pick(asked);
            if (!m_rng.chance(r.exactShareOfRepeats))
                question.text = rephrase(m_rng, question.text, question.chinese, m_rng.chance(r.restyleShareOfRewords));
        } else {
            question.chinese = m_rng.chance(r.chineseShare);
            const MessageTexts &texts = question.chinese ? chineseMessages() : englishMessages();
            question.text = fillTemplate(m_rng, m_rng.pick(texts.free), texts.slotValues);
            maybeDropFinalMark(m_rng, m_p, question.text, question.chinese);
        }
        asked.append(question);
        newConversation(m, false, false);
        m_s.t += m_rng.draw(m_p.focusInput);
        clickInto(m_layout.chatInput, "chat_input");
        if (question.chinese)
            typeIme(question.text, PinyinIme);
        else
            typeLatin(question.text);
        m_s.write("send");
        m_pointer.rest(m_rng.draw(m_p.readAfterSend));
    }
}

} // namespace

void playChat(Session &s, const ChatSessionParams &p)
{
    ChatUser(s, p).play();
}

} // namespace Bench::Gen
