// The demo answers' shapes (shapes.h). Over 600 lines: one short function per kind of answer the
// demo writes (summary, rewrite, explanation, outline, introduction, titles, the library's
// answer, the classifier's judgement, the acknowledgement) over the text helpers they share.
#include "shapes.h"

#include "material.h"
#include "stablehash.h"
#include "tokenizer.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace LocalProvider::Shapes {

namespace {

using Tokenizer::codePointAt;

// Words too common to say what a sentence is about: left out of centrality and of headings.
const QSet<QString> &stopwords()
{
    static const QSet<QString> words = [] {
        QSet<QString> s;
        for (const char *w :
             {"a",    "an",    "the",  "and",   "or",    "but",   "of",     "to",   "in",    "on",    "at",    "for",
              "with", "by",    "from", "as",    "is",    "are",   "was",    "were", "be",    "been",  "being", "it",
              "its",  "this",  "that", "these", "those", "there", "their",  "they", "them",  "he",    "she",   "his",
              "her",  "we",    "our",  "you",   "your",  "i",     "me",     "my",   "not",   "no",    "so",    "if",
              "then", "than",  "into", "about", "over",  "after", "before", "can",  "could", "will",  "would", "should",
              "may",  "might", "must", "do",    "does",  "did",   "has",    "have", "had",   "which", "who",   "what",
              "when", "where", "why",  "how",   "all",   "any",   "each",   "some", "more",  "most",  "very",  "also",
              "just", "only",  "up",   "out",   "one",   "two"})
            s.insert(QString::fromLatin1(w));
        return s;
    }();
    return words;
}

bool isHan(char32_t cp)
{
    return Tokenizer::isCjk(cp);
}

bool isWordChar(char32_t cp)
{
    return (QChar::isLetterOrNumber(cp) || QChar::isMark(cp)) && !isHan(cp);
}

// Han, or the CJK punctuation and full-width forms that go with it: no spaces around these.
bool isHanText(char32_t cp)
{
    return isHan(cp) || (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFFEF);
}

bool endsWithHan(QStringView s)
{
    if (s.isEmpty())
        return false;
    const bool pair = s.size() >= 2 && s.back().isLowSurrogate() && s[s.size() - 2].isHighSurrogate();
    return isHanText(pair ? QChar::surrogateToUcs4(s[s.size() - 2], s.back()) : s.back().unicode());
}

bool startsWithHan(QStringView s)
{
    return !s.isEmpty() && isHanText(codePointAt(s, 0).value);
}

// Sentences back to back: a space between Latin ones, none next to Han.
QString joinSentences(const QStringList &parts)
{
    QString out;
    for (const QString &part : parts) {
        if (!out.isEmpty() && !endsWithHan(out) && !startsWithHan(part))
            out += u' ';
        out += part;
    }
    return out;
}

void splitParagraph(QStringView p, QStringList &out)
{
    static const QString closers = QStringLiteral(")\"'”’」』");
    qsizetype begin = 0;
    const auto cut = [&](qsizetype end) {
        const QString s = p.sliced(begin, end - begin).trimmed().toString();
        begin = end;
        for (qsizetype i = 0; i < s.size();) {
            const char32_t cp = codePointAt(s, i).value;
            if (isWordChar(cp) || isHan(cp)) {
                out.append(s);
                return;
            }
            i += codePointAt(s, i).length;
        }
    };
    for (qsizetype i = 0; i < p.size(); ++i) {
        const QChar c = p[i];
        const bool han = c == u'。' || c == u'！' || c == u'？';
        const bool latin = (c == u'.' || c == u'!' || c == u'?')
                           && (i + 1 == p.size() || p[i + 1].isSpace() || closers.contains(p[i + 1]));
        if (!han && !latin)
            continue;
        qsizetype end = i + 1;
        while (end < p.size() && closers.contains(p[end]))
            ++end;
        cut(end);
        i = end - 1;
    }
    if (begin < p.size())
        cut(p.size());
}

// Lower-case content words, or for Han the character pairs: what two sentences share.
QSet<QString> keysOf(QStringView sentence)
{
    QSet<QString> keys;
    qsizetype i = 0;
    char32_t prevHan = 0;
    while (i < sentence.size()) {
        const auto cp = codePointAt(sentence, i);
        if (isHan(cp.value)) {
            if (prevHan)
                keys.insert(QString::fromUcs4(&prevHan, 1) + QString::fromUcs4(&cp.value, 1));
            prevHan = cp.value;
            i += cp.length;
            continue;
        }
        prevHan = 0;
        if (!isWordChar(cp.value)) {
            i += cp.length;
            continue;
        }
        qsizetype j = i;
        while (j < sentence.size() && isWordChar(codePointAt(sentence, j).value))
            j += codePointAt(sentence, j).length;
        const QString word = sentence.sliced(i, j - i).toString().toLower();
        if (word.size() >= 3 && !stopwords().contains(word))
            keys.insert(word);
        i = j;
    }
    return keys;
}

QString capitalized(QString s)
{
    if (!s.isEmpty())
        s[0] = s[0].toUpper();
    return s;
}

// The first letter lower-cased when it starts an ordinary word ("The", "A", but not "I" or "NASA").
QString decapitalized(QString s)
{
    qsizetype end = 0;
    while (end < s.size() && s[end].isLetter())
        ++end;
    const QStringView word = QStringView(s).first(end);
    const bool ordinary = end >= 1 && word != u"I" && word.sliced(1).toString() == word.sliced(1).toString().toLower();
    if (ordinary && s[0].isUpper())
        s[0] = s[0].toLower();
    return s;
}

// A sentence with the two sides of its first clause separator swapped: "A, B." → "B, a."
QString swapClauses(const QString &sentence)
{
    static const QStringList separators{QStringLiteral(", "), QStringLiteral("; "),    QStringLiteral("，"),
                                        QStringLiteral("；"), QStringLiteral(" and "), QStringLiteral(" but ")};
    QString body = sentence;
    QString end;
    while (!body.isEmpty() && QStringView(u".!?。！？").contains(body.back())) {
        end.prepend(body.back());
        body.chop(1);
    }
    for (const QString &sep : separators) {
        const qsizetype at = body.indexOf(sep);
        if (at <= 0 || at + sep.size() >= body.size())
            continue;
        const QString first = body.first(at).trimmed();
        const QString second = body.sliced(at + sep.size()).trimmed();
        if (first.isEmpty() || second.isEmpty())
            continue;
        return capitalized(second) + sep + decapitalized(first) + end;
    }
    return sentence;
}

struct Unit {
    QString text;
    bool content = false;
};

// A phrase as words (or, for Han, characters), each marked whether it carries meaning.
QList<Unit> unitsOf(QStringView phrase)
{
    QList<Unit> units;
    qsizetype i = 0;
    while (i < phrase.size()) {
        const auto cp = codePointAt(phrase, i);
        if (isHan(cp.value)) {
            // The particles and prepositions that separate Chinese words, for want of a segmenter.
            const QStringView unit = phrase.sliced(i, cp.length);
            units.append({unit.toString(), !QStringView(u"的了和与在是上里中把被对从向给为也都就及或").contains(unit)});
            i += cp.length;
            continue;
        }
        if (!isWordChar(cp.value)) {
            i += cp.length;
            continue;
        }
        qsizetype j = i;
        while (j < phrase.size()) {
            const auto c = codePointAt(phrase, j);
            const bool joiner = (c.value == u'\'' || c.value == u'-') && j > i && j + 1 < phrase.size()
                                && isWordChar(codePointAt(phrase, j + 1).value);
            if (!isWordChar(c.value) && !joiner)
                break;
            j += c.length;
        }
        const QString word = phrase.sliced(i, j - i).toString();
        units.append({word, !stopwords().contains(word.toLower())});
        i = j;
    }
    return units;
}

QString joinUnits(const QList<Unit> &units, qsizetype from, qsizetype count, bool han)
{
    QStringList words;
    for (qsizetype k = from; k < from + count; ++k)
        words.append(units[k].text);
    return words.join(han ? QString() : QStringLiteral(" "));
}

// The phrases of `text` that start and end with a word that carries meaning: heading material.
QStringList phrasesOf(QStringView text)
{
    const QList<Unit> units = unitsOf(text);
    const bool han = isMostlyHan(text);
    if (han) {
        // Runs of characters between particles are the words; a run and the next, with the
        // particle between them, a longer phrase: 在阳台上种番茄 gives 阳台, 种番茄, 阳台上种番茄.
        struct Run {
            qsizetype from;
            qsizetype to;
        };
        QList<Run> runs;
        for (qsizetype k = 0; k < units.size(); ++k) {
            if (!units[k].content)
                continue;
            qsizetype end = k;
            while (end < units.size() && units[end].content)
                ++end;
            if (end - k >= 2)
                runs.append({k, end});
            k = end;
        }
        QStringList phrases;
        for (qsizetype r = 0; r < runs.size(); ++r) {
            phrases.append(joinUnits(units, runs[r].from, runs[r].to - runs[r].from, true));
            if (r + 1 < runs.size() && runs[r + 1].to - runs[r].from <= 8)
                phrases.append(joinUnits(units, runs[r].from, runs[r + 1].to - runs[r].from, true));
        }
        return phrases;
    }
    const qsizetype shortest = 1;
    const qsizetype longest = 4;
    QStringList phrases;
    for (qsizetype start = 0; start < units.size(); ++start) {
        if (!units[start].content)
            continue;
        for (qsizetype len = shortest; len <= longest && start + len <= units.size(); ++len) {
            // An English phrase ends where the topic's does or before a small word: "small
            // balcony", not "tomatoes on a small".
            const qsizetype end = start + len;
            const bool breaks = end == units.size() || !units[end].content;
            if (units[end - 1].content && breaks)
                phrases.append(joinUnits(units, start, len, false));
        }
    }
    return phrases;
}

// Distinct (ignoring case) and not `except`, in first-seen order.
QStringList distinct(const QStringList &items, const QStringList &except)
{
    QSet<QString> seen;
    for (const QString &e : except)
        seen.insert(e.toLower());
    QStringList out;
    for (const QString &item : items) {
        if (item.isEmpty() || seen.contains(item.toLower()))
            continue;
        seen.insert(item.toLower());
        out.append(item);
    }
    return out;
}

void shuffle(QStringList &items, Rng &rng)
{
    for (qsizetype i = items.size() - 1; i > 0; --i)
        items.swapItemsAt(i, rng.bounded(static_cast<int>(i + 1)));
}

// "1. ", "- ", "## " in front of an outline line.
QString withoutMarker(QString line)
{
    static const QRegularExpression marker(QStringLiteral("^\\s*(?:#{1,6}\\s*|[-*+•]\\s+|\\d{1,3}[.)]\\s*)"));
    line.remove(marker);
    return line.trimmed();
}

} // namespace

