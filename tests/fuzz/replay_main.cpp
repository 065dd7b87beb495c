// Runs a fuzz target over files, as libFuzzer replays a corpus: every file named on the command
// line (or every file of every directory named) is one input. Built where libFuzzer is not, so
// the targets run on their seed inputs in every `make check`.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void runFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}

} // namespace

int main(int argc, char** argv)
{
    size_t inputs = 0;
    for (int i = 1; i < argc; ++i) {
        std::filesystem::path p(argv[i]);
        if (std::filesystem::is_directory(p)) {
            for (const auto& e : std::filesystem::recursive_directory_iterator(p))
                if (e.is_regular_file()) {
                    runFile(e.path());
                    ++inputs;
                }
        } else {
            runFile(p);
            ++inputs;
        }
    }
    // Truncations of nothing and of one byte: the edges every decoder must survive.
    LLVMFuzzerTestOneInput(nullptr, 0);
    const uint8_t one = 0xff;
    LLVMFuzzerTestOneInput(&one, 1);
    std::printf("%zu inputs replayed\n", inputs);
    return inputs > 0 ? 0 : 1;
}
