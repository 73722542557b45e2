#include "material.h"

#include "chatrequest.h"

#include <QRegularExpression>

namespace LocalProvider {

namespace {

// The markers and instructions of prefetch/prompts/actionprompts.cpp. tst_demoanswers sends the app's
// own requests, so a change there that is not made here fails that suite.
constexpr QStringView DocumentOpen = u"<document>\n";
constexpr QStringView DocumentClose = u"\n</document>";
constexpr QStringView SummarizeInstruction = u"Summarize the document in a short paragraph.";
constexpr QStringView ContinueInstruction = u"Continue writing the document from where it ends, in the same style.";
constexpr QStringView RewritePrefix = u"Rewrite this passage of the document to read more clearly:\n";
constexpr QStringView ExplainPrefix = u"Explain this passage of the document:\n";

// The wizard's step prompts: "Step 2 of 4: the outline.\nTopic: …\nAudience: …\nTone: …\n…".
// The defaults it fills in for empty fields are ours, not the user's.
constexpr QStringView DefaultAudience = u"general readers";
constexpr QStringView NoValue = u"(none)";

// The value of a "Name: value" line of a wizard prompt.
QString field(const QString &prompt, QStringView name)
{
    const QString key = QStringLiteral("\n%1: ").arg(name);
    const qsizetype at = prompt.indexOf(key);
    if (at < 0)
        return {};
    const qsizetype from = at + key.size();
    const qsizetype end = prompt.indexOf(u'\n', from);
    return prompt.mid(from, end < 0 ? -1 : end - from).trimmed();
}

// The block after a "Name:" line, up to the next blank line.
QString block(const QString &prompt, QStringView name)
{
    const QString key = QStringLiteral("\n%1:\n").arg(name);
    const qsizetype at = prompt.indexOf(key);
    if (at < 0)
        return {};
    const qsizetype from = at + key.size();
    const qsizetype end = prompt.indexOf(u"\n\n", from);
    const QString text = prompt.mid(from, end < 0 ? -1 : end - from).trimmed();
    return text == NoValue ? QString() : text;
}

bool readWizard(const QString &prompt, Material &m)
{
    static const QRegularExpression step(QStringLiteral("^Step ([234]) of 4: [^\\n]*\\n"));
    const QRegularExpressionMatch match = step.match(prompt);
    if (!match.hasMatch() || !prompt.contains(u"\nTopic: "))
        return false;
    const int n = match.captured(1).toInt();
    m.kind = n == 2   ? Material::Kind::WizardOutline
             : n == 3 ? Material::Kind::WizardIntroduction
                      : Material::Kind::WizardTitles;
    m.topic = field(prompt, u"Topic");
    m.audience = field(prompt, u"Audience");
    if (m.audience == DefaultAudience)
        m.audience.clear();
    m.tone = field(prompt, u"Tone");
    m.outline = block(prompt, u"Outline");
    m.introduction = block(prompt, u"Introduction");
    return true;
}

// An action's instruction (the last user message after the document), or false for a chat message.
bool readAction(const QString &instruction, Material &m)
{
    if (instruction == SummarizeInstruction) {
        m.kind = Material::Kind::Summarize;
        return true;
    }
    if (instruction == ContinueInstruction) {
        m.kind = Material::Kind::ContinueWriting;
        return true;
    }
    if (instruction.startsWith(RewritePrefix)) {
        m.kind = Material::Kind::RewriteSelection;
        m.selection = instruction.sliced(RewritePrefix.size());
        return true;
    }
    if (instruction.startsWith(ExplainPrefix)) {
        m.kind = Material::Kind::ExplainSelection;
        m.selection = instruction.sliced(ExplainPrefix.size());
        return true;
    }
    static const QRegularExpression passage(QStringLiteral("^Translate this passage into ([^\\n]{1,100}):\\n"));
    static const QRegularExpression whole(QStringLiteral("^Translate the document into ([^\\n]{1,100})\\.$"));
    if (const auto match = passage.match(instruction); match.hasMatch()) {
        m.kind = Material::Kind::Translate;
        m.targetLanguage = match.captured(1);
        m.selection = instruction.sliced(match.capturedEnd());
        return true;
    }
    if (const auto match = whole.match(instruction); match.hasMatch()) {
        m.kind = Material::Kind::Translate;
        m.targetLanguage = match.captured(1);
        return true;
    }
    return false;
}

// The library chat's message (ui/libraryretrieval.cpp writes it): "Passages from my library:",
// blocks "[n] path (heading)" + text, then "Question: ...". Read here on its own terms, not
// through the client's code.
void readLibraryMessage(const QString &message, Material &m)
{
    static const QString head = QStringLiteral("Passages from my library:\n\n");
    static const QString question = QStringLiteral("\n\nQuestion: ");
    const qsizetype at = message.lastIndexOf(question);
    if (!message.startsWith(head) || at < 0)
        return;
    static const QRegularExpression block(QStringLiteral("(?:^|\\n\\n)\\[(\\d+)\\] [^\\n]*\\n"));
    const QString body = message.sliced(head.size() - 2, at - head.size() + 2); // keeps the "\n\n" before [1]
    QList<QRegularExpressionMatch> starts;
    for (auto it = block.globalMatch(body); it.hasNext();)
        starts.append(it.next());
    if (starts.isEmpty())
        return;
    m.kind = Material::Kind::LibraryChat;
    m.question = message.sliced(at + question.size());
    for (qsizetype i = 0; i < starts.size(); ++i) {
        const qsizetype end = i + 1 < starts.size() ? starts[i + 1].capturedStart() : body.size();
        m.passages.append(body.sliced(starts[i].capturedEnd(), end - starts[i].capturedEnd()).trimmed());
    }
}

} // namespace

Material Material::from(const QList<Turn> &turns)
{
    Material m;
    // The user's messages with the document taken out of the one that carries it (a format
    // that joins consecutive user messages puts the instruction after it in the same turn).
    QStringList user;
    bool afterDocument = false;
    for (const Turn &turn : turns) {
        if (turn.role != u"user")
            continue;
        QString text = turn.text;
        if (m.document.isNull()) {
            const qsizetype open = text.indexOf(DocumentOpen);
            const qsizetype close = open < 0 ? -1 : text.indexOf(DocumentClose, open + DocumentOpen.size());
            if (close >= 0) {
                m.document = text.sliced(open + DocumentOpen.size(), close - open - DocumentOpen.size());
                text = (text.first(open) + text.sliced(close + DocumentClose.size())).trimmed();
                afterDocument = true;
                if (text.isEmpty())
                    continue;
            }
        }
        user.append(text);
    }
    if (!user.isEmpty()) {
        const QString &last = user.last();
        if (afterDocument && readAction(last, m))
            return m;
        if (!afterDocument && readWizard(last, m))
            return m;
    }
    m.kind = Kind::Chat;
    m.messages = user;
    if (!user.isEmpty())
        readLibraryMessage(user.last(), m);
    return m;
}

namespace {

// Some text part of the prompt (the system prompt) opens with `opening`: how the app's own side
// requests are told apart, read here on their own terms, not through the client's code.
bool opensWith(const QList<PromptPart> &parts, const QString &opening)
{
    return std::any_of(parts.begin(), parts.end(), [&opening](const PromptPart &part) {
        return part.kind == PromptPart::Kind::Text && part.text.startsWith(opening);
    });
}

} // namespace

bool Material::judgesDrafts(const QList<PromptPart> &parts)
{
    // The classifier's instruction opens with this sentence.
    static const QString opening = QStringLiteral("You judge chat drafts.");
    return opensWith(parts, opening);
}

bool Material::acknowledges(const QList<PromptPart> &parts)
{
    static const QString opening = QStringLiteral("You acknowledge messages.");
    return opensWith(parts, opening);
}

QString Material::text() const
{
    QStringList parts;
    for (const QString &part : {document, selection, topic, audience, tone, outline, introduction, question}) {
        if (!part.isEmpty())
            parts.append(part);
    }
    parts += messages;
    return parts.join(u'\n');
}

} // namespace LocalProvider