bool isMostlyHan(QStringView text)
{
    qsizetype han = 0;
    qsizetype letters = 0;
    for (qsizetype i = 0; i < text.size();) {
        const auto cp = codePointAt(text, i);
        if (isHan(cp.value))
            ++han;
        else if (QChar::isLetter(cp.value))
            ++letters;
        i += cp.length;
    }
    return han > 0 && han * 4 >= letters;
}

QStringList sentences(QStringView text)
{
    static const QRegularExpression listMarker(QStringLiteral("^(?:[-*+•]|\\d{1,3}[.)])\\s+"));
    QStringList out;
    QString paragraph;
    bool inFence = false;
    const auto flush = [&] {
        splitParagraph(paragraph, out);
        paragraph.clear();
    };
    for (QStringView line : text.tokenize(u'\n')) {
        const QString trimmed = line.trimmed().toString();
        if (trimmed.startsWith(u"```")) {
            flush();
            inFence = !inFence;
            continue;
        }
        if (inFence)
            continue;
        if (trimmed.isEmpty() || trimmed.startsWith(u'#') || trimmed.startsWith(u'|') || trimmed.startsWith(u'>')) {
            flush();
            continue;
        }
        if (const auto m = listMarker.match(trimmed); m.hasMatch()) {
            flush();
            splitParagraph(QStringView(trimmed).sliced(m.capturedEnd()), out);
            continue;
        }
        if (!paragraph.isEmpty() && !endsWithHan(paragraph) && !startsWithHan(trimmed))
            paragraph += u' ';
        paragraph += trimmed;
    }
    flush();
    return out;
}

