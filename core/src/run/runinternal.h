// Private to core/src/run: the checks that binding (argspec.cpp) borrows from the initialisers, so that a
// bad initialiser is reported when the arguments are bound, before anything is allocated.
#pragma once

#include "clscope/kernelargs.h"
#include "clscope/npy.h"

#include <string>
#include <string_view>

namespace clscope::detail {

// Checks the numbers of a Zeros, Fill, Iota or Random initialiser against the buffer's type, and that a
// File initialiser's file exists. Throws RunInputError naming the argument.
void checkInitialiser(const BoundArg &arg);

// Why a file= initialiser's file cannot be read, told without opening it ("file 'a.npy' not found",
// "'pipe' is not a regular file (a FIFO)"); empty when it is a regular file.
std::string initFileProblem(const std::string &path);

// toNpy of a buffer of structs (npystruct.cpp): a structured dtype with the device's offsets.
NpyArray structsToNpy(const BufferData &buffer);

// "a: " in front of a message about argument a.
inline std::string argMessage(std::string_view name, const std::string &message)
{
    return name.empty() ? message : std::string(name) + ": " + message;
}

// Throws RunInputError about argument `name` ("name: message"), naming the argument.
[[noreturn]] inline void failArgument(std::string_view name, const std::string &message)
{
    throw RunInputError(argMessage(name, message), std::string(name));
}

// A shape as numpy prints it: "(3,)", "(2, 4)".
inline std::string shapeText(const std::vector<std::size_t> &shape)
{
    std::string out = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + (shape.size() == 1 ? ",)" : ")");
}

} // namespace clscope::detail
