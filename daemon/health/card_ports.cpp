// LinkRules' judgement of a card as a whole (NVSentinel's "card homogeneity"): a NIC card of
// several ports, some of them up, whose other ports have not been up this boot while a peer card
// (same board id, model, role and port count) has every port up, is cabled only in part:
// card_ports_fewer, degraded, check_cable, on each of its ports not up. A card is a PCI slot
// (domain:bus:device): a dual-port ConnectX is two PFs, two RDMA devices, one card.
//
// What port_never_up does not say: it is fatal only where every peer port of the model is up. A
// node with a spare card uncabled on purpose has peers down, so a half-cabled card beside it was
// only info. A card with no port up is that spare (port_never_up), never this; a port that was up
// and went down is port_down's; ExpectUp=no on a device leaves its card out.
#include "health/link_rules.hpp"
#include "health/verdicts.hpp"

#include <fmt/format.h>

#include <map>

namespace nicd::health {

namespace {

struct Card {
    const Device* first = nullptr; // its board, model and role
    size_t ports = 0;
    size_t active = 0;
    std::vector<std::pair<const Device*, const Port*>> never_up;
};

// "0000:e1:00" of "0000:e1:00.1"; empty for a device with no PCI address.
std::string slotOf(const std::string& pci_address)
{
    const auto dot = pci_address.rfind('.');
    return dot == std::string::npos ? std::string() : pci_address.substr(0, dot);
}

bool samePeer(const Card& a, const Card& b)
{
    return a.ports == b.ports && a.first->board_id == b.first->board_id &&
           a.first->hca_type == b.first->hca_type && a.first->role == b.first->role;
}

} // namespace

void LinkRules::judgeCards(const Snapshot& snap, const Config& config, double now_real,
                           std::set<ConditionKey>& seen, ConditionSet& conditions,
                           std::vector<Event>& out)
{
    std::map<std::string, Card> cards;
    for (const auto& d : snap.inventory.devices) {
        const std::string slot = slotOf(d.pci_address);
        auto ov = config.devices.find(d.ibdev);
        if (slot.empty() || d.function == DeviceFunction::VirtualFunction || d.board_id.empty() ||
            (ov != config.devices.end() && ov->second.expect_up == false))
            continue;
        auto& card = cards[slot];
        if (card.first == nullptr)
            card.first = &d;
        for (const auto& p : d.ports) {
            ++card.ports;
            if (p.active()) {
                ++card.active;
                continue;
            }
            auto mem = ports_.find({d.ibdev, p.num});
            if (p.state && (mem == ports_.end() || !mem->second.ever_up))
                card.never_up.emplace_back(&d, &p);
        }
    }
    for (const auto& [slot, card] : cards) {
        if (card.ports < 2 || card.active == 0 || card.never_up.empty())
            continue;
        const std::string* full_peer = nullptr;
        for (const auto& [other_slot, other] : cards)
            if (other_slot != slot && samePeer(card, other) && other.active == other.ports) {
                full_peer = &other_slot;
                break;
            }
        if (full_peer == nullptr)
            continue;
        for (const auto& [d, p] : card.never_up) {
            const ConditionKey key{d->ibdev, p->num, "card_ports_fewer"};
            seen.insert(key);
            conditions.raise(
                makeCondition(ConditionSource::Link, "card_ports_fewer",
                              ConditionSeverity::Degraded, d->ibdev, p->num,
                              fmt::format("card {} ({}) has {} of its {} ports up and this one "
                                          "not up this boot, while its peer card {} has all {} "
                                          "up: cabled only in part",
                                          slot, card.first->board_id, card.active, card.ports,
                                          *full_peer, card.ports),
                              "cable the port or replace its cable and transceiver; set "
                              "ExpectUp=no for " +
                                  d->ibdev + " if the card is meant to be used in part",
                              Action::CheckCable),
                now_real, out);
        }
    }
}

} // namespace nicd::health