QString summary(const QString &document, quint64 seed)
{
    const QStringList all = sentences(document);
    if (all.isEmpty())
        return {};
    std::vector<QSet<QString>> keys;
    keys.reserve(static_cast<size_t>(all.size()));
    QHash<QString, int> documentFrequency;
    for (const QString &s : all) {
        keys.push_back(keysOf(s));
        for (const QString &k : keys.back())
            ++documentFrequency[k];
    }
    // Word-overlap centrality: how many of the other sentences share each of this one's words,
    // damped by its length so that long sentences do not win for being long. Linear in the
    // document, where pairwise similarity would be quadratic.
    std::vector<double> score(static_cast<size_t>(all.size()), 0.0);
    for (size_t i = 0; i < keys.size(); ++i) {
        int shared = 0;
        for (const QString &k : keys[i])
            shared += documentFrequency.value(k) - 1;
        score[i] = shared / (1.0 + std::log1p(double(keys[i].size())));
    }
    std::vector<size_t> order(static_cast<size_t>(all.size()));
    std::iota(order.begin(), order.end(), size_t(0));
    // Equal scores (a document of near-identical lines) are ordered by the seed, so that
    // another prompt gets another pick as it would get another text.
    const auto tieBreak = [seed](size_t i) { return StableHash::combine(seed, static_cast<quint64>(i)); };
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return score[a] != score[b] ? score[a] > score[b] : tieBreak(a) < tieBreak(b);
    });

    Rng rng(seed);
    const qsizetype target = 60 + rng.bounded(121);
    std::vector<size_t> picked;
    qsizetype tokens = 0;
    for (size_t i : order) {
        if (picked.size() >= 6 || (picked.size() >= 2 && tokens >= target))
            break;
        picked.push_back(i);
        tokens += Tokenizer::count(all[static_cast<qsizetype>(i)]);
    }
    std::sort(picked.begin(), picked.end());
    QStringList chosen;
    for (size_t i : picked)
        chosen.append(all[static_cast<qsizetype>(i)]);
    return joinSentences(chosen);
}

