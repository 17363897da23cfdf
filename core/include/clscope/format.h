// Human formatting of numbers shared by the CLI text output and the GUI.
#pragma once

#include <cstdint>
#include <string>

namespace clscope {

// 1073741824 -> "1 GiB", 1536 -> "1.5 KiB", 100 -> "100 B".
std::string formatBytes(std::uint64_t bytes);
// 1234567 ns -> "1.235 ms"; picks ns, us, ms or s.
std::string formatNanoseconds(double ns);
// 3.14159, 2 -> "3.14": fixed-point with that many decimals.
std::string formatFixed(double value, int decimals);
// 0x10de -> "0x10de".
std::string formatHex(std::uint64_t value);

} // namespace clscope
