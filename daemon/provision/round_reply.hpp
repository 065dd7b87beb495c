// The answer a provisioning round owes whoever asked for it: the rows of the settings it
// verified or applied, or an error kind ("Busy", ...) and message. A move-only ticket, answered
// once on the loop thread. The caller brings its own kind of ticket (the D-Bus Apply and Verify
// calls' dbus::QosReply, wired in app/bus_wiring.cpp), so provisioning knows no sink; what a
// ticket dropped unanswered does is that ticket's (the D-Bus one answers Error.Internal).
#pragma once

#include <nicd/client/object_values.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nicd::provision {

class RoundReply {
public:
    // `ticket` has succeed(const std::vector<dbus::QosResultRow>&) (the client library's rows) and
    // fail(kind, message).
    template <class Ticket>
    explicit RoundReply(Ticket ticket) : answer_(std::make_unique<Held<Ticket>>(std::move(ticket)))
    {
    }

    void succeed(const std::vector<dbus::QosResultRow>& rows) { answer_->succeed(rows); }
    void fail(const std::string& kind, const std::string& message) { answer_->fail(kind, message); }

private:
    struct Answer {
        virtual ~Answer() = default;
        virtual void succeed(const std::vector<dbus::QosResultRow>& rows) = 0;
        virtual void fail(const std::string& kind, const std::string& message) = 0;
    };
    template <class Ticket> struct Held final : Answer {
        explicit Held(Ticket t) : ticket(std::move(t)) {}
        void succeed(const std::vector<dbus::QosResultRow>& rows) override { ticket.succeed(rows); }
        void fail(const std::string& kind, const std::string& message) override
        {
            ticket.fail(kind, message);
        }
        Ticket ticket;
    };
    std::unique_ptr<Answer> answer_;
};

} // namespace nicd::provision
