// How often something may happen, as a token bucket: a burst of `burst` at once, then one every
// `period_usec`. Pure (times are given), so the loop's pacing is tested without a loop.
//
// nicd publishes (renders the textfile, updates D-Bus) after every cycle and also when something
// happens between cycles: a kernel error line, a link event, a QoS round, a firmware reporter.
// A storm of those (an mlx5 error repeated a thousand times a second, a flapping link, clients
// calling Verify in a loop) must not keep the loop rendering: past the burst they are published
// together when the next token comes.
#pragma once

#include <algorithm>
#include <cstdint>

namespace nicd::loop {

class Pacer {
public:
    Pacer(uint32_t burst, uint64_t period_usec) : burst_(burst), period_usec_(period_usec) {}

    // True (and a token spent) when it may happen now.
    bool take(uint64_t now_usec)
    {
        refill(now_usec);
        if (tokens_ == 0)
            return false;
        --tokens_;
        return true;
    }
    // How long until take() would be true (0: now).
    uint64_t waitUsec(uint64_t now_usec)
    {
        refill(now_usec);
        return tokens_ > 0 ? 0 : since_ + period_usec_ - now_usec;
    }

private:
    void refill(uint64_t now_usec)
    {
        if (!started_) {
            started_ = true;
            tokens_ = burst_;
            since_ = now_usec;
            return;
        }
        if (tokens_ >= burst_) { // full: the next token is earned from when one is spent
            since_ = std::max(since_, now_usec);
            return;
        }
        if (now_usec < since_ || period_usec_ == 0)
            return;
        uint64_t earned = (now_usec - since_) / period_usec_;
        if (earned == 0)
            return;
        tokens_ = static_cast<uint32_t>(std::min<uint64_t>(burst_, tokens_ + earned));
        since_ = tokens_ == burst_ ? now_usec : since_ + earned * period_usec_;
    }

    uint32_t burst_;
    uint64_t period_usec_;
    uint32_t tokens_ = 0;
    uint64_t since_ = 0; // when the token being earned started
    bool started_ = false;
};

} // namespace nicd::loop