QString rewrite(const QString &selection, quint64 seed)
{
    QStringList parts = sentences(selection);
    if (parts.isEmpty())
        return selection.trimmed();
    for (QString &s : parts)
        s = swapClauses(s);
    if (parts.size() >= 2) {
        Rng rng(seed);
        // A rotation by at least one: never the order the passage had.
        const qsizetype by = 1 + rng.bounded(static_cast<int>(parts.size() - 1));
        std::rotate(parts.begin(), parts.begin() + by, parts.end());
    }
    return joinSentences(parts);
}

QString libraryAnswer(const QString &question, const QStringList &passages)
{
    constexpr qsizetype MaxCited = 2;
    const QSet<QString> asked = keysOf(question);
    QStringList parts;
    for (qsizetype n = 0; n < passages.size() && parts.size() < MaxCited; ++n) {
        qsizetype best = -1;
        qsizetype bestShared = 0;
        const QStringList own = sentences(passages[n]);
        for (qsizetype i = 0; i < own.size(); ++i) {
            const qsizetype shared = (keysOf(own[i]) & asked).size();
            if (shared > bestShared) {
                best = i;
                bestShared = shared;
            }
        }
        if (best >= 0)
            parts.append(own[best] + QStringLiteral(" [%1]").arg(n + 1));
    }
    if (parts.isEmpty() && !passages.isEmpty()) {
        const QStringList own = sentences(passages.first());
        if (!own.isEmpty())
            parts.append(own.first() + QStringLiteral(" [1]"));
    }
    return parts.join(QLatin1Char(' '));
}

