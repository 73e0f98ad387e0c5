// Error: the base of every exception core/ throws when an operation cannot be done (a file,
// socket, server or Redis that cannot be opened, read, written or reached; a file of no known
// format). The project's whole error convention, with the other forms and when each is used,
// is stated once in docs/architecture.md, "Errors".
//
// what() is the message a user acts on, complete: the place first (the file, FILE:LINE,
// HOST:PORT, the URL with its password hidden), then the problem, then what was expected.
// Modules derive their own (SourceError, HitFileError, OutputFileError, ...) where a caller
// handles them apart; catching Error catches them all.
//
// Example: throw Error("cannot create trace file 'out.csv'");
//          catch (const Error& e) { show(e.what()); }
#pragma once

#include <stdexcept>

namespace hitcounter {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace hitcounter
