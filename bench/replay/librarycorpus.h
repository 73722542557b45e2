#pragma once

#include <QList>
#include <QString>

#include <memory>

namespace Bench {

// A question planted in the library, and where its answer is (the sentence, in the file's
// decoded text); `path` is empty for questions that were not written (LibraryCorpus::questions).
struct PlantedQuestion {
    QString text;
    QString path;
    qsizetype start = 0;
    qsizetype end = 0;
    bool chinese = false;
};

// A generated library of Markdown notes with planted facts whose answer passage is known
// (docs/benchmarks.md, "Knowledge base"): every other document Chinese, a title, two to four
// sections of three to five paragraphs of words drawn Zipf-like from 4,000 generated English and
// 4,000 Chinese words; each fact's entity also appears elsewhere with other attributes.
// Deterministic by seed on every platform (mt19937_64, no std distributions). bench_knowledge
// measures recall on it; the replay's library-chat traces ask its questions.
// The facts planted in a replay's library (`open_library`): the trace generator asks its
// questions and the replay writes the library, and both must draw the same corpus.
inline constexpr int ReplayLibraryPlanted = 100;

class LibraryCorpus
{
public:
    explicit LibraryCorpus(quint64 seed);
    ~LibraryCorpus();

    // Writes `docs` documents under `root` with `questions` planted facts; their total size in
    // `bytes`. Call once per object: the random numbers go on from where they were.
    QList<PlantedQuestion> write(const QString &root, int docs, int questions, qint64 *bytes);
    // The questions write() would plant for the same seed, docs and count, without writing
    // anything (no paths): what a trace of this library asks.
    QList<PlantedQuestion> questions(int docs, int questions);

private:
    class Generator;
    std::unique_ptr<Generator> m_generator;
};

} // namespace Bench