QString explanation(const QString &selection, const QString &document, quint64 seed)
{
    const QStringList own = sentences(selection);
    if (own.isEmpty())
        return selection.trimmed();
    // The selection's sentence with the most content words says what it is about.
    qsizetype central = 0;
    for (qsizetype i = 1; i < own.size(); ++i) {
        if (keysOf(own[i]).size() > keysOf(own[central]).size())
            central = i;
    }
    Rng rng(seed);
    const qsizetype target = 60 + rng.bounded(121);
    QStringList parts{own[central]};
    qsizetype tokens = Tokenizer::count(own[central]);
    const auto add = [&](const QString &s) {
        if (parts.contains(s))
            return;
        parts.append(s);
        tokens += Tokenizer::count(s);
    };
    // Then the context, nearest first: the sentence before the selection, the one after, the
    // one before that, ... Found by sentence rather than as one string: a selection across
    // paragraphs or wrapped lines is not verbatim in the document's sentences.
    const QStringList all = sentences(document);
    qsizetype first = -1;
    for (qsizetype i = 0; i < all.size() && first < 0; ++i) {
        if (all[i].contains(own.first()))
            first = i;
    }
    if (first >= 0) {
        qsizetype last = first;
        for (qsizetype i = first; i < all.size(); ++i) {
            if (all[i].contains(own.last())) {
                last = i;
                break;
            }
        }
        for (qsizetype k = 1; tokens < target && (first - k >= 0 || last + k < all.size()); ++k) {
            if (first - k >= 0)
                add(all[first - k]);
            if (last + k < all.size() && tokens < target)
                add(all[last + k]);
        }
    }
    // Then the rest of the selection.
    for (qsizetype i = 0; i < own.size() && tokens < target; ++i)
        add(own[i]);
    return joinSentences(parts);
}

QString outline(const Material &m, quint64 seed)
{
    const QString topic = m.topic.simplified();
    const QString lead = topic.isEmpty() ? m.audience.simplified() : topic;
    if (lead.isEmpty())
        return {};
    Rng rng(seed);
    QStringList pool = distinct(phrasesOf(topic) + phrasesOf(m.audience), {lead});
    shuffle(pool, rng);
    // Headings first from the longer phrases: a one-word heading says little.
    std::stable_sort(pool.begin(), pool.end(),
                     [](const QString &a, const QString &b) { return unitsOf(a).size() > unitsOf(b).size(); });
    const qsizetype sections = qMin<qsizetype>(3 + rng.bounded(3), 1 + pool.size());
    QStringList headings = pool.first(sections - 1);
    QStringList points = pool.sliced(sections - 1);
    shuffle(points, rng);

    QStringList lines{QStringLiteral("1. %1").arg(capitalized(lead))};
    for (const QString &detail : {m.audience.simplified(), m.tone.simplified()}) {
        if (!detail.isEmpty() && detail != lead)
            lines.append(QStringLiteral("   - %1").arg(capitalized(detail)));
    }
    for (qsizetype i = 0; i < headings.size(); ++i) {
        lines.append(QStringLiteral("%1. %2").arg(i + 2).arg(capitalized(headings[i])));
        for (int k = 0; k < 2 && !points.isEmpty(); ++k)
            lines.append(QStringLiteral("   - %1").arg(capitalized(points.takeFirst())));
    }
    return lines.join(u'\n');
}

QString introduction(const Material &m)
{
    const QString topic = m.topic.simplified();
    const bool han = isMostlyHan(topic);
    QStringList parts;
    if (!topic.isEmpty()) {
        QString first = capitalized(topic);
        if (!m.audience.isEmpty())
            first += (han ? QStringLiteral("，") : QStringLiteral(", ")) + m.audience.simplified();
        parts.append(first + (han ? u'。' : u'.'));
    }
    // Each section of the outline, with its points, as one sentence.
    QString section;
    const auto flush = [&] {
        if (!section.isEmpty())
            parts.append(section + (han ? u'。' : u'.'));
        section.clear();
    };
    for (const QString &line : m.outline.split(u'\n')) {
        QString item = withoutMarker(line);
        while (!item.isEmpty() && QStringView(u".:;。：；").contains(item.back()))
            item.chop(1);
        if (item.isEmpty())
            continue;
        const bool point = line.startsWith(u' ') || line.startsWith(u'\t');
        if (!point || section.isEmpty()) {
            flush();
            section = capitalized(item);
        } else {
            section += (section.contains(han ? u'：' : u':') ? (han ? QStringLiteral("，") : QStringLiteral(", "))
                                                             : (han ? QStringLiteral("：") : QStringLiteral(": ")))
                       + decapitalized(item);
        }
    }
    flush();
    if (parts.size() < 2 && !topic.isEmpty()) {
        const QStringList phrases = distinct(phrasesOf(topic), {topic});
        if (!phrases.isEmpty())
            parts.append(capitalized(phrases.join(han ? QStringLiteral("、") : QStringLiteral(", ")))
                         + (han ? u'。' : u'.'));
    }
    return joinSentences(parts);
}

