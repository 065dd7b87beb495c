// A simulated transceiver's EEPROM image, in the blob layout nicd captures and replays:
//   SFF-8636 (QSFP28, identifier 0x0C/0x0D/0x11): 640 bytes, lower page then the upper halves of
//     pages 00h, 01h, 02h, 03h (what `ethtool -m DEV raw on` writes for mlx5);
//   CMIS (QSFP-DD 0x18, OSFP 0x19, QSFP112 0x1E, ...): 768 bytes, lower page then the upper
//     halves of pages 00h, 01h, 02h, 10h, 11h; a copper cable is a flat module of 256 bytes.
// Written from SFF-8636 Rev 2.10 and CMIS 5.2 on its own, without the daemon's decoder, so a
// round trip through both checks each against the other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nicd::sim {

// One quantity's limits in the unit of the field that holds them.
struct ModuleLimits {
    double high_alarm = 0;
    double low_alarm = 0;
    double high_warning = 0;
    double low_warning = 0;
};

struct ModuleLaneSpec {
    double bias_ma = 0;
    double tx_power_mw = 0;
    double rx_power_mw = 0;
    bool tx_fault = false;
    bool rx_los = false;
};

// Defaults: a healthy NVIDIA 400G QSFP112 DR4 (CMIS 5.0, 4 lanes of 100G PAM4 at 1310 nm), every
// value well inside its warnings. qsfp28Sr4() gives a 100G SFF-8636 optic.
struct ModuleSpec {
    uint8_t identifier = 0x1E; // QSFP+ or later with CMIS (QSFP112)
    std::string vendor_name = "NVIDIA";
    std::string part_number = "MMS1X00-NS400";
    std::string serial_number = "MT2401FT00001";
    bool copper = false; // a passive DAC: no diagnostics at all
    double temperature_c = 47.5;
    double vcc_v = 3.29;
    std::vector<ModuleLaneSpec> lanes{
        {52.0, 1.45, 1.30}, {53.5, 1.50, 1.25}, {51.0, 1.40, 1.35}, {54.0, 1.55, 1.20}};
    ModuleLimits temperature_c_limits{75, -5, 70, 0};
    ModuleLimits vcc_v_limits{3.63, 2.97, 3.465, 3.135};
    ModuleLimits bias_ma_limits{100, 10, 90, 15};
    ModuleLimits tx_power_mw_limits{3.981, 0.1585, 3.162, 0.1995}; // +6, -8, +5, -7 dBm
    ModuleLimits rx_power_mw_limits{3.162, 0.1, 2.512, 0.1259};    // +5, -10, +4, -9 dBm
};

// A healthy Mellanox 100G QSFP28 SR4 (SFF-8636, 850 nm VCSEL).
ModuleSpec qsfp28Sr4();

double dbmToMilliwatts(double dbm);

// The module's blob: 640 bytes for SFF-8636 identifiers, 768 (256 for copper) for CMIS ones.
std::vector<uint8_t> moduleImage(const ModuleSpec& spec);

} // namespace nicd::sim
