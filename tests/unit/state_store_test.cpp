// state.json holds the journal cursor and the node's history: nobody but root reads it, whatever
// the umask nicd was started with.
#include "state/state_store.hpp"
#include "support/temp_dir.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

class StateStoreTest : public test::TempDirTest {};

TEST_F(StateStoreTest, TheStateFileIsPrivateWhateverTheUmask)
{
    state::StateStore store(dir_ / "state.json");
    const mode_t old = ::umask(0);
    auto saved = store.saveText("{\"version\":1}\n");
    ::umask(old);
    ASSERT_TRUE(saved) << saved.error().message;
    EXPECT_EQ(fs::status(dir_ / "state.json").permissions(), fs::perms(0600));
}