QString titles(const Material &m, quint64 seed)
{
    const QString topic = m.topic.simplified();
    if (topic.isEmpty())
        return {};
    const bool han = isMostlyHan(topic);
    Rng rng(seed);
    QStringList phrases = distinct(phrasesOf(topic), {topic});
    // Two-word and longer phrases make better titles than single words.
    QStringList longer;
    QStringList single;
    for (const QString &p : std::as_const(phrases))
        (unitsOf(p).size() >= (han ? 3 : 2) ? longer : single).append(p);
    shuffle(longer, rng);
    shuffle(single, rng);
    const QString colon = han ? QStringLiteral("：") : QStringLiteral(": ");
    QStringList options{capitalized(topic)};
    if (!m.audience.isEmpty())
        options.append(capitalized(topic) + colon + m.audience.simplified());
    for (const QString &p : std::as_const(longer))
        options.append(capitalized(p));
    for (qsizetype i = 0; i + 1 < single.size(); i += 2)
        options.append(capitalized(single[i]) + colon + single[i + 1]);
    for (const QString &p : std::as_const(single))
        options.append(capitalized(p));
    options = distinct(options, {});
    // Short lines: a title of more than eight words is a sentence.
    QStringList shortOnes;
    for (const QString &o : std::as_const(options)) {
        if (unitsOf(o).size() <= (han ? 16 : 8))
            shortOnes.append(o);
    }
    if (shortOnes.isEmpty())
        shortOnes.append(joinUnits(unitsOf(topic), 0, qMin<qsizetype>(unitsOf(topic).size(), han ? 12 : 6), han));
    return shortOnes.first(qMin<qsizetype>(shortOnes.size(), 3 + rng.bounded(3))).join(u'\n');
}

QString draftJudgement(const QString &draft)
{
    const QString text = draft.trimmed();
    static const QRegularExpression
        leadsOn(QStringLiteral("(?:[,，、;；:：(（]|\\b(?:and|or|but|the|a|an|to|of|for|with|because|if))$"),
                QRegularExpression::CaseInsensitiveOption);
    static const QString sentenceEnds = QStringLiteral(".?!。？！");
    double confidence = 0.6;
    QString reason = QStringLiteral("it reads as a message");
    if (!text.isEmpty() && sentenceEnds.contains(text.back())) {
        confidence = 0.9;
        reason = QStringLiteral("it ends a sentence");
    } else if (leadsOn.match(text).hasMatch()) {
        confidence = 0.1;
        reason = QStringLiteral("it ends on a word that leads on");
    } else if (unitsOf(text).size() <= 2) {
        confidence = 0.2;
        reason = QStringLiteral("a word or two");
    }
    return QStringLiteral("{\"confidence\": %1, \"reason\": \"%2\"}").arg(confidence).arg(reason);
}

QString acknowledgement(const QString &message)
{
    // The message's first sentence, without its closing mark, cut to a line's length.
    QString subject = sentences(message.simplified()).value(0, message.simplified());
    while (!subject.isEmpty() && QStringLiteral(".?!。？！").contains(subject.back()))
        subject.chop(1);
    const bool han = isMostlyHan(subject);
    const QList<Unit> units = unitsOf(subject);
    const qsizetype limit = han ? 24 : 12;
    if (units.size() > limit)
        subject = joinUnits(units, 0, limit, han) + QStringLiteral("…");
    if (han)
        return QStringLiteral("稍等，我正在仔细想“%1”。").arg(subject);
    return QStringLiteral("One moment: I am thinking through \u201c%1\u201d.").arg(subject);
}

} // namespace LocalProvider::Shapes
