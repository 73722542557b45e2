// A process that indexes one folder into one index file and prints its progress, for
// tst_knowledgeindex to kill with SIGKILL in the middle of a pass.
//
//   knowledgechild <index file> <folder>
#include "knowledge/library.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (app.arguments().size() != 3)
        return 2;
    Knowledge::Library::Options options;
    options.databasePath = app.arguments().at(1);
    Knowledge::Library library(options);
    QObject::connect(&library, &Knowledge::Library::progress, &app, [](int done, int total) {
        std::printf("progress %d %d\n", done, total);
        std::fflush(stdout);
    });
    library.setFolders({app.arguments().at(2)});
    return app.exec();
}
